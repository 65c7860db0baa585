import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  FAKE_APP_TOKEN,
  FAKE_BOT_TOKEN,
  startFakeSlack,
  type FakeSlack,
} from '../../../test/fakes/fake-slack/fake-slack-server.js';
import { useSetupHome } from '../../../test/helpers/setup-home.js';
import { setupCommand } from './setup.js';

/** `cc-linker setup` for Slack without a terminal: flags and variables, the real Slack client against the fake Slack. */
const WRONG_BOT = 'xoxb-9999-8888-WrongBotTokenWrong';

let fake: FakeSlack;

beforeAll(async () => {
  fake = await startFakeSlack();
});
afterAll(async () => {
  await fake.close();
});
const home = useSetupHome({ prefix: 'ccl-setup-slack-', secrets: () => [FAKE_BOT_TOKEN, FAKE_APP_TOKEN, WRONG_BOT] });
const { run, reload, configFile } = home;

const checks = () => fake.callsOf('auth.test').length + fake.callsOf('apps.connections.open').length;

const slack = (bot = FAKE_BOT_TOKEN, apiUrl = fake.apiUrl) => [
  '--channels',
  'slack',
  '--slack-bot-token',
  bot,
  '--slack-app-token',
  FAKE_APP_TOKEN,
  '--slack-api-url',
  apiUrl,
  '--allowed-root',
  path.join(home.tmp, 'Git'),
  '--language',
  'en',
];

