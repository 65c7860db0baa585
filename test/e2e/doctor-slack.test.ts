/**
 * `cc-linker doctor` with `[slack]` enabled: each token is checked live (the real Web API client
 * against the fake Slack) — accepted names the bot, refused is a failure, unreachable a warning —
 * and no token is ever printed.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeSlack, type FakeSlack } from '../fakes/fake-slack/fake-slack-server.js';
import { pathWithoutDevAgents } from '../helpers/path-without-dev-agents.js';
import { runSessionCli } from '../helpers/run-session-cli.js';

let tmp: string;
let home: string;
let fake: FakeSlack;

beforeAll(async () => {
  fake = await startFakeSlack();
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'cc-doctor-slack-')));
  home = path.join(tmp, 'home');
  fs.mkdirSync(path.join(home, '.cc-linker'), { recursive: true, mode: 0o700 });
});
afterAll(async () => {
  await fake.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

async function doctor(botToken: string, appToken: string, apiUrl: string) {
  const toml = [
    '[general]',
    'language = "en"',
    '[slack]',
    'enabled = true',
    `api_url = "${apiUrl}"`,
    'owner_user_id = "U0OWNER"',
  ];
  fs.writeFileSync(path.join(home, '.cc-linker', 'config.toml'), `${toml.join('\n')}\n`, { mode: 0o600 });
  const env = {
    HOME: home,
    CC_LINKER_HOME: path.join(home, '.cc-linker'),
    PATH: pathWithoutDevAgents(),
    CC_LINKER_SLACK_BOT_TOKEN: botToken,
    CC_LINKER_SLACK_APP_TOKEN: appToken,
  };
  const r = await runSessionCli(['doctor'], { env, now: new Date() });
  const rows = r.stdout.split('\n').filter((l) => l.includes('Slack:'));
  return { ...r, rows };
}

describe('doctor with Slack enabled', () => {
  it('names the bot for accepted tokens, fails a refused one, warns when Slack is unreachable', async () => {
    const good = await doctor(fake.botToken, fake.appToken, fake.apiUrl);
    expect(good.rows).toEqual([
      '✅ Slack: enabled, bot_token, app_token and owner set',
      '✅ Slack: bot token accepted, the bot is @cc-linker (workspace Fake Team)',
      '✅ Slack: app token accepted, Socket Mode can connect',
    ]);

    const wrongApp = 'xapp-1-A0WRONG-0000-wrongwrongwrong';
    const refused = await doctor(fake.botToken, wrongApp, fake.apiUrl);
    expect(refused.rows).toContain(
      "❌ Slack: the app token was refused (invalid_auth); copy it again from the Slack app's settings",
    );
    expect(refused.code).toBe(1);

    const down = await startFakeSlack();
    const downUrl = down.apiUrl;
    await down.close();
    const unreachable = await doctor(fake.botToken, fake.appToken, downUrl);
    expect(
      unreachable.rows.filter((l) => /^⚠️ +Slack: Web API unreachable \(.*\); start keeps retrying$/.test(l)),
    ).toHaveLength(2);
    for (const r of [good, refused, unreachable]) {
      expect(r.stdout + r.stderr).not.toContain(fake.botToken);
      expect(r.stdout + r.stderr).not.toContain(fake.appToken);
      expect(r.stdout + r.stderr).not.toContain(wrongApp);
    }
  });
});
