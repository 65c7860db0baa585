import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeTelegram, type FakeTelegram } from '../../../test/fakes/fake-telegram/fake-telegram-server.js';
import { converse as baseConverse, type ScriptStep } from '../../../test/helpers/setup-conversation.js';
import { loadConfig } from '../../core/config.js';
import { resolvePaths } from '../../core/paths.js';
import type { SetupFlags } from './setup-answers.js';
import { SetupError } from './setup-error.js';

/** The wizard with Telegram chosen: the real grammY `getMe` against the fake Bot API. */
const WRONG = '987654321:AAWrongTokenWrongTokenWrong_0000';

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
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'ccl-wizard-tg-')));
  fs.mkdirSync(path.join(tmp, 'Git'), { recursive: true });
  env = { HOME: tmp, CC_LINKER_HOME: path.join(tmp, '.cc-linker') };
});
afterEach(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
});

const configFile = () => path.join(tmp, '.cc-linker', 'config.toml');
const flags = (): SetupFlags => ({
  check: true,
  yes: false,
  skipFeishu: false,
  chatFlags: { telegramApiRoot: fake.apiRoot },
});
const converse = (script: ScriptStep[], opts: { terminal?: boolean; flags?: SetupFlags } = {}) =>
  baseConverse(script, { env, cwd: tmp, flags: opts.flags ?? flags(), ...opts });

async function reload() {
  return (await loadConfig({ paths: resolvePaths(env), env: { HOME: tmp, CC_LINKER_HOME: env.CC_LINKER_HOME } }))
    .config;
}

/** Telegram only: language, apps, token, owner, auto-bind, receive mode, roots, default directory, write. */
const telegramScript = (token: string): ScriptStep[] => [
  [/^语言 \/ Language/, 'en'],
  [/^Chat apps to set up: .* \[feishu\]: $/, 'telegram'],
  [/^Bot token \(not shown while you type\): $/, token],
  [/^owner_user_id \(digits; press Enter to leave it empty\): $/, ''],
  [/^Turn on auto-bind .* \[y\/N\]: $/, 'n'],
  [/^Receive messages by \(1 = long polling, 2 = webhook\) \[1 = long polling\]: $/, ''],
  [/^Allowed root directories /, path.join(tmp, 'Git')],
  [/^Default working directory /, ''],
  [/^Write the config file\? \[Y\/n\]: $/, 'y'],
];