describe('cc-linker setup --channels slack (non-interactive)', () => {
  it('checks both tokens (the app named), writes [slack] 0600, leaves Feishu out', async () => {
    const before = checks();
    const r = await run(...slack(), '--slack-owner-user-id', 'U0OWNER');
    expect(r.code).toBe(0);
    expect(checks()).toBe(before + 2);
    expect(r.stderr).toContain('✅ Tokens accepted: the app is @cc-linker (workspace Fake Team)');
    // One line names the app manifest shipped with the package.
    const manifest = /^Slack app manifest \(paste it at .* From a manifest\): (\S+)$/m.exec(r.stderr)?.[1] ?? '';
    expect(manifest).toBe(path.resolve('docs/slack-app-manifest.yaml'));
    expect(r.stdout).toContain('Next (Slack): run cc-linker start, then message @cc-linker directly in Slack.');
    expect(r.stdout).not.toContain('Feishu');
    const config = await reload();
    expect(config.slack).toEqual({
      enabled: true,
      bot_token: FAKE_BOT_TOKEN,
      app_token: FAKE_APP_TOKEN,
      owner_user_id: 'U0OWNER',
      allow_auto_bind_owner: false,
      api_url: fake.apiUrl,
    });
    expect(config.feishu_bot.app_id).toBe('');
    expect(fs.statSync(configFile()).mode & 0o777).toBe(0o600);
    expect(fs.statSync(path.dirname(configFile())).mode & 0o777).toBe(0o700);
  });

  it('bot scopes the app lacks: a warning naming each and the fix, and the tokens are written', async () => {
    const all = fake.scopes;
    fake.scopes = all?.filter((s) => s !== 'im:write');
    try {
      const r = await run(...slack(), '--slack-owner-user-id', 'U0OWNER');
      expect(r.code).toBe(0);
      expect(r.stderr).toContain(
        '⚠️ Slack: the app lacks bot scopes: im:write (telling a /cc is in your DM). Add them at api.slack.com/apps',
      );
      expect(r.stderr).toContain('docs/slack-app-manifest.yaml. The tokens are written anyway.');
      expect((await reload()).slack.bot_token).toBe(FAKE_BOT_TOKEN);
    } finally {
      fake.scopes = all;
    }
    const ok = await run(...slack(), '--slack-owner-user-id', 'U0OWNER');
    expect(ok.stderr).not.toContain('lacks bot scopes');
  });

  it('a refused token: one clear line, exit 1, nothing written (the old file untouched)', async () => {
    let r = await run(...slack(WRONG_BOT));
    expect(r.code).toBe(1);
    expect(r.stderr.split('\n').filter((l) => l.startsWith('✖'))).toEqual([
      "✖ Slack refused the bot token (invalid_auth); nothing was written. Copy it again from the app's settings at https://api.slack.com/apps",
    ]);
    expect(fs.existsSync(configFile())).toBe(false);
    fs.mkdirSync(path.dirname(configFile()), { recursive: true, mode: 0o700 });
    const old = `[slack]\nenabled = true\nbot_token = "${FAKE_BOT_TOKEN}"\nowner_user_id = "U0OWNER"\n`;
    fs.writeFileSync(configFile(), old, { mode: 0o600 });
    r = await run(...slack(WRONG_BOT));
    expect(r.code).toBe(1);
    expect(fs.readFileSync(configFile(), 'utf8')).toBe(old);
    expect(fs.existsSync(`${configFile()}.bak`)).toBe(false);
  });

  it('Slack unreachable: a warning, and the tokens are written (offline setup)', async () => {
    const down = await startFakeSlack();
    const downUrl = down.apiUrl;
    await down.close();
    const r = await run(...slack(FAKE_BOT_TOKEN, downUrl), '--slack-auto-bind-owner');
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(
      /⚠️ Could not reach 127\.0\.0\.1:\d+ to check the Slack tokens \(.+\)\. They are saved anyway/,
    );
    expect(r.stderr).toContain('With auto-bind on, the first person');
    expect(r.stdout).toContain('send your app a first direct message');
    expect((await reload()).slack).toMatchObject({
      bot_token: FAKE_BOT_TOKEN,
      app_token: FAKE_APP_TOKEN,
      allow_auto_bind_owner: true,
    });
  });

  it('--no-check writes without asking Slack; an API address without its final / gets one', async () => {
    const before = checks();
    const r = await run(...slack(FAKE_BOT_TOKEN, fake.apiUrl.replace(/\/$/, '')), '--no-check');
    expect(r.code).toBe(0);
    expect(checks()).toBe(before);
    expect(r.stderr).toContain('Slack tokens not checked (--no-check)');
    expect((await reload()).slack.api_url).toBe(fake.apiUrl);
  });

  it('bad answers are refused before any request, naming the flag and never echoing the token', async () => {
    const before = checks();
    let r = await run(...slack(FAKE_APP_TOKEN));
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      '✖ --slack-bot-token is invalid: A bot token starts with xoxb- (the Bot User OAuth Token on the OAuth & Permissions page)',
    );
    r = await run(...slack(), '--slack-app-token', 'xapp-short');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('✖ --slack-app-token is invalid: An app-level token starts with xapp-');
    r = await run(...slack(), '--slack-owner-user-id', '@me');
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      '✖ --slack-owner-user-id is invalid: A member id looks like U012ABCDEF (capital letters and digits, starting with U or W)',
    );
    r = await run(...slack(), '--slack-api-url', 'slack.com/api');
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('✖ --slack-api-url is invalid: The Slack Web API address starts with http:// or https://');
    r = await run(
      '--channels',
      'slack',
      '--slack-bot-token',
      FAKE_BOT_TOKEN,
      '--allowed-root',
      path.join(home.tmp, 'Git'),
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      '✖ 缺少 --slack-app-token（或环境变量 CC_LINKER_SLACK_APP_TOKEN）：非交互模式下 setup 不会提问',
    );
    expect(checks()).toBe(before);
    expect(fs.existsSync(configFile())).toBe(false);
  });

  it('answers from the environment choose Slack; the tokens stay there and are not written', async () => {
    fs.mkdirSync(path.dirname(configFile()), { recursive: true, mode: 0o700 });
    fs.writeFileSync(configFile(), `[slack]\napi_url = "${fake.apiUrl}"\n`, { mode: 0o600 });
    Object.assign(home.env, {
      CC_LINKER_SLACK_BOT_TOKEN: FAKE_BOT_TOKEN,
      CC_LINKER_SLACK_APP_TOKEN: FAKE_APP_TOKEN,
      CC_LINKER_SLACK_OWNER_USER_ID: 'U0OWNER',
    });
    const before = checks();
    const r = await run('--yes', '--allowed-root', path.join(home.tmp, 'Git'), '--language', 'en');
    expect(r.code).toBe(0);
    expect(checks()).toBe(before + 2);
    const config = await reload();
    expect(config.slack).toMatchObject({ enabled: true, bot_token: '', app_token: '', owner_user_id: 'U0OWNER' });
    expect(config.feishu_bot.app_id).toBe('');
    const text = fs.readFileSync(configFile(), 'utf8');
    expect(text).not.toContain(FAKE_BOT_TOKEN);
    expect(text).not.toContain(FAKE_APP_TOKEN);
  });

  it('a malformed token variable is refused by name, nothing written', async () => {
    Object.assign(home.env, { CC_LINKER_SLACK_BOT_TOKEN: 'not-a-token', CC_LINKER_SLACK_APP_TOKEN: FAKE_APP_TOKEN });
    const r = await run('--channels', 'slack', '--allowed-root', path.join(home.tmp, 'Git'), '--language', 'en');
    // The configuration (with its variables) is read before setup runs: its own error, the value hidden.
    expect(r.code).toBe(78);
    expect(r.stderr).toContain('✖ environment CC_LINKER_SLACK_BOT_TOKEN: slack.bot_token = (hidden) is invalid');
    expect(r.stderr).not.toContain('not-a-token');
    expect(fs.existsSync(configFile())).toBe(false);
  });

  it('a re-run keeps both tokens, the Telegram keys and the rest; an owner flag alone chooses Slack', async () => {
    fs.mkdirSync(path.dirname(configFile()), { recursive: true, mode: 0o700 });
    const old = [
      '[telegram]',
      'enabled = true',
      'bot_token = "123456789:AAKeptTelegramTokenKeptToken_00"',
      '[slack]',
      'enabled = true',
      `bot_token = "${FAKE_BOT_TOKEN}"`,
      `app_token = "${FAKE_APP_TOKEN}"`,
      `api_url = "${fake.apiUrl}"`,
      '[runtime]',
      'max_concurrent_sessions = 3',
      '',
    ].join('\n');
    fs.writeFileSync(configFile(), old, { mode: 0o600 });
    const r = await run(
      '--slack-owner-user-id',
      'U0NEW',
      '--allowed-root',
      path.join(home.tmp, 'Git'),
      '--language',
      'en',
    );
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('Tokens accepted');
    expect(r.stderr).not.toContain('Telegram');
    const config = await reload();
    expect(config.slack).toMatchObject({
      enabled: true,
      bot_token: FAKE_BOT_TOKEN,
      app_token: FAKE_APP_TOKEN,
      owner_user_id: 'U0NEW',
    });
    expect(config.telegram).toMatchObject({ enabled: true, bot_token: '123456789:AAKeptTelegramTokenKeptToken_00' });
    expect(config.runtime.max_concurrent_sessions).toBe(3);
    expect(fs.readFileSync(`${configFile()}.bak`, 'utf8')).toBe(old);
  });

  it('--help names Slack and its options', () => {
    expect(setupCommand.description).toMatch(/the chat apps \(.*Slack/);
    const flags = (setupCommand.options ?? []).map((o) => o.flags);
    expect(flags).toEqual(
      expect.arrayContaining([
        '--slack-bot-token <token>',
        '--slack-app-token <token>',
        '--slack-owner-user-id <id>',
        '--slack-auto-bind-owner',
        '--no-slack-auto-bind-owner',
        '--slack-api-url <url>',
      ]),
    );
  });
});
