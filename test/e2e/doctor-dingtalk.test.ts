/**
 * `cc-linker doctor` with `[dingtalk]` enabled: the credentials are checked with one real
 * `accessToken` call against the fake DingTalk — accepted is ok, refused a failure, unreachable a
 * warning — and the client secret is never printed.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeDingTalk, type FakeDingTalk } from '../fakes/fake-dingtalk/fake-dingtalk-server.js';
import { pathWithoutDevAgents } from '../helpers/path-without-dev-agents.js';
import { runSessionCli } from '../helpers/run-session-cli.js';

let tmp: string;
let home: string;
let fake: FakeDingTalk;

beforeAll(async () => {
  fake = await startFakeDingTalk();
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'cc-doctor-dt-')));
  home = path.join(tmp, 'home');
  fs.mkdirSync(path.join(home, '.cc-linker'), { recursive: true, mode: 0o700 });
});
afterAll(async () => {
  await fake.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

async function doctor(secret: string, apiBase: string, owner = 'owner0001') {
  const toml = ['[general]', 'language = "en"', '[dingtalk]', 'enabled = true', `api_base = "${apiBase}"`];
  fs.writeFileSync(path.join(home, '.cc-linker', 'config.toml'), `${toml.join('\n')}\n`, { mode: 0o600 });
  const env = {
    HOME: home,
    CC_LINKER_HOME: path.join(home, '.cc-linker'),
    PATH: pathWithoutDevAgents(),
    CC_LINKER_DINGTALK_CLIENT_ID: fake.clientId,
    CC_LINKER_DINGTALK_CLIENT_SECRET: secret,
    CC_LINKER_DINGTALK_OWNER_STAFF_ID: owner,
  };
  const r = await runSessionCli(['doctor'], { env, now: new Date() });
  const rows = r.stdout.split('\n').filter((l) => l.includes('DingTalk:'));
  return { ...r, rows };
}

describe('doctor with DingTalk enabled', () => {
  it('accepts good credentials, fails refused ones, warns when DingTalk is unreachable or has no owner', async () => {
    const good = await doctor(fake.clientSecret, fake.apiBase);
    expect(good.rows).toEqual([
      '✅ DingTalk: enabled, client_id / client_secret and owner set',
      '✅ DingTalk: credentials accepted (an access token was issued)',
    ]);

    const wrong = 'wrong-dingtalk-secret-0123456789';
    const refused = await doctor(wrong, fake.apiBase);
    expect(refused.rows[1]).toMatch(
      /^❌ DingTalk: client_id \/ client_secret refused \(HTTP 400 invalidClientIdOrSecret/,
    );
    expect(refused.code).toBe(1);

    const down = await startFakeDingTalk();
    const downBase = down.apiBase;
    await down.close();
    const unreachable = await doctor(fake.clientSecret, downBase, '');
    expect(unreachable.rows[0]).toMatch(/^⚠️ +DingTalk: no owner_staff_id/);
    expect(unreachable.rows[1]).toMatch(
      /^⚠️ +DingTalk: OpenAPI unreachable \(network request failed.*\); start keeps retrying$/,
    );
    for (const r of [good, refused, unreachable]) {
      expect(r.stdout + r.stderr).not.toContain(fake.clientSecret);
      expect(r.stdout + r.stderr).not.toContain(wrong);
    }
  });
});
