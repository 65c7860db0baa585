/**
 * `cc-linker setup --channels telegram --telegram-webhook-url …` end to end: the written config is
 * webhook mode, and `doctor` on it (the real grammY against the fake Bot API) runs the webhook
 * check — not registered yet, then registered once Telegram has the URL.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Bot } from 'grammy';
import { startFakeTelegram, type FakeTelegram } from '../fakes/fake-telegram/fake-telegram-server.js';
import { pathWithoutDevAgents } from '../helpers/path-without-dev-agents.js';
import { runSessionCli } from '../helpers/run-session-cli.js';
import { runSetupCommand } from '../helpers/run-setup-command.js';

const URL = 'https://bot.example.test/cc-linker/telegram';

let fake: FakeTelegram;
let tmp: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  fake = await startFakeTelegram();
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'ccl-setup-doctor-tgwh-')));
  fs.mkdirSync(path.join(tmp, 'projects'));
  env = { HOME: tmp, CC_LINKER_HOME: path.join(tmp, '.cc-linker'), PATH: pathWithoutDevAgents() };
});
afterAll(async () => {
  await fake.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe('setup in Telegram webhook mode, then doctor', () => {
  it('writes webhook_url and webhook_listen; doctor checks Telegram has that URL', async () => {
    const setup = await runSetupCommand(
      [
        '--channels',
        'telegram',
        '--telegram-bot-token',
        fake.token,
        '--telegram-api-root',
        fake.apiRoot,
        '--telegram-owner-user-id',
        '4242',
        '--telegram-webhook-url',
        URL,
        '--telegram-webhook-listen',
        '127.0.0.1:9443',
        '--allowed-root',
        path.join(tmp, 'projects'),
        '--language',
        'en',
      ],
      env,
    );
    expect(setup.code).toBe(0);
    const text = fs.readFileSync(path.join(tmp, '.cc-linker', 'config.toml'), 'utf8');
    expect(text).toContain(`webhook_url = "${URL}"`);
    expect(text).toContain('webhook_listen = "127.0.0.1:9443"');
    // Setup does not register the webhook: start does.
    expect(fake.webhook.url).toBe('');

    const row = (stdout: string) => stdout.split('\n').find((l) => /Telegram: (the )?webhook/.test(l));
    const before = await runSessionCli(['doctor'], { env, now: new Date() });
    expect(row(before.stdout)).toBe(
      `⚠️  Telegram: the webhook ${URL} is not registered yet; cc-linker start registers it`,
    );

    await new Bot(fake.token, { client: { apiRoot: fake.apiRoot } }).api.setWebhook(URL);
    const after = await runSessionCli(['doctor'], { env, now: new Date() });
    expect(row(after.stdout)).toBe(`✅ Telegram: webhook ${URL} registered (0 waiting), received on 127.0.0.1:9443`);
    for (const out of [setup.stdout, setup.stderr, before.stdout, before.stderr, after.stdout, after.stderr])
      expect(out).not.toContain(fake.token);
  });
});
