import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeFeishuServer, type FakeFeishu } from '../../../test/fakes/fake-feishu/fake-feishu-server.js';
import { useSetupHome } from '../../../test/helpers/setup-home.js';
import { loadConfig } from '../../core/config.js';
import { resolvePaths } from '../../core/paths.js';

const APP_ID = 'cli_0123456789abcdef';
const SECRET = 'Zq8-setup-secret-7f3a91';

let fake: FakeFeishu;

beforeAll(async () => {
  fake = await startFakeFeishuServer({ appSecret: SECRET });
});
afterAll(async () => {
  await fake.close();
});
const home = useSetupHome({
  prefix: 'ccl-setup-',
  dirs: ['Git/proj', 'Workspace', 'Downloads/x'],
  extraEnv: (home) => ({ CLAUDE_CONFIG_DIR: path.join(home, '.claude') }),
  secrets: () => [SECRET],
});
const { run, reload, configFile } = home;

const answers = () => [
  '--app-id',
  APP_ID,
  '--app-secret',
  SECRET,
  '--domain',
  fake.baseUrl,
  '--owner',
  'ou_owner1',
  '--default-cwd',
  path.join(home.tmp, 'Git/proj'),
  '--allowed-root',
  path.join(home.tmp, 'Git'),
  path.join(home.tmp, 'Workspace'),
  '--language',
  'en',
];

