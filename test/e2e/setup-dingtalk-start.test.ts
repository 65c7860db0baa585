/**
 * `cc-linker setup --channels dingtalk` end to end: setup writes the file (the client id and
 * secret checked against the fake DingTalk), `doctor` passes that config, and the daemon `start`
 * runs (`assembleDaemon`) has no Feishu at all but opens the Stream connection through the fake
 * gateway and answers the owner in the single chat.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assembleDaemon } from '../../src/cli/start/assemble-daemon.js';
import { loadConfig } from '../../src/core/config.js';
import { createLogger } from '../../src/core/logger.js';
import { resolvePaths } from '../../src/core/paths.js';
import { startFakeDingTalk, type FakeDingTalk } from '../fakes/fake-dingtalk/fake-dingtalk-server.js';
import { pathWithoutDevAgents } from '../helpers/path-without-dev-agents.js';
import { runSessionCli } from '../helpers/run-session-cli.js';
import { runSetupCommand } from '../helpers/run-setup-command.js';
import { OWNER_STAFF_ID, until } from './dingtalk-harness.js';

let fake: FakeDingTalk;
let tmp: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  fake = await startFakeDingTalk({ ackTimeoutMs: 1_000 });
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'ccl-setup-start-dingtalk-')));
  fs.mkdirSync(path.join(tmp, 'projects'));
  env = { HOME: tmp, CC_LINKER_HOME: path.join(tmp, '.cc-linker'), PATH: pathWithoutDevAgents() };
});
afterAll(async () => {
  await fake.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe('setup with DingTalk only, then doctor and start', () => {
  it('writes a config doctor accepts; start connects to the DingTalk gateway without Feishu', async () => {
    const setup = await runSetupCommand(
      [
        '--channels',
        'dingtalk',
        '--dingtalk-client-id',
        fake.clientId,
        '--dingtalk-client-secret',
        fake.clientSecret,
        '--dingtalk-api-base',
        fake.apiBase,
        '--dingtalk-owner-staff-id',
        OWNER_STAFF_ID,
        '--allowed-root',
        path.join(tmp, 'projects'),
        '--language',
        'en',
      ],
      env,
    );
    expect(setup.code).toBe(0);
    expect(setup.stderr).toContain('DingTalk accepted the Client ID and Client Secret');

    const doctor = await runSessionCli(['doctor'], { env, now: new Date() });
    const rows = doctor.stdout.split('\n');
    expect(rows).toContain('✅ Config: ~/.cc-linker/config.toml');
    expect(rows).toContain('✅ DingTalk: enabled, client_id / client_secret and owner set');
    expect(rows).toContain('✅ DingTalk: credentials accepted (an access token was issued)');
    // Feishu is simply not configured: a warning, never a failure.
    expect(rows.filter((r) => r.startsWith('❌')).join('\n')).not.toMatch(/Feishu|DingTalk|Config/);
    for (const out of [setup.stdout, setup.stderr, doctor.stdout, doctor.stderr])
      expect(out).not.toContain(fake.clientSecret);

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
      expect(daemon.dingtalk).toBe('started');
      await until(() => fake.connections === 1, 'the Stream connection through the fake gateway');
      expect(fake.gatewayCalls.at(-1)).toMatchObject({ clientId: fake.clientId, clientSecret: 'ok' });
      const push = fake.push(fake.robotMessage(OWNER_STAFF_ID, '/whoami'));
      await until(
        () => fake.messagesTo(OWNER_STAFF_ID).some((m) => m.text.includes(OWNER_STAFF_ID)),
        'the answer to /whoami',
      );
      expect(push.acked).toBe(true);
    } finally {
      await daemon.stop(0);
    }
    expect(fs.readFileSync(logFile, 'utf8')).not.toContain(fake.clientSecret);
  }, 30_000);
});
