import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  FAKE_CLIENT_ID,
  FAKE_CLIENT_SECRET,
  startFakeDingTalk,
  type FakeDingTalk,
} from '../../../test/fakes/fake-dingtalk/fake-dingtalk-server.js';
import { foreignRuns } from '../../../test/helpers/one-language.js';
import { converse as baseConverse, type ScriptStep } from '../../../test/helpers/setup-conversation.js';
import { loadConfig } from '../../core/config.js';
import { resolvePaths } from '../../core/paths.js';
import type { SetupFlags } from './setup-answers.js';
import { SetupError } from './setup-error.js';

/** The wizard with DingTalk chosen: the real credentials check against the fake DingTalk. */
const WRONG_SECRET = 'wrong-dingtalk-secret-0123456789abcdef';

let fake: FakeDingTalk;
let tmp: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  fake = await startFakeDingTalk();
});
afterAll(async () => {
  await fake.close();
});
beforeEach(() => {
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'ccl-wizard-dingtalk-')));
  fs.mkdirSync(path.join(tmp, 'Git'), { recursive: true });
  env = { HOME: tmp, CC_LINKER_HOME: path.join(tmp, '.cc-linker') };
});
afterEach(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
});

const configFile = () => path.join(tmp, '.cc-linker', 'config.toml');
const flags = (apiBase = fake.apiBase): SetupFlags => ({
  check: true,
  yes: false,
  skipFeishu: false,
  chatFlags: { dingtalkApiBase: apiBase },
});
const converse = (script: ScriptStep[], opts: { terminal?: boolean; flags?: SetupFlags } = {}) =>
  baseConverse(script, { env, cwd: tmp, flags: opts.flags ?? flags(), ...opts });
const secretsIn = (text: string) => [FAKE_CLIENT_SECRET, WRONG_SECRET].filter((secret) => text.includes(secret));

async function reload() {
  return (await loadConfig({ paths: resolvePaths(env), env: { HOME: tmp, CC_LINKER_HOME: env.CC_LINKER_HOME } }))
    .config;
}

/** DingTalk only: language, apps, client id, secret, owner, auto-bind, card template, roots, default directory, write. */
const dingtalkScript = (secret: string): ScriptStep[] => [
  [/^语言 \/ Language/, 'en'],
  [/^Chat apps to set up: .*dingtalk \(DingTalk\).* \[feishu\]: $/, 'dingtalk'],
  [/^Client ID \(formerly AppKey, like dingxxxxxxxxxxxxxxxx\): $/, FAKE_CLIENT_ID],
  [/^Client Secret \(formerly AppSecret; not shown while you type\): $/, secret],
  [/^owner_staff_id \(press Enter to leave it empty\): $/, ''],
  [/^Turn on auto-bind .* \[y\/N\]: $/, 'n'],
  [/^card_template_id \(press Enter to leave it empty: no AI card\): $/, ''],
  [/^Allowed root directories /, path.join(tmp, 'Git')],
  [/^Default working directory /, ''],
  [/^Write the config file\? \[Y\/n\]: $/, 'y'],
];

