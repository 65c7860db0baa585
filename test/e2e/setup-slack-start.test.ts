/**
 * `cc-linker setup --channels slack` end to end: setup writes the file (both tokens checked by the
 * real Slack Web API client against the fake Slack), `doctor` passes that config, and the daemon
 * `start` runs (`assembleDaemon`) has no Feishu at all but answers the owner in the Slack DM.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assembleDaemon } from '../../src/cli/start/assemble-daemon.js';
import { loadConfig } from '../../src/core/config.js';
import { createLogger } from '../../src/core/logger.js';
import { resolvePaths } from '../../src/core/paths.js';
import { startFakeSlack, type FakeSlack } from '../fakes/fake-slack/fake-slack-server.js';
import { pathWithoutDevAgents } from '../helpers/path-without-dev-agents.js';
import { runSessionCli } from '../helpers/run-session-cli.js';
import { runSetupCommand } from '../helpers/run-setup-command.js';
import { OWNER } from './slack-harness.js';
import { until } from './telegram-harness.js';

let fake: FakeSlack;
let tmp: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  fake = await startFakeSlack();
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'ccl-setup-start-slack-')));
  fs.mkdirSync(path.join(tmp, 'projects'));
  env = { HOME: tmp, CC_LINKER_HOME: path.join(tmp, '.cc-linker'), PATH: pathWithoutDevAgents() };
});
afterAll(async () => {
  await fake.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe('setup with Slack only, then doctor and start', () => {
  it('writes a config doctor accepts; start runs the Slack app without Feishu', async () => {
    const setup = await runSetupCommand(
      [
        '--channels',
        'slack',
        '--slack-bot-token',
        fake.botToken,
        '--slack-app-token',
        fake.appToken,
        '--slack-api-url',
        fake.apiUrl,
        '--slack-owner-user-id',
        OWNER,
        '--allowed-root',
        path.join(tmp, 'projects'),
        '--language',
        'en',
      ],
      env,
    );
    expect(setup.code).toBe(0);
    expect(setup.stderr).toContain('Tokens accepted: the app is @cc-linker');

    const doctor = await runSessionCli(['doctor'], { env, now: new Date() });
    const rows = doctor.stdout.split('\n');
    expect(rows).toContain('✅ Config: ~/.cc-linker/config.toml');
    expect(rows).toContain('✅ Slack: enabled, bot_token, app_token and owner set');
    expect(rows).toContain('✅ Slack: bot token accepted, the bot is @cc-linker (workspace Fake Team)');
    expect(rows).toContain('✅ Slack: app token accepted, Socket Mode can connect');
    // Feishu is simply not configured: a warning, never a failure.
    expect(rows.filter((r) => r.startsWith('❌')).join('\n')).not.toMatch(/Feishu|Slack|Config/);
    for (const out of [setup.stdout, setup.stderr, doctor.stdout, doctor.stderr]) {
      expect(out).not.toContain(fake.botToken);
      expect(out).not.toContain(fake.appToken);
    }

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
      expect(daemon.slack).toBe('started');
      fake.pushMessage(OWNER, ' /whoami');
      await until(() => fake.inChannel(fake.dm(OWNER)).some((m) => m.visible.includes(OWNER)), 'the answer to /whoami');
    } finally {
      await daemon.stop(0);
    }
    const log = fs.readFileSync(logFile, 'utf8');
    expect(log).not.toContain(fake.botToken);
    expect(log).not.toContain(fake.appToken);
  }, 30_000);
});
