import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeFeishuServer, type FakeFeishu } from '../../../test/fakes/fake-feishu/fake-feishu-server.js';
import { converse as baseConverse, type ScriptStep } from '../../../test/helpers/setup-conversation.js';
import { loadConfig } from '../../core/config.js';
import { resolvePaths } from '../../core/paths.js';
import type { SetupFlags } from './setup-answers.js';
import { SetupError } from './setup-error.js';

const APP_ID = 'cli_00112233445566ff';
const SECRET = 'Wk2-wizard-secret-58c0d1';

let fake: FakeFeishu;
let tmp: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  fake = await startFakeFeishuServer({ appSecret: SECRET });
});
afterAll(async () => {
  await fake.close();
});
beforeEach(() => {
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'ccl-wizard-')));
  for (const d of ['Git/proj', 'Workspace']) fs.mkdirSync(path.join(tmp, d), { recursive: true });
  env = { HOME: tmp, CC_LINKER_HOME: path.join(tmp, '.cc-linker') };
});
afterEach(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
});

const configFile = () => path.join(tmp, '.cc-linker', 'config.toml');
const noFlags: SetupFlags = { check: true, yes: false, skipFeishu: false };

const converse = (script: ScriptStep[], opts: { terminal?: boolean; flags?: SetupFlags } = {}) =>
  baseConverse(script, { env, cwd: tmp, flags: opts.flags ?? noFlags, ...opts });

const happyScript = (): ScriptStep[] => [
  [/^语言 \/ Language（zh \/ en） \[zh\]: $/, 'en'],
  [/^Chat apps to set up: 1\) feishu \(Feishu \/ Lark\), 2\) telegram \(Telegram\).* \[feishu\]: $/, ''],
  [/^Platform: .* \[feishu\]: $/, fake.baseUrl],
  [/^App ID /, APP_ID],
  [/^App Secret \(not shown while you type\): $/, SECRET],
  [/^owner_open_id \(press Enter to leave it empty\): $/, ''],
  [/^Turn on allow_auto_bind_owner instead .* \[y\/N\]: $/, 'n'],
  [/^Allowed root directories .* \[~\/Git, ~\/Workspace\]: $/, `${path.join(tmp, 'Git')}, Workspace`],
  [/^Default working directory /, 'Git/proj'],
  [/^Write the config file\? \[Y\/n\]: $/, 'y'],
];

async function reload() {
  return (await loadConfig({ paths: resolvePaths(env), env: { HOME: tmp, CC_LINKER_HOME: env.CC_LINKER_HOME } }))
    .config;
}

describe('setup wizard (scripted input)', () => {
  it('asks every question, checks the credentials, writes what was answered', async () => {
    const r = await converse(happyScript());
    expect(r.mismatches).toEqual([]);
    expect(r.result).toMatchObject({ file: configFile(), backup: null, credentials: 'ok' });
    expect(r.transcript).toContain('cc-linker 设置向导：将写入 ~/.cc-linker/config.toml');
    expect(r.transcript).toContain('✅ Credentials accepted');
    expect(r.transcript).toContain('send /whoami');
    expect(r.transcript).toMatch(/App Secret: \(set, hidden\)/);
    expect(r.stdout).toContain(
      'Next: run cc-linker start, send /whoami to the bot in Feishu, then run cc-linker setup --owner <open_id>.',
    );
    const config = await reload();
    expect(config.general.language).toBe('en');
    expect(config.feishu_bot).toEqual({
      app_id: APP_ID,
      app_secret: SECRET,
      owner_open_id: '',
      allow_auto_bind_owner: false,
      default_cwd: path.join(tmp, 'Git/proj'),
      domain: fake.baseUrl,
    });
    expect(config.security.allowed_roots).toEqual([path.join(tmp, 'Git'), path.join(tmp, 'Workspace')]);
    expect(fs.statSync(configFile()).mode & 0o777).toBe(0o600);
    expect(`${r.transcript}\n${r.stdout}\n${r.stderr}`).not.toContain(SECRET);
  });

  it('on a terminal the secret is not echoed (typed answers are)', async () => {
    const r = await converse(happyScript(), { terminal: true });
    expect(r.mismatches).toEqual([]);
    expect(r.result).toMatchObject({ credentials: 'ok' });
    expect(r.transcript).toContain(APP_ID);
    expect(r.transcript).not.toContain(SECRET);
  });

  it('a rejected secret can be typed again; a bad answer is explained and asked again', async () => {
    const script = happyScript();
    script.splice(
      3,
      2,
      [/^App ID /, 'cli_nothex'],
      [/^App ID /, APP_ID],
      [/^App Secret /, 'wrong-secret-999'],
      [/^Enter the App ID and App Secret again\? \[Y\/n\]: $/, ''],
      [new RegExp(`^App ID .*\\[${APP_ID}\\]: $`), ''],
      [/^App Secret \(not shown/, SECRET],
    );
    const r = await converse(script);
    expect(r.mismatches).toEqual([]);
    expect(r.result).toMatchObject({ credentials: 'ok' });
    expect(r.transcript).toContain('An App ID is "cli_" followed by 16 hex digits');
    expect(r.transcript).toMatch(/❌ Feishu rejected these credentials \(code 10014/);
    expect(r.transcript).not.toContain('wrong-secret-999');
    expect((await reload()).feishu_bot.app_secret).toBe(SECRET);
  });

  it('keeps using CC_LINKER_FEISHU_APP_SECRET when asked to, and writes no secret', async () => {
    env = { ...env, CC_LINKER_FEISHU_APP_SECRET: SECRET };
    const script = happyScript();
    script.splice(4, 1, [/^CC_LINKER_FEISHU_APP_SECRET is set: keep using it .* \[Y\/n\]: $/, 'y']);
    const r = await converse(script);
    expect(r.mismatches).toEqual([]);
    expect(r.result).toMatchObject({ credentials: 'ok' });
    expect(r.transcript).toContain('(from CC_LINKER_FEISHU_APP_SECRET, not written to the file)');
    expect(fs.readFileSync(configFile(), 'utf8')).toContain('app_secret = ""');
  });

  it('input that ends early, or a "no" at the end, writes nothing', async () => {
    let r = await converse(happyScript().slice(0, 4));
    expect(r.result).toBeInstanceOf(SetupError);
    expect((r.result as SetupError).userMessage).toBe('the input ended before setup was complete; nothing was written');
    expect(fs.existsSync(configFile())).toBe(false);
    const script = happyScript();
    script[script.length - 1] = [/^Write the config file\?/, 'n'];
    r = await converse(script);
    expect((r.result as SetupError).code).toBe('SETUP_DECLINED');
    expect(fs.existsSync(configFile())).toBe(false);
  });

  it('with answer flags it asks only what is missing', async () => {
    const r = await converse([[/^App Secret \(not shown/, SECRET]], {
      flags: {
        ...noFlags,
        language: 'en',
        appId: APP_ID,
        domain: fake.baseUrl,
        owner: 'ou_me',
        allowedRoot: [path.join(tmp, 'Git')],
      },
    });
    expect(r.mismatches).toEqual([]);
    expect(r.answered).toBe(1);
    expect(r.result).toMatchObject({ credentials: 'ok' });
    expect((await reload()).feishu_bot).toMatchObject({ app_id: APP_ID, app_secret: SECRET, owner_open_id: 'ou_me' });
  });
});