describe('setup wizard: DingTalk', () => {
  it('DingTalk alone: the secret hidden, the pair checked, written 0600; Feishu is never asked', async () => {
    const before = fake.tokenCalls;
    const r = await converse(dingtalkScript(FAKE_CLIENT_SECRET), { terminal: true });
    expect(r.mismatches).toEqual([]);
    expect(r.result).toMatchObject({ credentials: 'none', chatApps: { dingtalk: 'ok' } });
    expect(fake.tokenCalls).toBe(before + 1);
    expect(r.transcript).toContain('https://open-dev.dingtalk.com');
    expect(r.transcript).toContain('Stream mode');
    expect(r.transcript).toContain('✅ DingTalk accepted the Client ID and Client Secret (an access token was issued)');
    expect(r.transcript).toContain('Left empty, replies are markdown messages');
    expect(r.transcript).toContain(`DingTalk Client ID: ${FAKE_CLIENT_ID}`);
    expect(r.transcript).toMatch(/DingTalk Client Secret: \(set, hidden\)/);
    expect(r.transcript).toMatch(/DingTalk replies: markdown messages \(no AI card\)/);
    expect(r.transcript).toMatch(/Chat apps set up: DingTalk\n/);
    expect(r.transcript).not.toMatch(/App ID|App Secret|Feishu \/ Lark: /);
    expect(r.stdout).toContain(
      'Next (DingTalk): run cc-linker start, send /whoami to the robot in a single chat, then run cc-linker setup --dingtalk-owner-staff-id <staffId>.',
    );
    expect(secretsIn(`${r.transcript}\n${r.stdout}\n${r.stderr}`)).toEqual([]);
    const config = await reload();
    expect(config.dingtalk).toEqual({
      enabled: true,
      client_id: FAKE_CLIENT_ID,
      client_secret: FAKE_CLIENT_SECRET,
      owner_staff_id: '',
      allow_auto_bind_owner: false,
      api_base: fake.apiBase,
      oapi_base: 'https://oapi.dingtalk.com',
      card_template_id: '',
      card_template_key: 'content',
    });
    expect(config.feishu_bot.app_id).toBe('');
    expect(fs.statSync(configFile()).mode & 0o777).toBe(0o600);
  });

  it('a refused pair is said and both asked again; a malformed secret is explained; auto-bind warns; a card template is kept', async () => {
    const script = dingtalkScript(FAKE_CLIENT_SECRET);
    script.splice(
      3,
      1,
      [/^Client Secret /, 'has a space'],
      [/^Client Secret /, WRONG_SECRET],
      [/^Enter the Client ID and Client Secret again\? \[Y\/n\]: $/, 'y'],
      [new RegExp(`^Client ID \\(formerly AppKey, like dingxxxxxxxxxxxxxxxx\\) \\[${FAKE_CLIENT_ID}\\]: $`), ''],
      [/^Client Secret \(formerly AppSecret; not shown while you type\): $/, FAKE_CLIENT_SECRET],
    );
    script[9] = [/^Turn on auto-bind /, 'y'];
    script[10] = [/^card_template_id /, 'tpl-0001.schema'];
    const r = await converse(script);
    expect(r.mismatches).toEqual([]);
    expect(r.result).toMatchObject({ chatApps: { dingtalk: 'ok' } });
    expect(r.transcript).toContain('A Client Secret is printable ASCII without spaces');
    expect(r.transcript).toContain(
      '❌ DingTalk refused this Client ID / Client Secret (DingTalk said “HTTP 400 invalidClientIdOrSecret',
    );
    expect(r.transcript).toContain('the first person in the organisation to message the robot in a single chat');
    expect(r.transcript).toMatch(/DingTalk replies: AI card \(template tpl-0001\.schema\)/);
    expect(r.stdout).toContain('send the robot a first message in a single chat at once');
    expect(secretsIn(`${r.transcript}\n${r.stdout}\n${r.stderr}`)).toEqual([]);
    expect((await reload()).dingtalk).toMatchObject({
      client_id: FAKE_CLIENT_ID,
      client_secret: FAKE_CLIENT_SECRET,
      allow_auto_bind_owner: true,
      card_template_id: 'tpl-0001.schema',
    });
  });

  it("in Chinese every DingTalk sentence is Chinese, DingTalk's own words quoted", async () => {
    const r = await converse([
      [/^语言 \/ Language/, 'zh'],
      [/^要设置的聊天应用/, 'dingtalk'],
      [/^Client ID（原 AppKey，形如 dingxxxxxxxxxxxxxxxx）: $/, FAKE_CLIENT_ID],
      [/^Client Secret（原 AppSecret；输入不显示）: $/, WRONG_SECRET],
      [/^重新输入 Client ID 和 Client Secret？/, 'y'],
      [/^Client ID/, ''],
      [/^Client Secret/, FAKE_CLIENT_SECRET],
      [/^owner_staff_id（不知道就直接回车留空）: $/, ''],
      [/^开启自动绑定/, 'y'],
      [/^card_template_id（不用 AI 卡片就直接回车留空）: $/, 'tpl-0001.schema'],
      [/^允许的根目录/, path.join(tmp, 'Git')],
      [/^默认工作目录/, ''],
      [/^写入配置文件？/, 'y'],
    ]);
    expect(r.mismatches).toEqual([]);
    expect(r.result).toMatchObject({ chatApps: { dingtalk: 'ok' } });
    expect(r.transcript).toContain(
      '❌ 钉钉拒绝了这组 Client ID / Client Secret（钉钉答复「HTTP 400 invalidClientIdOrSecret',
    );
    expect(r.transcript).toContain('钉钉回复方式: AI 卡片（模板 tpl-0001.schema）');
    expect(foreignRuns(`${r.transcript}\n${r.stdout}\n${r.stderr}`, 'zh')).toEqual([]);
    expect(secretsIn(`${r.transcript}\n${r.stdout}\n${r.stderr}`)).toEqual([]);
  });

  it('refused and "no" to asking again writes nothing', async () => {
    const script = dingtalkScript(WRONG_SECRET).slice(0, 4);
    script.push([/^Enter the Client ID and Client Secret again\?/, 'n']);
    const r = await converse(script);
    expect(r.mismatches).toEqual([]);
    expect(r.transcript).toContain('❌ DingTalk refused this Client ID / Client Secret');
    expect(r.result).toBeInstanceOf(SetupError);
    expect((r.result as SetupError).code).toBe('SETUP_CREDENTIALS');
    expect(secretsIn(`${r.transcript}\n${r.stdout}\n${r.stderr}`)).toEqual([]);
    expect(fs.existsSync(configFile())).toBe(false);
  });

  it('DingTalk unreachable: warned, the credentials are kept (setup works offline)', async () => {
    const down = await startFakeDingTalk();
    const downBase = down.apiBase;
    await down.close();
    const r = await converse(dingtalkScript(FAKE_CLIENT_SECRET), { flags: flags(downBase) });
    expect(r.mismatches).toEqual([]);
    expect(r.result).toMatchObject({ chatApps: { dingtalk: 'unchecked' } });
    expect(r.transcript).toMatch(
      /⚠️ Could not reach 127\.0\.0\.1:\d+ to check the DingTalk credentials \(“.+”\)\. They are saved anyway/,
    );
    expect(r.transcript).toMatch(/DingTalk credentials: \(not checked\)/);
    expect((await reload()).dingtalk).toMatchObject({
      client_id: FAKE_CLIENT_ID,
      client_secret: FAKE_CLIENT_SECRET,
      api_base: downBase,
    });
  });

  it('a re-run offers the file as defaults: Enter keeps the id, the secret (never shown), the owner and the template', async () => {
    fs.mkdirSync(path.dirname(configFile()), { recursive: true });
    const old = [
      '[dingtalk]',
      'enabled = true',
      `client_id = "${FAKE_CLIENT_ID}"`,
      `client_secret = "${FAKE_CLIENT_SECRET}"`,
      'owner_staff_id = "manager4521"',
      `api_base = "${fake.apiBase}"`,
      'card_template_id = "tpl-0001.schema"',
      '',
    ];
    fs.writeFileSync(configFile(), old.join('\n'), { mode: 0o600 });
    const r = await converse(
      [
        [/^语言 /, 'en'],
        [/^Chat apps to set up: .* \[dingtalk\]: $/, ''],
        [new RegExp(`^Client ID .* \\[${FAKE_CLIENT_ID}\\]: $`), ''],
        [/^Client Secret \(formerly AppSecret; not shown while you type; Enter keeps the one in the file\): $/, ''],
        [/^owner_staff_id \(press Enter to leave it empty\) \[manager4521\]: $/, ''],
        [/^card_template_id .* \[tpl-0001\.schema\]: $/, ''],
        [/^Allowed root directories /, path.join(tmp, 'Git')],
        [/^Default working directory /, ''],
        [/^Write the config file\? /, 'y'],
      ],
      { flags: { check: true, yes: false, skipFeishu: false } },
    );
    expect(r.mismatches).toEqual([]);
    expect(r.result).toMatchObject({ chatApps: { dingtalk: 'ok' } });
    expect(r.stdout).toContain(
      'Next (DingTalk): run cc-linker start, then message the robot in a single chat in DingTalk.',
    );
    expect(secretsIn(`${r.transcript}\n${r.stdout}\n${r.stderr}`)).toEqual([]);
    expect((await reload()).dingtalk).toMatchObject({
      client_id: FAKE_CLIENT_ID,
      client_secret: FAKE_CLIENT_SECRET,
      owner_staff_id: 'manager4521',
      card_template_id: 'tpl-0001.schema',
    });
  });

  it('the secret variable can stay the source: checked, and the file gets no secret', async () => {
    env = {
      ...env,
      CC_LINKER_DINGTALK_CLIENT_ID: FAKE_CLIENT_ID,
      CC_LINKER_DINGTALK_CLIENT_SECRET: FAKE_CLIENT_SECRET,
    };
    const script = dingtalkScript(FAKE_CLIENT_SECRET);
    script[1] = [/^Chat apps to set up: .* \[dingtalk\]: $/, ''];
    script[2] = [new RegExp(`^Client ID .* \\[${FAKE_CLIENT_ID}\\]: $`), ''];
    script[3] = [/^CC_LINKER_DINGTALK_CLIENT_SECRET is set: keep using it .* \[Y\/n\]: $/, ''];
    const r = await converse(script);
    expect(r.mismatches).toEqual([]);
    expect(r.result).toMatchObject({ chatApps: { dingtalk: 'ok' } });
    expect(r.transcript).toContain('(from CC_LINKER_DINGTALK_CLIENT_SECRET, not written to the file)');
    const text = fs.readFileSync(configFile(), 'utf8');
    expect(text).toContain('client_secret = ""');
    expect(text).toContain(`client_id = "${FAKE_CLIENT_ID}"`);
    expect(secretsIn(text)).toEqual([]);
  });

  it('with answer flags on a terminal it asks only for the missing secret, and checks the pair last', async () => {
    const before = fake.tokenCalls;
    const r = await converse(
      [[/^Client Secret \(formerly AppSecret; not shown while you type\): $/, FAKE_CLIENT_SECRET]],
      {
        terminal: true,
        flags: {
          ...flags(),
          language: 'en',
          allowedRoot: [path.join(tmp, 'Git')],
          chatFlags: {
            dingtalkApiBase: fake.apiBase,
            dingtalkClientId: FAKE_CLIENT_ID,
            dingtalkOwnerStaffId: 'manager4521',
          },
        },
      },
    );
    expect(r.mismatches).toEqual([]);
    expect(r.answered).toBe(1);
    expect(r.result).toMatchObject({ chatApps: { dingtalk: 'ok' } });
    expect(fake.tokenCalls).toBe(before + 1);
    expect(secretsIn(r.transcript)).toEqual([]);
    expect((await reload()).dingtalk).toMatchObject({
      enabled: true,
      client_id: FAKE_CLIENT_ID,
      client_secret: FAKE_CLIENT_SECRET,
      owner_staff_id: 'manager4521',
    });
  });
});
