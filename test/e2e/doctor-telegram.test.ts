/**
 * `cc-linker doctor` with `[telegram]` enabled: the token is checked with one real `getMe` (grammY
 * against the fake Bot API) — accepted names the bot, refused is a failure, unreachable a warning —
 * and the token itself is never printed. In webhook mode a `webhook_listen` beyond loopback is a
 * warning (plain HTTP open to the network), the default none.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Bot } from 'grammy';
import { startFakeTelegram, type FakeTelegram } from '../fakes/fake-telegram/fake-telegram-server.js';
import { pathWithoutDevAgents } from '../helpers/path-without-dev-agents.js';
import { runSessionCli } from '../helpers/run-session-cli.js';

let tmp: string;
let home: string;
let fake: FakeTelegram;

beforeAll(async () => {
  fake = await startFakeTelegram();
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'cc-doctor-tg-')));
  home = path.join(tmp, 'home');
  fs.mkdirSync(path.join(home, '.cc-linker'), { recursive: true, mode: 0o700 });
});
afterAll(async () => {
  await fake.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

async function doctor(token: string, apiRoot: string, extra: string[] = [], lang = 'en') {
  const toml = [
    '[general]',
    `language = "${lang}"`,
    '[telegram]',
    'enabled = true',
    `api_root = "${apiRoot}"`,
    'owner_user_id = "42"',
    ...extra,
  ];
  fs.writeFileSync(path.join(home, '.cc-linker', 'config.toml'), `${toml.join('\n')}\n`, { mode: 0o600 });
  const env = {
    HOME: home,
    CC_LINKER_HOME: path.join(home, '.cc-linker'),
    PATH: pathWithoutDevAgents(),
    CC_LINKER_TELEGRAM_BOT_TOKEN: token,
  };
  const r = await runSessionCli(['doctor'], { env, now: new Date() });
  return { ...r, row: r.stdout.split('\n').find((l) => l.includes('Telegram: t') || l.includes('Telegram: Bot API')) };
}

describe('doctor with Telegram enabled', () => {
  it('names the bot for an accepted token, fails a refused one, warns when the Bot API is unreachable', async () => {
    const good = await doctor(fake.token, fake.apiRoot);
    expect(good.row).toBe('✅ Telegram: token accepted, the bot is @cc_linker_test_bot');
    expect(good.stdout).toContain('✅ Telegram: enabled, bot_token and owner set');

    const wrong = '111111:AAWrongWrongWrongWrongWrong_0123';
    const refused = await doctor(wrong, fake.apiRoot);
    expect(refused.row).toBe('❌ Telegram: token refused (Unauthorized); get a new one from @BotFather');
    expect(refused.code).toBe(1);

    const down = await startFakeTelegram();
    const downRoot = down.apiRoot;
    await down.close();
    const unreachable = await doctor(fake.token, downRoot);
    expect(unreachable.row).toMatch(/^⚠️ +Telegram: Bot API unreachable \(.*\); start keeps retrying$/);
    for (const r of [good, refused, unreachable]) {
      expect(r.stdout + r.stderr).not.toContain(fake.token);
      expect(r.stdout + r.stderr).not.toContain(wrong);
    }
  });

  it('in webhook mode says whether Telegram has our URL, and its last failed delivery', async () => {
    const url = 'https://bot.example.test/cc-linker/telegram';
    const webhook = [`webhook_url = "${url}"`, 'webhook_listen = "127.0.0.1:8443"'];
    const rowOf = (stdout: string) =>
      stdout
        .split('\n')
        .find(
          (l) =>
            l.includes('Telegram: the webhook') || l.includes('Telegram: webhook') || l.includes('Telegram: its last'),
        );

    const unset = await doctor(fake.token, fake.apiRoot, webhook);
    expect(rowOf(unset.stdout)).toBe(
      `⚠️  Telegram: the webhook ${url} is not registered yet; cc-linker start registers it`,
    );

    const api = new Bot(fake.token, { client: { apiRoot: fake.apiRoot } }).api;
    await api.setWebhook(url, { secret_token: 'doctor-secret-1234' });
    const set = await doctor(fake.token, fake.apiRoot, webhook);
    expect(rowOf(set.stdout)).toBe(`✅ Telegram: webhook ${url} registered (0 waiting), received on 127.0.0.1:8443`);

    // Nothing answers at the URL (no proxy reaches cc-linker): Telegram records the failure.
    fake.pushMessage(42, 'hello');
    const deadline = Date.now() + 5_000;
    while (!fake.webhook.lastError && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    const failing = await doctor(fake.token, fake.apiRoot, webhook);
    expect(rowOf(failing.stdout)).toMatch(
      /^⚠️ +Telegram: its last delivery to the webhook failed \(.+: Connection refused\); check that https:\/\/bot\.example\.test\/cc-linker\/telegram reaches 127\.0\.0\.1:8443 through your reverse proxy$/,
    );
    for (const r of [unset, set, failing]) {
      expect(r.stdout).not.toContain('not a loopback address');
      expect(r.stdout + r.stderr).not.toContain(fake.token);
      expect(r.stdout + r.stderr).not.toContain('doctor-secret-1234');
    }
    await api.deleteWebhook();
  });

  it('warns when webhook_listen is not loopback, in either language, and does not fail for it', async () => {
    const url = 'https://bot.example.test/cc-linker/telegram';
    const exposedRow = (stdout: string) => stdout.split('\n').filter((l) => l.includes('telegram.webhook_listen ='));
    const open = await doctor(fake.token, fake.apiRoot, [`webhook_url = "${url}"`, 'webhook_listen = "0.0.0.0:8443"']);
    expect(exposedRow(open.stdout)).toEqual([
      '⚠️  Telegram: telegram.webhook_listen = 0.0.0.0:8443 is not a loopback address: the webhook takes plain HTTP there (no TLS), reachable from other machines. Keep it behind your HTTPS reverse proxy or tunnel only, or listen on 127.0.0.1:8443',
    ]);
    expect(open.stdout).toContain('✅ Telegram: token accepted');

    const zh = await doctor(fake.token, fake.apiRoot, [`webhook_url = "${url}"`, 'webhook_listen = "[::]:8443"'], 'zh');
    const zhRow = exposedRow(zh.stdout);
    expect(zhRow).toHaveLength(1);
    expect(zhRow[0]).toMatch(
      /^⚠️ +Telegram: telegram\.webhook_listen = \[::\]:8443 不是本机回环地址：.*明文 HTTP.*127\.0\.0\.1:8443$/,
    );

    // Long polling: the listen address is not used, so nothing is said about it.
    const polling = await doctor(fake.token, fake.apiRoot, ['webhook_listen = "0.0.0.0:8443"']);
    expect(exposedRow(polling.stdout)).toEqual([]);
  });
});