describe('cc-linker setup (non-interactive)', () => {
  it('stdin is not a terminal in this test process', () => {
    expect(process.stdin.isTTY).toBeFalsy();
  });

  it('checks the credentials, writes every answer, 0600 in a 0700 directory', async () => {
    const tokensBefore = fake.tokenRequests.length;
    const r = await run(...answers());
    expect(r.code).toBe(0);
    expect(fake.tokenRequests.slice(tokensBefore)).toEqual([expect.objectContaining({ app_id: APP_ID, ok: true })]);
    expect(r.stderr).toContain('Credentials accepted');
    expect(r.stdout).toContain('✅ Wrote ~/.cc-linker/config.toml');
    expect(r.stdout).toContain('Next: run cc-linker start, then message the bot');

    const config = await reload();
    expect(config.feishu_bot).toEqual({
      app_id: APP_ID,
      app_secret: SECRET,
      owner_open_id: 'ou_owner1',
      allow_auto_bind_owner: false,
      default_cwd: path.join(home.tmp, 'Git/proj'),
      domain: fake.baseUrl,
    });
    expect(config.security.allowed_roots).toEqual([path.join(home.tmp, 'Git'), path.join(home.tmp, 'Workspace')]);
    expect(config.general.language).toBe('en');
    expect(fs.statSync(configFile()).mode & 0o777).toBe(0o600);
    expect(fs.statSync(path.dirname(configFile())).mode & 0o777).toBe(0o700);
    expect(fs.existsSync(`${configFile()}.bak`)).toBe(false);
    const text = fs.readFileSync(configFile(), 'utf8');
    expect(text).toContain('[feishu_bot]');
    expect(text).toMatch(/# Your own open_id.*\n.*\nowner_open_id = "ou_owner1"/);
  });

  it('a wrong secret: one clear line, exit 1, nothing written', async () => {
    const args = answers();
    args[3] = 'wrong-secret-123456';
    const r = await run(...args);
    expect(r.code).toBe(1);
    expect(r.stderr.split('\n').filter((l) => l.startsWith('✖'))).toEqual([
      expect.stringMatching(
        /^✖ Feishu rejected these credentials \(code 10014: app secret invalid.*nothing was written.*--domain/,
      ),
    ]);
    expect(r.stderr).not.toContain('wrong-secret-123456');
    expect(fs.existsSync(configFile())).toBe(false);
  });

  it('a malformed app id is refused before any request, naming the flag', async () => {
    const tokensBefore = fake.tokenRequests.length;
    const args = answers();
    args[1] = 'cli_123';
    const r = await run(...args);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      '✖ --app-id is invalid: An App ID is "cli_" followed by 16 hex digits, e.g. cli_a1b2c3d4e5f60718',
    );
    expect(fake.tokenRequests.length).toBe(tokensBefore);
    expect(fs.existsSync(configFile())).toBe(false);
  });

  it('without a terminal a missing answer is one line naming the flag (zh by default)', async () => {
    let r = await run('--domain', fake.baseUrl);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('✖ 缺少 --app-id（或环境变量 CC_LINKER_FEISHU_APP_ID）：非交互模式下 setup 不会提问');
    r = await run('--app-id', APP_ID, '--language', 'en');
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      '✖ missing --app-secret (or CC_LINKER_FEISHU_APP_SECRET): setup does not ask questions when it is not interactive',
    );
    expect(fs.existsSync(configFile())).toBe(false);
  });

  it('answers from the environment; the secret stays there and is not written', async () => {
    Object.assign(home.env, {
      CC_LINKER_FEISHU_APP_ID: APP_ID,
      CC_LINKER_FEISHU_APP_SECRET: SECRET,
      CC_LINKER_FEISHU_DOMAIN: fake.baseUrl,
    });
    const r = await run('--yes', '--allowed-root', path.join(home.tmp, 'Git'));
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(
      '下一步：运行 cc-linker start，在飞书里给机器人发送 /whoami，再运行 cc-linker setup --owner <open_id>。',
    );
    const config = await reload();
    expect(config.feishu_bot.app_id).toBe(APP_ID);
    expect(config.feishu_bot.app_secret).toBe('');
    expect(config.feishu_bot.domain).toBe(fake.baseUrl);
    expect(fs.readFileSync(configFile(), 'utf8')).not.toContain(SECRET);
  });

  it('a rerun keeps other keys, unknown keys and the secret, and backs the old file up', async () => {
    fs.mkdirSync(path.dirname(configFile()), { recursive: true });
    const old = [
      '# my notes',
      '[general]',
      'log_level = "debug"',
      'mystery = "kept"',
      '[feishu_bot]',
      `app_id = "${APP_ID}"`,
      `app_secret = "${SECRET}"`,
      `domain = "${fake.baseUrl}"`,
      '[runtime]',
      'max_concurrent_sessions = 3',
      '[claude]',
      'models = { sonnet = "claude-sonnet-4-5" }',
      '[ccexec.providers.local]',
      'kind = "openai-compatible"',
      'base_url = "http://127.0.0.1:1234/v1"',
      'model = "qwen"',
      '[extra_section]',
      'x = [1, 2]',
      '',
    ].join('\n');
    fs.writeFileSync(configFile(), old);
    const r = await run('--owner', 'ou_owner2', '--allowed-root', path.join(home.tmp, 'Git'));
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('原文件已备份为 ~/.cc-linker/config.toml.bak');
    expect(fs.readFileSync(`${configFile()}.bak`, 'utf8')).toBe(old);
    expect(fs.statSync(`${configFile()}.bak`).mode & 0o777).toBe(0o600);
    const config = await reload();
    expect(config.feishu_bot).toMatchObject({
      owner_open_id: 'ou_owner2',
      app_id: APP_ID,
      app_secret: SECRET,
      domain: fake.baseUrl,
    });
    expect(config.general.log_level).toBe('debug');
    expect(config.runtime.max_concurrent_sessions).toBe(3);
    expect(config.claude.models).toEqual({ sonnet: 'claude-sonnet-4-5' });
    expect(config.ccexec.providers).toEqual({
      local: { kind: 'openai-compatible', base_url: 'http://127.0.0.1:1234/v1', model: 'qwen', api_key_env: '' },
    });
    const text = fs.readFileSync(configFile(), 'utf8');
    expect(text).toContain('mystery = "kept"');
    expect(text).toContain('[extra_section]\nx = [1, 2]');
    expect((await loadConfig({ paths: resolvePaths(home.env), env: {} })).warnings.join('\n')).toContain(
      "unknown key 'general.mystery'",
    );
  });

  it('an unreachable Feishu stops with a hint; --no-check writes without asking Feishu', async () => {
    const dead = await startFakeFeishuServer({ appSecret: SECRET });
    const deadUrl = dead.baseUrl;
    await dead.close();
    const args = answers();
    args[5] = deadUrl;
    let r = await run(...args);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /✖ could not reach 127\.0\.0\.1:\d+ to check the credentials \(.+\); nothing was written\. Retry when the network is back, or pass --no-check/,
    );
    expect(fs.existsSync(configFile())).toBe(false);
    r = await run(...args, '--no-check');
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('Credentials not checked (--no-check)');
    expect((await reload()).feishu_bot.domain).toBe(deadUrl);
  });

  it('--skip-feishu configures the console and leaves the Feishu keys alone', async () => {
    const r = await run('--skip-feishu', '--language', 'en', '--allowed-root', path.join(home.tmp, 'Workspace'));
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Next: run cc-linker start (with no chat app set up it serves the local console only).');
    expect(fake.tokenRequests.every((t) => t.app_id === APP_ID)).toBe(true);
    const config = await reload();
    expect(config.web.enabled).toBe(true);
    expect(config.feishu_bot.app_id).toBe('');
    expect(config.security.allowed_roots).toEqual([path.join(home.tmp, 'Workspace')]);
  });

  it('directories: a missing one is refused; a root under a denied root and a default cwd outside the roots are warned about', async () => {
    let r = await run('--skip-feishu', '--allowed-root', path.join(home.tmp, 'nope'));
    expect(r.code).toBe(2);
    expect(r.stderr.split('\n').filter((l) => l.startsWith('✖'))).toEqual([
      `✖ --allowed-root 无效：目录不存在：${path.join(home.tmp, 'nope')}`,
    ]);
    r = await run(
      '--skip-feishu',
      '--language',
      'en',
      '--allowed-root',
      path.join(home.tmp, 'Downloads/x'),
      '--default-cwd',
      path.join(home.tmp, 'Git/proj'),
    );
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(
      `The allowed root ${path.join(home.tmp, 'Downloads/x')} is covered by security.denied_roots`,
    );
    expect(r.stderr).toContain('The default working directory cannot be used from chat');
  });

  it('--owner must look like an open_id (refused before asking Feishu); --auto-bind-owner warns', async () => {
    const tokensBefore = fake.tokenRequests.length;
    let r = await run(
      ...answers().slice(0, 6),
      '--owner',
      'alice',
      '--allowed-root',
      path.join(home.tmp, 'Git'),
      '--language',
      'en',
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('✖ --owner is invalid: An open_id starts with ou_ (send /whoami to the bot to see yours)');
    expect(fake.tokenRequests.length).toBe(tokensBefore);
    r = await run(
      ...answers().slice(0, 6),
      '--auto-bind-owner',
      '--allowed-root',
      path.join(home.tmp, 'Git'),
      '--language',
      'en',
    );
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('With allow_auto_bind_owner on, the first person');
    expect(r.stdout).toContain('send the bot a first message — you become its owner');
    expect((await reload()).feishu_bot.allow_auto_bind_owner).toBe(true);
  });
});
