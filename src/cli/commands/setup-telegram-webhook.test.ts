import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startFakeTelegram, type FakeTelegram } from '../../../test/fakes/fake-telegram/fake-telegram-server.js';
import { useSetupHome } from '../../../test/helpers/setup-home.js';
import { setupCommand } from './setup.js';

/**
 * `cc-linker setup` answering Telegram's receive mode without a terminal: `--telegram-webhook-url`
 * / `--telegram-webhook-listen` or their variables, checked by the config's rules before any
 * request; the token check (real grammY against the fake Bot API) names a webhook Telegram has now.
 */
const URL = 'https://bot.example.test/cc-linker/tg';

let fake: FakeTelegram;

beforeAll(async () => {
  fake = await startFakeTelegram();
});
afterAll(async () => {
  await fake.close();
});
afterEach(async () => {
  await fetch(`${fake.apiRoot}/bot${fake.token}/deleteWebhook`, { method: 'POST' });
});
const home = useSetupHome({ prefix: 'ccl-setup-tgwh-', secrets: () => [fake.token, 'kept-secret_42'] });
const { run, reload, configFile } = home;

const telegram = (...more: string[]) => [
  '--channels',
  'telegram',
  '--telegram-bot-token',
  fake.token,
  '--telegram-api-root',
  fake.apiRoot,
  '--telegram-owner-user-id',
  '4242',
  '--allowed-root',
  path.join(home.tmp, 'Git'),
  '--language',
  'en',
  ...more,
];

describe('cc-linker setup: Telegram webhook answers (non-interactive)', () => {
  it('--telegram-webhook-url and --telegram-webhook-listen write webhook mode; the next step names the proxy', async () => {
    const r = await run(...telegram('--telegram-webhook-url', URL, '--telegram-webhook-listen', '127.0.0.1:9443'));
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(
      `Next (Telegram webhook): make your reverse proxy or tunnel forward ${URL} to http://127.0.0.1:9443;`,
    );
    expect((await reload()).telegram).toMatchObject({
      enabled: true,
      webhook_url: URL,
      webhook_listen: '127.0.0.1:9443',
      webhook_secret: '',
    });
  });

  it('http://, a bad URL or a bad listen address: the reason, exit 2, the old file untouched, no request', async () => {
    fs.mkdirSync(path.dirname(configFile()), { recursive: true, mode: 0o700 });
    const old = `[telegram]\nenabled = true\nbot_token = "${fake.token}"\nowner_user_id = "4242"\n`;
    fs.writeFileSync(configFile(), old, { mode: 0o600 });
    const before = fake.callsOf('getMe').length;
    const refused = [
      [
        ['--telegram-webhook-url', 'http://bot.example.test/tg'],
        '✖ --telegram-webhook-url is invalid: Telegram only posts to https:// addresses; set up HTTPS on your reverse proxy or tunnel and give its https:// URL',
      ],
      [
        ['--telegram-webhook-url', 'bot.example.test/tg'],
        '✖ --telegram-webhook-url is invalid: Expected a URL like https://your.host/some/secret-path (no spaces, ? or #)',
      ],
      [
        ['--telegram-webhook-url', URL, '--telegram-webhook-listen', '8443'],
        '✖ --telegram-webhook-listen is invalid: Expected host:port, e.g. 127.0.0.1:8443 (port 1-65535)',
      ],
    ] as const;
    for (const [args, line] of refused) {
      const r = await run(...telegram(...args));
      expect(r.code).toBe(2);
      expect(r.stderr).toBe(line);
    }
    home.env.CC_LINKER_TELEGRAM_WEBHOOK_URL = 'http://bot.example.test/tg';
    const fromEnv = await run(...telegram());
    // A malformed variable is refused when the configuration is read, before setup asks anything.
    expect(fromEnv.code).toBe(78);
    expect(fromEnv.stderr).toContain(
      '✖ environment CC_LINKER_TELEGRAM_WEBHOOK_URL: telegram.webhook_url = "http://bot.example.test/tg" is invalid: expected the public https:// URL',
    );
    expect(fs.readFileSync(configFile(), 'utf8')).toBe(old);
    expect(fake.callsOf('getMe').length).toBe(before);
  });

  it('the variables answer too (and no override warning follows); "" goes back to polling, listen and secret kept', async () => {
    home.env.CC_LINKER_TELEGRAM_WEBHOOK_URL = URL;
    home.env.CC_LINKER_TELEGRAM_WEBHOOK_LISTEN = '0.0.0.0:8080';
    let r = await run(...telegram());
    expect(r.code).toBe(0);
    expect(r.stderr).not.toContain('CC_LINKER_TELEGRAM_WEBHOOK');
    expect((await reload()).telegram).toMatchObject({ webhook_url: URL, webhook_listen: '0.0.0.0:8080' });
    delete home.env.CC_LINKER_TELEGRAM_WEBHOOK_URL;
    delete home.env.CC_LINKER_TELEGRAM_WEBHOOK_LISTEN;

    // A later run that does not name the mode keeps the file's.
    const text = fs
      .readFileSync(configFile(), 'utf8')
      .replace('webhook_secret = ""', 'webhook_secret = "kept-secret_42"');
    fs.writeFileSync(configFile(), text);
    r = await run('--telegram-owner-user-id', '77', '--language', 'en', '--allowed-root', path.join(home.tmp, 'Git'));
    expect(r.code).toBe(0);
    expect((await reload()).telegram).toMatchObject({ owner_user_id: '77', webhook_url: URL });

    r = await run(...telegram('--telegram-webhook-url', ''));
    expect(r.code).toBe(0);
    expect(r.stdout).not.toContain('Telegram webhook');
    expect((await reload()).telegram).toMatchObject({
      webhook_url: '',
      webhook_listen: '0.0.0.0:8080',
      webhook_secret: 'kept-secret_42',
    });
  });

  it('a variable that would override the written choice is warned about', async () => {
    home.env.CC_LINKER_TELEGRAM_WEBHOOK_URL = URL;
    const r = await run(...telegram('--telegram-webhook-url', ''));
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('CC_LINKER_TELEGRAM_WEBHOOK_URL');
    expect((await reload()).telegram.webhook_url).toBe('');
  });

  it('names a webhook Telegram has now: long polling deletes it at start', async () => {
    const other = 'https://old.example.test/hook';
    const set = await fetch(`${fake.apiRoot}/bot${fake.token}/setWebhook`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ url: other }),
    });
    expect(set.ok).toBe(true);
    let r = await run(...telegram());
    expect(r.stderr).toContain(
      `ℹ️ Telegram has a webhook registered for this bot now (${other}); long polling is fine — cc-linker start deletes it.`,
    );
    r = await run(...telegram('--telegram-webhook-url', URL));
    expect(r.stderr).toContain(`ℹ️ Telegram has a different webhook registered now (${other});`);
    r = await run(...telegram('--no-check'));
    expect(r.stderr).not.toContain('webhook registered');
  });

  it('--help lists the webhook options', () => {
    const flags = (setupCommand.options ?? []).map((o) => o.flags);
    expect(flags).toEqual(
      expect.arrayContaining(['--telegram-webhook-url <url>', '--telegram-webhook-listen <host:port>']),
    );
  });
});
