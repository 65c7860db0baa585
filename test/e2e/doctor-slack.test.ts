/**
 * `cc-linker doctor` with `[slack]` enabled: each token is checked live (the real Web API client
 * against the fake Slack) — accepted names the bot, refused is a failure, unreachable a warning —
 * and no token is ever printed. Then the bot token's scopes (Slack's `x-oauth-scopes` header):
 * all there is ok, a missing one a warning that names it and the fix, no header "not checked".
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

async function doctor(botToken: string, appToken: string, apiUrl: string, args = ['doctor'], language = 'en') {
  const toml = [
    '[general]',
    `language = "${language}"`,
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
  const r = await runSessionCli(args, { env, now: new Date() });
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
      '✅ Slack: the app has every bot scope the channel needs (chat:write, im:history, im:write, files:read, files:write, commands)',
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

describe('doctor checks the Slack app’s bot scopes', () => {
  const all = ['chat:write', 'im:history', 'im:write', 'files:read', 'files:write', 'commands'];
  const summary = (out: string) => out.trim().split('\n').at(-1);
  const scopesCheck = (stdout: string) =>
    (JSON.parse(stdout) as { checks: Array<{ name: string; level: string; text: string }> }).checks.find(
      (c) => c.name === 'slack-scopes',
    );

  it('warns naming each missing scope, what it is for and the fix; the exit code is that of any warning', async () => {
    fake.scopes = all;
    const good = await doctor(fake.botToken, fake.appToken, fake.apiUrl);
    fake.scopes = all.filter((s) => s !== 'files:read' && s !== 'commands');
    try {
      const r = await doctor(fake.botToken, fake.appToken, fake.apiUrl);
      expect(r.rows).toContain(
        '⚠️  Slack: the app lacks bot scopes: files:read (files you send), commands (the /cc command). ' +
          'Add them at api.slack.com/apps → the app → OAuth & Permissions → Bot Token Scopes, then reinstall ' +
          'the app (Install App) — or recreate it from docs/slack-app-manifest.yaml.',
      );
      expect(r.rows.filter((l) => l.includes('scope'))).toHaveLength(1);
      // A warning, not a failure: the same failures, summary line and exit code as with every scope granted.
      expect(summary(r.stdout)).toBe(summary(good.stdout));
      expect(r.code).toBe(good.code);
      const json = await doctor(fake.botToken, fake.appToken, fake.apiUrl, ['doctor', '--json']);
      expect(scopesCheck(json.stdout)).toMatchObject({ level: 'warn' });
      expect(json.code).toBe(good.code);
      const zh = await doctor(fake.botToken, fake.appToken, fake.apiUrl, ['doctor'], 'zh');
      expect(zh.rows.join('\n')).toContain(
        'Slack: 应用缺少 bot 权限：files:read（你发送的图片与文件）、commands（/cc 命令）。请在 api.slack.com/apps',
      );
      for (const out of [r, json, zh]) expect(out.stdout + out.stderr).not.toContain(fake.botToken);
    } finally {
      fake.scopes = all;
    }
  });

  it('says the scopes could not be checked when Slack’s answer has no x-oauth-scopes header, and does not fail', async () => {
    const good = await doctor(fake.botToken, fake.appToken, fake.apiUrl);
    fake.scopes = undefined;
    try {
      const r = await doctor(fake.botToken, fake.appToken, fake.apiUrl);
      expect(r.rows).toContain(
        "➖ Slack: the app's bot scopes could not be checked (Slack's answer had no x-oauth-scopes header; a proxy may drop it)",
      );
      expect(r.rows).toContain('✅ Slack: bot token accepted, the bot is @cc-linker (workspace Fake Team)');
      expect(summary(r.stdout)).toBe(summary(good.stdout));
      expect(r.code).toBe(good.code);
      const json = await doctor(fake.botToken, fake.appToken, fake.apiUrl, ['doctor', '--json']);
      expect(scopesCheck(json.stdout)).toMatchObject({ level: 'info' });
    } finally {
      fake.scopes = all;
    }
  });

  it('does not look at scopes when the bot token is refused', async () => {
    const r = await doctor('xoxb-0000-wrong-wrong', fake.appToken, fake.apiUrl, ['doctor', '--json']);
    expect(scopesCheck(r.stdout)).toBeUndefined();
  });
});
