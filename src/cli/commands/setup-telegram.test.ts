import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeTelegram, type FakeTelegram } from '../../../test/fakes/fake-telegram/fake-telegram-server.js';
import { useSetupHome } from '../../../test/helpers/setup-home.js';
import { setupCommand } from './setup.js';

/** `cc-linker setup` for Telegram without a terminal: flags and variables, the real grammY against the fake Bot API. */
const WRONG = '987654321:AAWrongTokenWrongTokenWrong_0000';

let fake: FakeTelegram;

beforeAll(async () => {
  fake = await startFakeTelegram();
});
afterAll(async () => {
  await fake.close();
});
const home = useSetupHome({ prefix: 'ccl-setup-tg-', secrets: () => [fake.token, WRONG] });
const { run, reload, configFile } = home;

const getMes = () => fake.callsOf('getMe').length;

const telegram = (token = fake.token, apiRoot = fake.apiRoot) => [
  '--channels',
  'telegram',
  '--telegram-bot-token',
  token,
  '--telegram-api-root',
  apiRoot,
  '--allowed-root',
  path.join(home.tmp, 'Git'),
  '--language',
  'en',
];

describe('cc-linker setup --channels telegram (non-interactive)', () => {
  it('checks the token (the bot named), writes [telegram] 0600, leaves Feishu out', async () => {
    const before = getMes();
    const r = await run(...telegram(), '--telegram-owner-user-id', '4242');
    expect(r.code).toBe(0);
    expect(getMes()).toBe(before + 1);
    expect(r.stderr).toContain('✅ Token accepted: the bot is @cc_linker_test_bot');
    expect(r.stdout).toContain('Next (Telegram): run cc-linker start, then message @cc_linker_test_bot in Telegram.');
    expect(r.stdout).not.toContain('Feishu');
    const config = await reload();
    expect(config.telegram).toEqual({
      enabled: true,
      bot_token: fake.token,
      owner_user_id: '4242',
      allow_auto_bind_owner: false,
      api_root: fake.apiRoot,
      // Long polling: setup leaves the webhook keys at their defaults.
      webhook_url: '',
      webhook_listen: '127.0.0.1:8443',
      webhook_secret: '',
    });
    expect(config.feishu_bot.app_id).toBe('');
    expect(fs.statSync(configFile()).mode & 0o777).toBe(0o600);
    expect(fs.statSync(path.dirname(configFile())).mode & 0o777).toBe(0o700);
    expect(fs.readFileSync(configFile(), 'utf8')).toMatch(
      /# Your own numeric Telegram user id.*\n.*\nowner_user_id = "4242"/,
    );
  });

  it('a refused token: one clear line, exit 1, nothing written (the old file untouched)', async () => {
    let r = await run(...telegram(WRONG));
    expect(r.code).toBe(1);
    expect(r.stderr.split('\n').filter((l) => l.startsWith('✖'))).toEqual([
      '✖ Telegram refused the bot token (Unauthorized); nothing was written. Copy it again from @BotFather (/mybots → API Token)',
    ]);
    expect(fs.existsSync(configFile())).toBe(false);
    fs.mkdirSync(path.dirname(configFile()), { recursive: true, mode: 0o700 });
    const old = `[telegram]\nenabled = true\nbot_token = "${fake.token}"\nowner_user_id = "4242"\n`;
    fs.writeFileSync(configFile(), old, { mode: 0o600 });
    r = await run(...telegram(WRONG));
    expect(r.code).toBe(1);
    expect(fs.readFileSync(configFile(), 'utf8')).toBe(old);
    expect(fs.existsSync(`${configFile()}.bak`)).toBe(false);
  });

  it('Telegram unreachable: a warning, and the token is written (offline setup)', async () => {
    const down = await startFakeTelegram();
    const downRoot = down.apiRoot;
    await down.close();
    const r = await run(...telegram(fake.token, downRoot), '--telegram-auto-bind-owner');
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/⚠️ Could not reach 127\.0\.0\.1:\d+ to check the bot token \(.+\)\. It is saved anyway/);
    expect(r.stderr).toContain('With auto-bind on, the first person');
    expect(r.stdout).toContain('send your bot a first private message');
    expect((await reload()).telegram).toMatchObject({ bot_token: fake.token, allow_auto_bind_owner: true });
  });

  it('--no-check writes without asking Telegram', async () => {
    const before = getMes();
    const r = await run(...telegram(), '--no-check');
    expect(r.code).toBe(0);
    expect(getMes()).toBe(before);
    expect(r.stderr).toContain('Bot token not checked (--no-check)');
  });

  it('bad answers are refused before any request, naming the flag and never echoing the token', async () => {
    const before = getMes();
    let r = await run(...telegram('123:short'));
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      '✖ --telegram-bot-token is invalid: A bot token is digits, a colon, then at least 20 letters, digits, _ or - (the one @BotFather gave you, like 123456789:AAH…)',
    );
    r = await run(...telegram(), '--telegram-owner-user-id', '@me');
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      '✖ --telegram-owner-user-id is invalid: A user id is digits only, e.g. 123456789 (send /whoami to the bot to see yours)',
    );
    r = await run(...telegram(), '--telegram-api-root', 'api.telegram.org');
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('✖ --telegram-api-root is invalid: The Bot API address starts with http:// or https://');
    r = await run('--channels', 'telegram,whatsapp', '--language', 'en');
    expect(r.code).toBe(2);
    // More apps may follow telegram in the list.
    expect(r.stderr).toMatch(
      /^✖ --channels is invalid: Answer one or more of feishu, telegram\b.* \(separated by commas\), or none$/,
    );
    r = await run('--channels', 'telegram', '--allowed-root', path.join(home.tmp, 'Git'));
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      '✖ 缺少 --telegram-bot-token（或环境变量 CC_LINKER_TELEGRAM_BOT_TOKEN）：非交互模式下 setup 不会提问',
    );
    expect(getMes()).toBe(before);
    expect(fs.existsSync(configFile())).toBe(false);
  });

  it('answers from the environment choose Telegram; the token stays there and is not written', async () => {
    fs.mkdirSync(path.dirname(configFile()), { recursive: true, mode: 0o700 });
    fs.writeFileSync(configFile(), `[telegram]\napi_root = "${fake.apiRoot}"\n`, { mode: 0o600 });
    Object.assign(home.env, { CC_LINKER_TELEGRAM_BOT_TOKEN: fake.token, CC_LINKER_TELEGRAM_OWNER_USER_ID: '4242' });
    const before = getMes();
    const r = await run('--yes', '--allowed-root', path.join(home.tmp, 'Git'), '--language', 'en');
    expect(r.code).toBe(0);
    expect(getMes()).toBe(before + 1);
    const config = await reload();
    expect(config.telegram).toMatchObject({ enabled: true, bot_token: '', owner_user_id: '4242' });
    expect(config.feishu_bot.app_id).toBe('');
    expect(fs.readFileSync(configFile(), 'utf8')).not.toContain(fake.token);
  });

  it('Feishu flags with a Telegram variable set: only Feishu is set up, Telegram stays off', async () => {
    Object.assign(home.env, { CC_LINKER_TELEGRAM_BOT_TOKEN: fake.token });
    const before = getMes();
    const r = await run(
      '--app-id',
      'cli_0011223344556677',
      '--app-secret',
      'feishu-secret-1',
      '--no-check',
      '--allowed-root',
      path.join(home.tmp, 'Git'),
    );
    expect(r.code).toBe(0);
    expect(getMes()).toBe(before);
    const config = await reload();
    expect(config.telegram.enabled).toBe(false);
    expect(config.feishu_bot.app_id).toBe('cli_0011223344556677');
  });

  it('a re-run keeps the token, the Feishu keys and the rest; an owner flag alone chooses Telegram', async () => {
    fs.mkdirSync(path.dirname(configFile()), { recursive: true, mode: 0o700 });
    const old = [
      '[feishu_bot]',
      'app_id = "cli_0011223344556677"',
      'app_secret = "feishu-secret-kept"',
      '[telegram]',
      'enabled = true',
      `bot_token = "${fake.token}"`,
      `api_root = "${fake.apiRoot}"`,
      '[runtime]',
      'max_concurrent_sessions = 3',
      '',
    ].join('\n');
    fs.writeFileSync(configFile(), old, { mode: 0o600 });
    const r = await run(
      '--telegram-owner-user-id',
      '777',
      '--allowed-root',
      path.join(home.tmp, 'Git'),
      '--language',
      'en',
    );
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('Token accepted');
    expect(r.stderr).not.toContain('Credentials');
    const config = await reload();
    expect(config.telegram).toMatchObject({ enabled: true, bot_token: fake.token, owner_user_id: '777' });
    expect(config.feishu_bot).toMatchObject({ app_id: 'cli_0011223344556677', app_secret: 'feishu-secret-kept' });
    expect(config.runtime.max_concurrent_sessions).toBe(3);
    expect(fs.readFileSync(`${configFile()}.bak`, 'utf8')).toBe(old);
  });

  it('--channels feishu,telegram sets up both in one run', async () => {
    const r = await run(
      ...telegram(),
      '--channels',
      'feishu,telegram',
      '--app-id',
      'cli_0011223344556677',
      '--app-secret',
      'feishu-secret-2',
      '--no-check',
    );
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Next: run cc-linker start, send /whoami to the bot in Feishu');
    expect(r.stdout).toContain('Next (Telegram): run cc-linker start, send /whoami to your bot');
    const config = await reload();
    expect(config.feishu_bot).toMatchObject({ app_id: 'cli_0011223344556677', app_secret: 'feishu-secret-2' });
    expect(config.telegram).toMatchObject({ enabled: true, bot_token: fake.token });
  });

  it('--channels none: the console alone; the Telegram section stays as it was', async () => {
    fs.mkdirSync(path.dirname(configFile()), { recursive: true, mode: 0o700 });
    fs.writeFileSync(configFile(), `[telegram]\nenabled = true\nbot_token = "${fake.token}"\n`, { mode: 0o600 });
    const r = await run('--channels', 'none', '--allowed-root', path.join(home.tmp, 'Git'), '--language', 'en');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Next: run cc-linker start.');
    expect((await reload()).telegram).toMatchObject({ enabled: true, bot_token: fake.token });
  });

  it('--help names the chat apps and their options', () => {
    expect(setupCommand.description).toContain('the chat apps (Feishu / Lark, Telegram');
    const flags = (setupCommand.options ?? []).map((o) => o.flags);
    expect(flags).toEqual(
      expect.arrayContaining([
        '--channels <apps>',
        '--telegram-bot-token <token>',
        '--telegram-owner-user-id <id>',
        '--telegram-auto-bind-owner',
        '--no-telegram-auto-bind-owner',
        '--telegram-api-root <url>',
      ]),
    );
  });
});
