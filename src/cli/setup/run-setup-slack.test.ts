import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  FAKE_APP_TOKEN,
  FAKE_BOT_TOKEN,
  startFakeSlack,
  type FakeSlack,
} from '../../../test/fakes/fake-slack/fake-slack-server.js';
import { converse as baseConverse, type ScriptStep } from '../../../test/helpers/setup-conversation.js';
import { loadConfig } from '../../core/config.js';
import { resolvePaths } from '../../core/paths.js';
import type { SetupFlags } from './setup-answers.js';
import { SetupError } from './setup-error.js';

/** The wizard with Slack chosen: the real Slack Web API client against the fake Slack. */
const WRONG_BOT = 'xoxb-9999-8888-WrongBotTokenWrong';
const WRONG_APP = 'xapp-1-A0WRONG-7777-WrongAppTokenWrong';

let fake: FakeSlack;
let tmp: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  fake = await startFakeSlack();
});
afterAll(async () => {
  await fake.close();
});
beforeEach(() => {
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'ccl-wizard-slack-')));
  fs.mkdirSync(path.join(tmp, 'Git'), { recursive: true });
  env = { HOME: tmp, CC_LINKER_HOME: path.join(tmp, '.cc-linker') };
});
afterEach(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
});

const configFile = () => path.join(tmp, '.cc-linker', 'config.toml');
const flags = (apiUrl = fake.apiUrl): SetupFlags => ({
  check: true,
  yes: false,
  skipFeishu: false,
  chatFlags: { slackApiUrl: apiUrl },
});
const converse = (script: ScriptStep[], opts: { terminal?: boolean; flags?: SetupFlags } = {}) =>
  baseConverse(script, { env, cwd: tmp, flags: opts.flags ?? flags(), ...opts });
const secretsIn = (text: string) =>
  [FAKE_BOT_TOKEN, FAKE_APP_TOKEN, WRONG_BOT, WRONG_APP].filter((secret) => text.includes(secret));

async function reload() {
  return (await loadConfig({ paths: resolvePaths(env), env: { HOME: tmp, CC_LINKER_HOME: env.CC_LINKER_HOME } }))
    .config;
}

/** Slack only: language, apps, both tokens, owner, auto-bind, roots, default directory, write. */
const slackScript = (bot: string, app: string): ScriptStep[] => [
  [/^语言 \/ Language/, 'en'],
  [/^Chat apps to set up: .*slack \(Slack\).* \[feishu\]: $/, 'slack'],
  [/^Bot token xoxb-… \(not shown while you type\): $/, bot],
  [/^App-level token xapp-… \(not shown while you type\): $/, app],
  [/^owner_user_id \(starts with U; press Enter to leave it empty\): $/, ''],
  [/^Turn on auto-bind .* \[y\/N\]: $/, 'n'],
  [/^Allowed root directories /, path.join(tmp, 'Git')],
  [/^Default working directory /, ''],
  [/^Write the config file\? \[Y\/n\]: $/, 'y'],
];

