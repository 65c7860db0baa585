import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeTelegram, type FakeTelegram } from '../../../test/fakes/fake-telegram/fake-telegram-server.js';
import { converse as baseConverse, type ScriptStep } from '../../../test/helpers/setup-conversation.js';
import { loadConfig } from '../../core/config.js';
import { resolvePaths } from '../../core/paths.js';
import type { SetupFlags } from './setup-answers.js';

/**
 * The wizard's Telegram question "how does the bot receive messages": long polling by default, a
 * webhook's URL and listen address checked by the config's own rules, the file's choice as the
 * default on a re-run; the token check (real grammY against the fake Bot API) also says which
 * webhook Telegram has now.
 */
const URL = 'https://bot.example.test/cc-linker/tg';

let fake: FakeTelegram;
let tmp: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  fake = await startFakeTelegram();
});
afterAll(async () => {
  await fake.close();
});
beforeEach(() => {
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'ccl-wizard-tgwh-')));
  fs.mkdirSync(path.join(tmp, 'Git'), { recursive: true });
  env = { HOME: tmp, CC_LINKER_HOME: path.join(tmp, '.cc-linker') };
});
afterEach(async () => {
  fs.rmSync(tmp, { recursive: true, force: true });
  await api().deleteWebhook();
});

/** One Bot API call over HTTP, as a client would make it (this room does not import grammY). */
async function call(method: string, body: Record<string, unknown> = {}): Promise<unknown> {
  const res = await fetch(`${fake.apiRoot}/bot${fake.token}/${method}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return ((await res.json()) as { result: unknown }).result;
}
const api = () => ({
  setWebhook: (url: string) => call('setWebhook', { url }),
  deleteWebhook: () => call('deleteWebhook'),
  getWebhookInfo: async () => (await call('getWebhookInfo')) as { url: string },
});
const configFile = () => path.join(tmp, '.cc-linker', 'config.toml');
const flags = (): SetupFlags => ({ check: true, yes: false, skipFeishu: false });
const converse = (script: ScriptStep[]) => baseConverse(script, { env, cwd: tmp, flags: flags() });
const reload = async () =>
  (await loadConfig({ paths: resolvePaths(env), env: { HOME: tmp, CC_LINKER_HOME: env.CC_LINKER_HOME } })).config;

/** A file with Telegram set up (owner known, so auto-bind is not asked) plus `extra` lines. */
function writeFile(extra: string[] = []) {
  fs.mkdirSync(path.dirname(configFile()), { recursive: true });
  const lines = ['[general]', 'language = "en"', '[telegram]', 'enabled = true', `bot_token = "${fake.token}"`];
  lines.push('owner_user_id = "4242"', `api_root = "${fake.apiRoot}"`, ...extra, '');
  fs.writeFileSync(configFile(), lines.join('\n'), { mode: 0o600 });
}

/** Re-run over that file: language, apps, token (Enter keeps), owner (Enter keeps), then `receive`, then the rest. */
const rerun = (receive: ScriptStep[], lang: 'en' | 'zh' = 'en'): ScriptStep[] => [
  [/^语言 /, lang],
  [/\[telegram\]: $/, ''],
  [/Enter keeps the one in the file|直接回车保留/, ''],
  [/^owner_user_id.*\[4242\]: $/, ''],
  ...receive,
  [/^(Allowed root directories|允许的根目录)/, path.join(tmp, 'Git')],
  [/^(Default working directory|默认工作目录)/, ''],
  [/^(Write the config file|写入配置文件)/, 'y'],
];

describe('setup wizard: how Telegram receives messages', () => {
  it('Enter keeps long polling: no webhook question, webhook_url stays empty', async () => {
    writeFile();
    const r = await converse(
      rerun([[/^Receive messages by \(1 = long polling, 2 = webhook\) \[1 = long polling\]: $/, '']]),
    );
    expect(r.mismatches).toEqual([]);
    expect(r.answered).toBe(8);
    expect(r.transcript).toContain('1) long polling (recommended)');
    expect(r.transcript).toMatch(/Telegram receives by: long polling\n/);
    expect(r.stdout).not.toContain('Telegram webhook');
    const config = await reload();
    expect(config.telegram).toMatchObject({ webhook_url: '', webhook_listen: '127.0.0.1:8443', webhook_secret: '' });
    expect(fs.readFileSync(configFile(), 'utf8')).toMatch(/# Empty = long polling.*\n(#.*\n)*webhook_url = ""\n/);
  });

  it('webhook: http:// and a bad URL are refused with the reason and asked again; Enter takes the default listen', async () => {
    writeFile();
    const r = await converse(
      rerun([
        [/^Receive messages by /, 'maybe'],
        [/^Receive messages by /, '2'],
        [/^Public webhook URL \(https:\/\/…, where Telegram POSTs messages\): $/, ''],
        [/^Public webhook URL /, 'http://bot.example.test/tg'],
        [/^Public webhook URL /, 'https://bot.example.test/a b'],
        [/^Public webhook URL /, URL],
        [/^host:port cc-linker listens on locally .* \[127\.0\.0\.1:8443\]: $/, ''],
      ]),
    );
    expect(r.mismatches).toEqual([]);
    expect(r.transcript).toContain('  Answer 1 (long polling) or 2 (webhook)');
    expect(r.transcript).toContain('  Webhook mode needs a public https:// URL');
    expect(r.transcript).toContain('  Telegram only posts to https:// addresses; set up HTTPS on your reverse proxy');
    expect(r.transcript).toContain('  Expected a URL like https://your.host/some/secret-path (no spaces, ? or #)');
    expect(r.transcript).toContain(`Telegram receives by: webhook ${URL} (listening on 127.0.0.1:8443)`);
    expect(r.stdout).toContain(
      `Next (Telegram webhook): make your reverse proxy or tunnel forward ${URL} to http://127.0.0.1:8443;`,
    );
    expect(`${r.transcript}\n${r.stdout}\n${r.stderr}`).not.toContain(fake.token);
    expect((await reload()).telegram).toMatchObject({
      webhook_url: URL,
      webhook_listen: '127.0.0.1:8443',
      webhook_secret: '',
    });
  });

  it('a bad listen address is refused with the reason and asked again (zh)', async () => {
    writeFile();
    const r = await converse(
      rerun(
        [
          [/^收消息方式（1 = 长轮询，2 = webhook） \[1 = 长轮询\]: $/, 'webhook'],
          [/^webhook 的公网地址/, URL],
          [/^cc-linker 本机监听的 host:port/, 'localhost'],
          [/^cc-linker 本机监听的 host:port/, '127.0.0.1:70000'],
          [/^cc-linker 本机监听的 host:port/, '[::1]:9443'],
        ],
        'zh',
      ),
    );
    expect(r.mismatches).toEqual([]);
    expect(r.transcript).toContain('机器人怎样收消息');
    expect(r.transcript.split('应为 host:port，例如 127.0.0.1:8443（端口 1-65535）').length).toBe(3);
    expect((await reload()).telegram).toMatchObject({ webhook_url: URL, webhook_listen: '[::1]:9443' });
  });

  it("a re-run offers the file's webhook as the default; switching to polling keeps listen and the secret", async () => {
    const kept = ['webhook_listen = "127.0.0.1:9443"', 'webhook_secret = "my-own-secret_123"'];
    writeFile([`webhook_url = "${URL}"`, ...kept]);
    const same = await converse(
      rerun([
        [/^Receive messages by .* \[2 = webhook\]: $/, ''],
        [new RegExp(`^Public webhook URL .* \\[${URL.replace(/[./]/g, '\\$&')}\\]: $`), ''],
        [/^host:port cc-linker listens on locally .* \[127\.0\.0\.1:9443\]: $/, ''],
      ]),
    );
    expect(same.mismatches).toEqual([]);
    expect(same.transcript).not.toContain('my-own-secret_123');
    expect((await reload()).telegram).toMatchObject({
      webhook_url: URL,
      webhook_listen: '127.0.0.1:9443',
      webhook_secret: 'my-own-secret_123',
    });

    const back = await converse(rerun([[/^Receive messages by .* \[2 = webhook\]: $/, '1']]));
    expect(back.mismatches).toEqual([]);
    expect(back.transcript).toMatch(/Telegram receives by: long polling\n/);
    expect((await reload()).telegram).toMatchObject({
      webhook_url: '',
      webhook_listen: '127.0.0.1:9443',
      webhook_secret: 'my-own-secret_123',
    });
  });

  it('CC_LINKER_TELEGRAM_WEBHOOK_URL / _LISTEN are the defaults offered (the file has polling)', async () => {
    writeFile();
    env = { ...env, CC_LINKER_TELEGRAM_WEBHOOK_URL: URL, CC_LINKER_TELEGRAM_WEBHOOK_LISTEN: '127.0.0.1:7443' };
    const r = await converse(
      rerun([
        [/^Receive messages by .* \[2 = webhook\]: $/, ''],
        [/^Public webhook URL .* \[https:\/\/bot\.example\.test\/cc-linker\/tg\]: $/, ''],
        [/^host:port cc-linker listens on locally .* \[127\.0\.0\.1:7443\]: $/, ''],
      ]),
    );
    expect(r.mismatches).toEqual([]);
    expect((await reload()).telegram).toMatchObject({ webhook_url: URL, webhook_listen: '127.0.0.1:7443' });
  });

  it('says which webhook Telegram has now: polling deletes it at start, another URL replaces it', async () => {
    const other = 'https://old.example.test/hook';
    await api().setWebhook(other);
    writeFile();
    const polling = await converse(rerun([[/^Receive messages by /, '']]));
    expect(polling.mismatches).toEqual([]);
    expect(polling.transcript).toContain(
      `ℹ️ Telegram has a webhook registered for this bot now (${other}); long polling is fine — cc-linker start deletes it.`,
    );
    const replaced = await converse(
      rerun([
        [/^Receive messages by /, '2'],
        [/^Public webhook URL /, URL],
        [/^host:port /, ''],
      ]),
    );
    expect(replaced.transcript).toContain(
      `ℹ️ Telegram has a different webhook registered now (${other}); cc-linker start replaces it with yours.`,
    );
    await api().setWebhook(URL);
    const same = await converse(
      rerun([
        [/^Receive messages by .* \[2 = webhook\]: $/, ''],
        [/^Public webhook URL /, ''],
        [/^host:port /, ''],
      ]),
    );
    expect(same.mismatches).toEqual([]);
    expect(same.transcript).toContain('ℹ️ Telegram already has this webhook URL registered.');
    // Setup only looks: the webhook Telegram has is left as it was.
    expect((await api().getWebhookInfo()).url).toBe(URL);
  });
});