describe('setup wizard: Telegram', () => {
  it('Telegram alone: the token is hidden, checked (the bot named), written 0600; Feishu is never asked', async () => {
    const r = await converse(telegramScript(fake.token), { terminal: true });
    expect(r.mismatches).toEqual([]);
    expect(r.result).toMatchObject({ credentials: 'none', chatApps: { telegram: 'ok' } });
    expect(r.transcript).toContain('send /newbot to @BotFather');
    expect(r.transcript).toContain('✅ Token accepted: the bot is @cc_linker_test_bot');
    expect(r.transcript).toContain('send /whoami to the bot');
    expect(r.transcript).toMatch(/Telegram bot token: \(set, hidden\)/);
    expect(r.transcript).toMatch(/Chat apps set up: Telegram\n/);
    expect(r.transcript).not.toMatch(/App ID|App Secret|Feishu \/ Lark: /);
    expect(r.stdout).toContain(
      'Next (Telegram): run cc-linker start, send /whoami to @cc_linker_test_bot, then run cc-linker setup --telegram-owner-user-id <id>.',
    );
    expect(`${r.transcript}\n${r.stdout}\n${r.stderr}`).not.toContain(fake.token);
    const config = await reload();
    expect(config.telegram).toEqual({
      enabled: true,
      bot_token: fake.token,
      owner_user_id: '',
      allow_auto_bind_owner: false,
      api_root: fake.apiRoot,
      webhook_url: '',
      webhook_listen: '127.0.0.1:8443',
      webhook_secret: '',
    });
    expect(config.feishu_bot.app_id).toBe('');
    expect(fs.statSync(configFile()).mode & 0o777).toBe(0o600);
  });

  it('a refused token is said and asked again; a malformed one is explained; auto-bind warns', async () => {
    const script = telegramScript(fake.token);
    script.splice(
      2,
      1,
      [/^Bot token /, 'not-a-token'],
      [/^Bot token /, WRONG],
      [/^Enter the bot token again\? \[Y\/n\]: $/, 'y'],
      [/^Bot token \(not shown while you type\): $/, fake.token],
    );
    script[7] = [/^Turn on auto-bind /, 'y'];
    const r = await converse(script);
    expect(r.mismatches).toEqual([]);
    expect(r.result).toMatchObject({ chatApps: { telegram: 'ok' } });
    expect(r.transcript).toContain('A bot token is digits, a colon, then at least 20 letters');
    expect(r.transcript).toContain('❌ Telegram refused this token (Unauthorized)');
    expect(r.transcript).toContain(
      'With auto-bind on, the first person to message the bot privately becomes the owner',
    );
    expect(r.stdout).toContain('send @cc_linker_test_bot a first private message');
    expect(`${r.transcript}\n${r.stdout}`).not.toContain(WRONG);
    expect(await reload()).toMatchObject({ telegram: { bot_token: fake.token, allow_auto_bind_owner: true } });
  });

  it('a refused token and "no" to asking again writes nothing', async () => {
    const script = telegramScript(WRONG).slice(0, 3);
    script.push([/^Enter the bot token again\?/, 'n']);
    const r = await converse(script);
    expect(r.result).toBeInstanceOf(SetupError);
    expect((r.result as SetupError).code).toBe('SETUP_CREDENTIALS');
    expect(fs.existsSync(configFile())).toBe(false);
  });

  it('Telegram unreachable: warned, the token is kept (setup works offline)', async () => {
    const down = await startFakeTelegram();
    const downRoot = down.apiRoot;
    await down.close();
    const r = await converse(telegramScript(fake.token), {
      flags: { ...flags(), chatFlags: { telegramApiRoot: downRoot } },
    });
    expect(r.mismatches).toEqual([]);
    expect(r.result).toMatchObject({ chatApps: { telegram: 'unchecked' } });
    expect(r.transcript).toMatch(
      /⚠️ Could not reach 127\.0\.0\.1:\d+ to check the bot token \(.+\)\. It is saved anyway/,
    );
    expect(r.transcript).toMatch(/Telegram bot: \(not checked\)/);
    expect((await reload()).telegram).toMatchObject({ bot_token: fake.token, api_root: downRoot });
  });

  it('a re-run offers the file as defaults: Enter keeps the token (never shown) and the owner', async () => {
    fs.mkdirSync(path.dirname(configFile()), { recursive: true });
    const old = ['[telegram]', 'enabled = true', `bot_token = "${fake.token}"`, 'owner_user_id = "4242"'];
    fs.writeFileSync(configFile(), [...old, `api_root = "${fake.apiRoot}"`, ''].join('\n'), { mode: 0o600 });
    const r = await converse(
      [
        [/^语言 /, 'en'],
        [/^Chat apps to set up: .* \[telegram\]: $/, ''],
        [/^Bot token \(not shown while you type; Enter keeps the one in the file\): $/, ''],
        [/^owner_user_id \(digits; press Enter to leave it empty\) \[4242\]: $/, ''],
        [/^Receive messages by /, ''],
        [/^Allowed root directories /, path.join(tmp, 'Git')],
        [/^Default working directory /, ''],
        [/^Write the config file\? /, 'y'],
      ],
      { flags: { check: true, yes: false, skipFeishu: false } },
    );
    expect(r.mismatches).toEqual([]);
    expect(r.result).toMatchObject({ chatApps: { telegram: 'ok' } });
    expect(r.stdout).toContain('Next (Telegram): run cc-linker start, then message @cc_linker_test_bot in Telegram.');
    expect(`${r.transcript}\n${r.stdout}`).not.toContain(fake.token);
    expect((await reload()).telegram).toMatchObject({ bot_token: fake.token, owner_user_id: '4242' });
  });

  it('CC_LINKER_TELEGRAM_BOT_TOKEN can stay the source: checked, and the file gets no token', async () => {
    env = { ...env, CC_LINKER_TELEGRAM_BOT_TOKEN: fake.token };
    const script = telegramScript(fake.token);
    script[1] = [/^Chat apps to set up: .* \[telegram\]: $/, ''];
    script[2] = [/^CC_LINKER_TELEGRAM_BOT_TOKEN is set: keep using it .* \[Y\/n\]: $/, ''];
    const r = await converse(script);
    expect(r.mismatches).toEqual([]);
    expect(r.result).toMatchObject({ chatApps: { telegram: 'ok' } });
    expect(r.transcript).toContain('(from CC_LINKER_TELEGRAM_BOT_TOKEN, not written to the file)');
    expect(fs.readFileSync(configFile(), 'utf8')).toContain('bot_token = ""');
  });

  it('with answer flags on a terminal it asks only for the missing token, and checks it last', async () => {
    const r = await converse([[/^Bot token \(not shown while you type\): $/, fake.token]], {
      terminal: true,
      flags: {
        ...flags(),
        language: 'en',
        allowedRoot: [path.join(tmp, 'Git')],
        chatFlags: { telegramApiRoot: fake.apiRoot, telegramOwnerUserId: '4242' },
      },
    });
    expect(r.mismatches).toEqual([]);
    expect(r.answered).toBe(1);
    expect(r.result).toMatchObject({ chatApps: { telegram: 'ok' } });
    expect(r.transcript).not.toContain(fake.token);
    expect((await reload()).telegram).toMatchObject({ enabled: true, bot_token: fake.token, owner_user_id: '4242' });
  });

  it('"none": the console alone, nothing asked about any chat app', async () => {
    const r = await converse([
      [/^语言 /, 'en'],
      [/^Chat apps to set up: /, 'none'],
      [/^Allowed root directories /, path.join(tmp, 'Git')],
      [/^Default working directory /, ''],
      [/^Write the config file\? /, 'y'],
    ]);
    expect(r.mismatches).toEqual([]);
    expect(r.result).toMatchObject({ credentials: 'none', chatApps: {} });
    expect(r.transcript).toMatch(/Local console: on/);
    expect(r.stdout).toContain('with no chat app set up it serves the local console only');
    const config = await reload();
    expect(config.telegram.enabled).toBe(false);
    expect(config.feishu_bot.app_id).toBe('');
  });
});
