/**
 * `cc-linker setup --channels telegram` end to end: setup writes the file (the token checked by the
 * real grammY against the fake Bot API), `doctor` passes that config, and the daemon `start` runs
 * (`assembleDaemon`) has no Feishu at all but answers the owner in Telegram. Then a re-run in webhook
 * mode (`--telegram-webhook-url`): `doctor` checks the webhook — not registered yet, then registered
 * once Telegram has the URL.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Bot } from 'grammy';
import { assembleDaemon } from '../../src/cli/start/assemble-daemon.js';
import { loadConfig } from '../../src/core/config.js';
import { createLogger } from '../../src/core/logger.js';
import { resolvePaths } from '../../src/core/paths.js';
import { startFakeTelegram, type FakeTelegram } from '../fakes/fake-telegram/fake-telegram-server.js';
import { pathWithoutDevAgents } from '../helpers/path-without-dev-agents.js';
import { runSessionCli } from '../helpers/run-session-cli.js';
import { runSetupCommand } from '../helpers/run-setup-command.js';
import { until } from './telegram-harness.js';

const OWNER = 4242;

let fake: FakeTelegram;
let tmp: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  fake = await startFakeTelegram();
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'ccl-setup-start-tg-')));
  fs.mkdirSync(path.join(tmp, 'projects'));
  env = { HOME: tmp, CC_LINKER_HOME: path.join(tmp, '.cc-linker'), PATH: pathWithoutDevAgents() };
});
afterAll(async () => {
  await fake.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe('setup with Telegram only, then doctor and start', () => {
  it('writes a config doctor accepts; start runs the Telegram bot without Feishu', async () => {
    const setup = await runSetupCommand(
      [
        '--channels',
        'telegram',
        '--telegram-bot-token',
        fake.token,
        '--telegram-api-root',
        fake.apiRoot,
        '--telegram-owner-user-id',
        String(OWNER),
        '--allowed-root',
        path.join(tmp, 'projects'),
        '--language',
        'en',
      ],
      env,
    );
    expect(setup.code).toBe(0);
    expect(setup.stderr).toContain('Token accepted: the bot is @cc_linker_test_bot');

    const doctor = await runSessionCli(['doctor'], { env, now: new Date() });
    const rows = doctor.stdout.split('\n');
    expect(rows).toContain('✅ Config: ~/.cc-linker/config.toml');
    expect(rows).toContain('✅ Telegram: enabled, bot_token and owner set');
    expect(rows).toContain('✅ Telegram: token accepted, the bot is @cc_linker_test_bot');
    // Feishu is simply not configured: a warning, never a failure.
    expect(rows.filter((r) => r.startsWith('❌')).join('\n')).not.toMatch(/Feishu|Telegram|Config/);
    for (const out of [setup.stdout, setup.stderr, doctor.stdout, doctor.stderr]) expect(out).not.toContain(fake.token);

    const { config } = await loadConfig({ paths: resolvePaths(env), env });
    const logFile = path.join(tmp, 'daemon.log');
    const daemon = await assembleDaemon({
      config,
      paths: resolvePaths(env),
      lang: 'en',
      logger: createLogger({ level: 'debug', sink: { file: logFile } }),
      env,
      feishu: true,
      webPort: 0,
    });
    try {
      expect(daemon.feishu).toBe('no-credentials');
      expect(daemon.telegram).toBe('started');
      fake.pushMessage(OWNER, '/whoami');
      await until(() => fake.chat(OWNER).some((m) => m.visible.includes(String(OWNER))), 'the answer to /whoami');
    } finally {
      await daemon.stop(0);
    }
    expect(fs.readFileSync(logFile, 'utf8')).not.toContain(fake.token);
  }, 30_000);
});

const WEBHOOK_URL = 'https://bot.example.test/cc-linker/telegram';

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
        String(OWNER),
        '--telegram-webhook-url',
        WEBHOOK_URL,
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
    expect(text).toContain(`webhook_url = "${WEBHOOK_URL}"`);
    expect(text).toContain('webhook_listen = "127.0.0.1:9443"');
    // Setup does not register the webhook: start does.
    expect(fake.webhook.url).toBe('');

    const row = (stdout: string) => stdout.split('\n').find((l) => /Telegram: (the )?webhook/.test(l));
    const before = await runSessionCli(['doctor'], { env, now: new Date() });
    expect(row(before.stdout)).toBe(
      `⚠️  Telegram: the webhook ${WEBHOOK_URL} is not registered yet; cc-linker start registers it`,
    );

    await new Bot(fake.token, { client: { apiRoot: fake.apiRoot } }).api.setWebhook(WEBHOOK_URL);
    const after = await runSessionCli(['doctor'], { env, now: new Date() });
    expect(row(after.stdout)).toBe(
      `✅ Telegram: webhook ${WEBHOOK_URL} registered (0 waiting), received on 127.0.0.1:9443`,
    );
    for (const out of [setup.stdout, setup.stderr, before.stdout, before.stderr, after.stdout, after.stderr])
      expect(out).not.toContain(fake.token);
  });
});
