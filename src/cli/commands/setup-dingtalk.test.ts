import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  FAKE_CLIENT_ID,
  FAKE_CLIENT_SECRET,
  startFakeDingTalk,
  type FakeDingTalk,
} from '../../../test/fakes/fake-dingtalk/fake-dingtalk-server.js';
import { foreignRuns } from '../../../test/helpers/one-language.js';
import { useSetupHome } from '../../../test/helpers/setup-home.js';
import { setupCommand } from './setup.js';

/** `cc-linker setup` for DingTalk without a terminal: flags and variables, the real credentials check against the fake DingTalk. */
const WRONG_SECRET = 'wrong-dingtalk-secret-0123456789abcdef';

let fake: FakeDingTalk;

beforeAll(async () => {
  fake = await startFakeDingTalk();
});
afterAll(async () => {
  await fake.close();
});
const home = useSetupHome({ prefix: 'ccl-setup-dingtalk-', secrets: () => [FAKE_CLIENT_SECRET, WRONG_SECRET] });
const { run, reload, configFile } = home;

const dingtalk = (secret = FAKE_CLIENT_SECRET, apiBase = fake.apiBase, lang = 'en') => [
  '--channels',
  'dingtalk',
  '--dingtalk-client-id',
  FAKE_CLIENT_ID,
  '--dingtalk-client-secret',
  secret,
  '--dingtalk-api-base',
  apiBase,
  '--allowed-root',
  path.join(home.tmp, 'Git'),
  '--language',
  lang,
];