describe('setup wizard: Slack', () => {
  it('Slack alone: both tokens hidden, checked (the app named), written 0600; Feishu is never asked', async () => {
    const before = fake.callsOf('auth.test').length;
    const r = await converse(slackScript(FAKE_BOT_TOKEN, FAKE_APP_TOKEN), { terminal: true });
    expect(r.mismatches).toEqual([]);
    expect(r.result).toMatchObject({ credentials: 'none', chatApps: { slack: 'ok' } });
    expect(fake.callsOf('auth.test').length).toBe(before + 1);
    expect(r.transcript).toContain('https://api.slack.com/apps');
    expect(r.transcript).toContain('✅ Tokens accepted: the app is @cc-linker (workspace Fake Team)');
    expect(r.transcript).toContain('Copy member ID');
    const manifest = /^Slack app manifest \(paste it at .* From a manifest\): (\S+)$/m.exec(r.transcript)?.[1] ?? '';
    expect(path.isAbsolute(manifest) && fs.readFileSync(manifest, 'utf8')).toContain('command: /cc');
    expect(r.transcript).toMatch(/Slack bot token: \(set, hidden\)/);
    expect(r.transcript).toMatch(/Slack app-level token: \(set, hidden\)/);
    expect(r.transcript).toMatch(/Chat apps set up: Slack\n/);
    expect(r.transcript).not.toMatch(/App ID|App Secret|Feishu \/ Lark: /);
    expect(r.stdout).toContain(
      'Next (Slack): run cc-linker start, type "/cc whoami" in your direct message with @cc-linker, then run cc-linker setup --slack-owner-user-id <id>.',
    );
    expect(secretsIn(`${r.transcript}\n${r.stdout}\n${r.stderr}`)).toEqual([]);
    const config = await reload();
    expect(config.slack).toEqual({
      enabled: true,
      bot_token: FAKE_BOT_TOKEN,
      app_token: FAKE_APP_TOKEN,
      owner_user_id: '',
      allow_auto_bind_owner: false,
      api_url: fake.apiUrl,
    });
    expect(config.feishu_bot.app_id).toBe('');
    expect(fs.statSync(configFile()).mode & 0o777).toBe(0o600);
  });

  it('a refused token is said and only it is asked again; a malformed one is explained; auto-bind warns', async () => {
    const script = slackScript(FAKE_BOT_TOKEN, FAKE_APP_TOKEN);
    script.splice(
      2,
      2,
      [/^Bot token /, FAKE_APP_TOKEN],
      [/^Bot token /, FAKE_BOT_TOKEN],
      [/^App-level token /, WRONG_APP],
      [/^Enter the refused token again\? \[Y\/n\]: $/, 'y'],
      [/^App-level token xapp-… \(not shown while you type\): $/, FAKE_APP_TOKEN],
    );
    script[8] = [/^Turn on auto-bind /, 'y'];
    const r = await converse(script);
    expect(r.mismatches).toEqual([]);
    expect(r.result).toMatchObject({ chatApps: { slack: 'ok' } });
    expect(r.transcript).toContain('A bot token starts with xoxb-');
    expect(r.transcript).toContain('❌ Slack refused the app-level token (invalid_auth).');
    expect(r.transcript).toContain('the first person in the workspace to message the app directly becomes the owner');
    expect(r.stdout).toContain('send @cc-linker a first direct message');
    expect(secretsIn(`${r.transcript}\n${r.stdout}\n${r.stderr}`)).toEqual([]);
    expect((await reload()).slack).toMatchObject({
      bot_token: FAKE_BOT_TOKEN,
      app_token: FAKE_APP_TOKEN,
      allow_auto_bind_owner: true,
    });
  });

  it('both refused and "no" to asking again writes nothing', async () => {
    const script = slackScript(WRONG_BOT, WRONG_APP).slice(0, 4);
    script.push([/^Enter the refused token again\?/, 'n']);
    const r = await converse(script);
    expect(r.mismatches).toEqual([]);
    expect(r.transcript).toContain(
      '❌ Slack refused the bot token (invalid_auth) and the app-level token (invalid_auth).',
    );
    expect(r.result).toBeInstanceOf(SetupError);
    expect((r.result as SetupError).code).toBe('SETUP_CREDENTIALS');
    expect(fs.existsSync(configFile())).toBe(false);
  });

  it('Slack unreachable: warned, the tokens are kept (setup works offline)', async () => {
    const down = await startFakeSlack();
    const downUrl = down.apiUrl;
    await down.close();
    const r = await converse(slackScript(FAKE_BOT_TOKEN, FAKE_APP_TOKEN), { flags: flags(downUrl) });
    expect(r.mismatches).toEqual([]);
    expect(r.result).toMatchObject({ chatApps: { slack: 'unchecked' } });
    expect(r.transcript).toMatch(
      /⚠️ Could not reach 127\.0\.0\.1:\d+ to check the Slack tokens \(.+\)\. They are saved anyway/,
    );
    expect(r.transcript).toMatch(/Slack app: \(not checked\)/);
    expect((await reload()).slack).toMatchObject({
      bot_token: FAKE_BOT_TOKEN,
      app_token: FAKE_APP_TOKEN,
      api_url: downUrl,
    });
  });

  it('a re-run offers the file as defaults: Enter keeps both tokens (never shown) and the owner', async () => {
    fs.mkdirSync(path.dirname(configFile()), { recursive: true });
    const old = [
      '[slack]',
      'enabled = true',
      `bot_token = "${FAKE_BOT_TOKEN}"`,
      `app_token = "${FAKE_APP_TOKEN}"`,
      'owner_user_id = "U0OWNER"',
      `api_url = "${fake.apiUrl}"`,
      '',
    ];
    fs.writeFileSync(configFile(), old.join('\n'), { mode: 0o600 });
    const r = await converse(
      [
        [/^语言 /, 'en'],
        [/^Chat apps to set up: .* \[slack\]: $/, ''],
        [/^Bot token xoxb-… \(not shown while you type; Enter keeps the one in the file\): $/, ''],
        [/^App-level token xapp-… \(not shown while you type; Enter keeps the one in the file\): $/, ''],
        [/^owner_user_id \(starts with U; press Enter to leave it empty\) \[U0OWNER\]: $/, ''],
        [/^Allowed root directories /, path.join(tmp, 'Git')],
        [/^Default working directory /, ''],
        [/^Write the config file\? /, 'y'],
      ],
      { flags: { check: true, yes: false, skipFeishu: false } },
    );
    expect(r.mismatches).toEqual([]);
    expect(r.result).toMatchObject({ chatApps: { slack: 'ok' } });
    expect(r.stdout).toContain('Next (Slack): run cc-linker start, then message @cc-linker directly in Slack.');
    expect(secretsIn(`${r.transcript}\n${r.stdout}\n${r.stderr}`)).toEqual([]);
    expect((await reload()).slack).toMatchObject({
      bot_token: FAKE_BOT_TOKEN,
      app_token: FAKE_APP_TOKEN,
      owner_user_id: 'U0OWNER',
    });
  });

  it('the token variables can stay the source: checked, and the file gets no token', async () => {
    env = { ...env, CC_LINKER_SLACK_BOT_TOKEN: FAKE_BOT_TOKEN, CC_LINKER_SLACK_APP_TOKEN: FAKE_APP_TOKEN };
    const script = slackScript(FAKE_BOT_TOKEN, FAKE_APP_TOKEN);
    script[1] = [/^Chat apps to set up: .* \[slack\]: $/, ''];
    script[2] = [/^CC_LINKER_SLACK_BOT_TOKEN is set: keep using it .* \[Y\/n\]: $/, ''];
    script[3] = [/^CC_LINKER_SLACK_APP_TOKEN is set: keep using it .* \[Y\/n\]: $/, ''];
    const r = await converse(script);
    expect(r.mismatches).toEqual([]);
    expect(r.result).toMatchObject({ chatApps: { slack: 'ok' } });
    expect(r.transcript).toContain('(from CC_LINKER_SLACK_BOT_TOKEN, not written to the file)');
    expect(r.transcript).toContain('(from CC_LINKER_SLACK_APP_TOKEN, not written to the file)');
    const text = fs.readFileSync(configFile(), 'utf8');
    expect(text).toContain('bot_token = ""');
    expect(text).toContain('app_token = ""');
    expect(secretsIn(text)).toEqual([]);
  });

  it('with answer flags on a terminal it asks only for the missing token, and checks them last', async () => {
    const r = await converse([[/^App-level token xapp-… \(not shown while you type\): $/, FAKE_APP_TOKEN]], {
      terminal: true,
      flags: {
        ...flags(),
        language: 'en',
        allowedRoot: [path.join(tmp, 'Git')],
        chatFlags: { slackApiUrl: fake.apiUrl, slackBotToken: FAKE_BOT_TOKEN, slackOwnerUserId: 'U0OWNER' },
      },
    });
    expect(r.mismatches).toEqual([]);
    expect(r.answered).toBe(1);
    expect(r.result).toMatchObject({ chatApps: { slack: 'ok' } });
    expect(secretsIn(r.transcript)).toEqual([]);
    expect((await reload()).slack).toMatchObject({
      enabled: true,
      bot_token: FAKE_BOT_TOKEN,
      app_token: FAKE_APP_TOKEN,
      owner_user_id: 'U0OWNER',
    });
  });
});