describe('cc-linker setup --channels dingtalk (non-interactive)', () => {
  it('checks the pair, writes [dingtalk] 0600, leaves Feishu out', async () => {
    const before = fake.tokenCalls;
    const r = await run(...dingtalk(), '--dingtalk-owner-staff-id', 'manager4521');
    expect(r.code).toBe(0);
    expect(fake.tokenCalls).toBe(before + 1);
    expect(r.stderr).toContain('✅ DingTalk accepted the Client ID and Client Secret');
    expect(r.stdout).toContain(
      'Next (DingTalk): run cc-linker start, then message the robot in a single chat in DingTalk.',
    );
    expect(r.stdout).not.toContain('Feishu');
    expect(foreignRuns(`${r.stdout}\n${r.stderr}`, 'en')).toEqual([]);
    const config = await reload();
    expect(config.dingtalk).toEqual({
      enabled: true,
      client_id: FAKE_CLIENT_ID,
      client_secret: FAKE_CLIENT_SECRET,
      owner_staff_id: 'manager4521',
      allow_auto_bind_owner: false,
      api_base: fake.apiBase,
      oapi_base: 'https://oapi.dingtalk.com',
      card_template_id: '',
      card_template_key: 'content',
    });
    expect(config.feishu_bot.app_id).toBe('');
    expect(fs.statSync(configFile()).mode & 0o777).toBe(0o600);
    expect(fs.statSync(path.dirname(configFile())).mode & 0o777).toBe(0o700);
  });

  it('a refused pair: one clear line, exit 1, nothing written (the old file untouched)', async () => {
    let r = await run(...dingtalk(WRONG_SECRET));
    expect(r.code).toBe(1);
    expect(r.stderr.split('\n').filter((l) => l.startsWith('✖'))).toEqual([
      "✖ DingTalk refused this Client ID / Client Secret (DingTalk said “HTTP 400 invalidClientIdOrSecret: 无效的clientId或者clientSecret”); nothing was written. Copy them again from the app's credentials at https://open-dev.dingtalk.com",
    ]);
    // DingTalk's own words (Chinese here) are quoted, never spliced into the sentence.
    expect(foreignRuns(r.stderr, 'en')).toEqual([]);
    r = await run(...dingtalk(WRONG_SECRET, fake.apiBase, 'zh'));
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      '✖ 钉钉拒绝了这组 Client ID / Client Secret（钉钉答复「HTTP 400 invalidClientIdOrSecret',
    );
    expect(foreignRuns(r.stderr, 'zh')).toEqual([]);
    expect(fs.existsSync(configFile())).toBe(false);
    fs.mkdirSync(path.dirname(configFile()), { recursive: true, mode: 0o700 });
    const old = `[dingtalk]\nenabled = true\nclient_id = "${FAKE_CLIENT_ID}"\nowner_staff_id = "manager4521"\n`;
    fs.writeFileSync(configFile(), old, { mode: 0o600 });
    r = await run(...dingtalk(WRONG_SECRET));
    expect(r.code).toBe(1);
    expect(fs.readFileSync(configFile(), 'utf8')).toBe(old);
    expect(fs.existsSync(`${configFile()}.bak`)).toBe(false);
  });

  it('DingTalk unreachable: a warning, and the credentials are written (offline setup)', async () => {
    const down = await startFakeDingTalk();
    const downBase = down.apiBase;
    await down.close();
    const r = await run(...dingtalk(FAKE_CLIENT_SECRET, downBase), '--dingtalk-auto-bind-owner');
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(
      /⚠️ Could not reach 127\.0\.0\.1:\d+ to check the DingTalk credentials \(“.+”\)\. They are saved anyway/,
    );
    expect(r.stderr).toContain('With auto-bind on, the first person');
    expect(r.stdout).toContain('send the robot a first message in a single chat at once');
    expect((await reload()).dingtalk).toMatchObject({
      client_id: FAKE_CLIENT_ID,
      client_secret: FAKE_CLIENT_SECRET,
      allow_auto_bind_owner: true,
      api_base: downBase,
    });
  });

  it('--no-check writes without asking DingTalk; an API address loses its final /; a card template is written', async () => {
    const before = fake.tokenCalls;
    const r = await run(
      ...dingtalk(FAKE_CLIENT_SECRET, `${fake.apiBase}/`),
      '--no-check',
      '--dingtalk-card-template-id',
      'tpl-0001.schema',
    );
    expect(r.code).toBe(0);
    expect(fake.tokenCalls).toBe(before);
    expect(r.stderr).toContain('DingTalk credentials not checked (--no-check)');
    expect((await reload()).dingtalk).toMatchObject({ api_base: fake.apiBase, card_template_id: 'tpl-0001.schema' });
  });

  it('bad answers are refused before any request, naming the flag and never echoing the secret', async () => {
    const before = fake.tokenCalls;
    let r = await run(...dingtalk(), '--dingtalk-client-id', 'ding id with spaces');
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      "✖ --dingtalk-client-id is invalid: A Client ID has only letters, digits, _, . or - (the Client ID in the app's credentials, formerly AppKey)",
    );
    r = await run(...dingtalk(`${FAKE_CLIENT_SECRET} tail`));
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('✖ --dingtalk-client-secret is invalid: A Client Secret is printable ASCII');
    r = await run(...dingtalk(''));
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('✖ --dingtalk-client-secret is invalid: The Client Secret cannot be empty');
    r = await run(...dingtalk(), '--dingtalk-owner-staff-id', 'a b');
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      '✖ --dingtalk-owner-staff-id is invalid: A staffId has only letters, digits, _ or -, like manager4521',
    );
    r = await run(...dingtalk(FAKE_CLIENT_SECRET, 'api.dingtalk.com'));
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      '✖ --dingtalk-api-base is invalid: The DingTalk OpenAPI address starts with http:// or https://',
    );
    r = await run(...dingtalk(), '--dingtalk-card-template-id', 'my template');
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      '✖ --dingtalk-card-template-id is invalid: An AI card template id has only letters, digits, _, . or -',
    );
    r = await run(
      '--channels',
      'dingtalk',
      '--dingtalk-client-id',
      FAKE_CLIENT_ID,
      '--allowed-root',
      path.join(home.tmp, 'Git'),
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      '✖ 缺少 --dingtalk-client-secret（或环境变量 CC_LINKER_DINGTALK_CLIENT_SECRET）：非交互模式下 setup 不会提问',
    );
    r = await run('--channels', 'dingtalk', '--allowed-root', path.join(home.tmp, 'Git'), '--language', 'en');
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      '✖ missing --dingtalk-client-id (or CC_LINKER_DINGTALK_CLIENT_ID): setup does not ask questions when it is not interactive',
    );
    expect(fake.tokenCalls).toBe(before);
    expect(fs.existsSync(configFile())).toBe(false);
  });

  it('answers from the environment choose DingTalk; the secret stays there and is not written', async () => {
    fs.mkdirSync(path.dirname(configFile()), { recursive: true, mode: 0o700 });
    fs.writeFileSync(configFile(), `[dingtalk]\napi_base = "${fake.apiBase}"\n`, { mode: 0o600 });
    Object.assign(home.env, {
      CC_LINKER_DINGTALK_CLIENT_ID: FAKE_CLIENT_ID,
      CC_LINKER_DINGTALK_CLIENT_SECRET: FAKE_CLIENT_SECRET,
      CC_LINKER_DINGTALK_OWNER_STAFF_ID: 'manager4521',
    });
    const before = fake.tokenCalls;
    const r = await run('--yes', '--allowed-root', path.join(home.tmp, 'Git'), '--language', 'en');
    expect(r.code).toBe(0);
    expect(fake.tokenCalls).toBe(before + 1);
    const config = await reload();
    expect(config.dingtalk).toMatchObject({
      enabled: true,
      client_id: FAKE_CLIENT_ID,
      client_secret: '',
      owner_staff_id: 'manager4521',
    });
    expect(config.feishu_bot.app_id).toBe('');
    expect(fs.readFileSync(configFile(), 'utf8')).not.toContain(FAKE_CLIENT_SECRET);
  });

  it('a malformed secret variable is refused by name, its value hidden, nothing written', async () => {
    Object.assign(home.env, {
      CC_LINKER_DINGTALK_CLIENT_ID: FAKE_CLIENT_ID,
      CC_LINKER_DINGTALK_CLIENT_SECRET: 'two words',
    });
    const r = await run('--channels', 'dingtalk', '--allowed-root', path.join(home.tmp, 'Git'), '--language', 'en');
    // The configuration (with its variables) is read before setup runs: its own error, the value hidden.
    expect(r.code).toBe(78);
    expect(r.stderr).toContain(
      '✖ environment CC_LINKER_DINGTALK_CLIENT_SECRET: dingtalk.client_secret = (hidden) is invalid',
    );
    expect(r.stderr).not.toContain('two words');
    expect(fs.existsSync(configFile())).toBe(false);
  });

  it('a re-run keeps the secret, the Slack keys and the rest; an owner flag alone chooses DingTalk; "" clears the template', async () => {
    fs.mkdirSync(path.dirname(configFile()), { recursive: true, mode: 0o700 });
    const old = [
      '[slack]',
      'enabled = true',
      'bot_token = "xoxb-1111-2222-KeptSlackBotToken"',
      '[dingtalk]',
      'enabled = true',
      `client_id = "${FAKE_CLIENT_ID}"`,
      `client_secret = "${FAKE_CLIENT_SECRET}"`,
      `api_base = "${fake.apiBase}"`,
      'card_template_id = "tpl-0001.schema"',
      '[runtime]',
      'max_concurrent_sessions = 3',
      '',
    ].join('\n');
    fs.writeFileSync(configFile(), old, { mode: 0o600 });
    const r = await run(
      '--dingtalk-owner-staff-id',
      'manager4521',
      '--dingtalk-card-template-id',
      '',
      '--allowed-root',
      path.join(home.tmp, 'Git'),
      '--language',
      'en',
    );
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('DingTalk accepted the Client ID and Client Secret');
    expect(r.stderr).not.toContain('Slack');
    const config = await reload();
    expect(config.dingtalk).toMatchObject({
      enabled: true,
      client_id: FAKE_CLIENT_ID,
      client_secret: FAKE_CLIENT_SECRET,
      owner_staff_id: 'manager4521',
      card_template_id: '',
    });
    expect(config.slack).toMatchObject({ enabled: true, bot_token: 'xoxb-1111-2222-KeptSlackBotToken' });
    expect(config.runtime.max_concurrent_sessions).toBe(3);
    expect(fs.readFileSync(`${configFile()}.bak`, 'utf8')).toBe(old);
  });

  it('--help names DingTalk and its options', () => {
    expect(setupCommand.description).toMatch(/the chat apps \(.*DingTalk/);
    expect(setupCommand.options?.find((o) => o.flags === '--channels <apps>')?.description).toContain('dingtalk');
    const flags = (setupCommand.options ?? []).map((o) => o.flags);
    expect(flags).toEqual(
      expect.arrayContaining([
        '--dingtalk-client-id <id>',
        '--dingtalk-client-secret <secret>',
        '--dingtalk-owner-staff-id <id>',
        '--dingtalk-auto-bind-owner',
        '--no-dingtalk-auto-bind-owner',
        '--dingtalk-card-template-id <id>',
        '--dingtalk-api-base <url>',
      ]),
    );
  });
});
