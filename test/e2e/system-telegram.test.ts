// The whole system (`assembleDaemon`, what `cc-linker start` runs) with Telegram enabled next to
// Feishu: the REAL grammY against the fake Bot API, the REAL Feishu SDK against the fake Feishu
// server, the REAL bundled Claude Code against the fake Anthropic API. Assertions are on what the
// user sees in the Telegram chat (the fake's records) and on what Claude was asked.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { bridgeMessages } from '../../src/bridge/bridge-messages.js';
import { UserMapping } from '../../src/bridge/mapping/user-mapping.js';
import type { SentMessage } from '../fakes/fake-feishu/fake-feishu-server.js';
import { startFakeTelegram, type FakeMessage, type FakeTelegram } from '../fakes/fake-telegram/fake-telegram-server.js';
import {
  CASE_TIMEOUT_MS,
  CLAUDE_BIN,
  repliesTo,
  sessionFiles,
  showLogOnFailure,
  startSystem,
  type System,
} from './system-harness.js';
import { until } from './telegram-harness.js';
import { finalAnswer, replies } from './telegram-replies.js';

const OWNER_ID = 5150;
const CLI = path.resolve(__dirname, '..', '..', 'dist', 'cli', 'launcher', 'cc-linker.js');
const STRANGER_ID = 6160;
const en = bridgeMessages('en');

describe.skipIf(!CLAUDE_BIN)('the whole system over Telegram (real grammY, real Claude Code), next to Feishu', () => {
  let s: System;
  let tg: FakeTelegram;

  beforeAll(async () => {
    tg = await startFakeTelegram();
    s = await startSystem('sdk', {
      tweak: (c) => {
        c.telegram.enabled = true;
        c.telegram.bot_token = tg.token;
        c.telegram.api_root = tg.apiRoot;
        c.telegram.owner_user_id = String(OWNER_ID);
        c.stream.throttle_ms = 100;
      },
    });
    expect(s.runtime.telegram).toBe('started');
  }, CASE_TIMEOUT_MS);
  afterAll(async () => {
    await s?.stop();
    await tg?.close();
  }, CASE_TIMEOUT_MS);

  it(
    'new session, then continue: each answer streams into one Telegram message in the same session',
    async () => {
      showLogOnFailure(() => s);
      onTestFailed(() => console.error(JSON.stringify(tg.messages, null, 1)));
      const cwd = s.sys.project('tg-new');
      const first = tg.pushMessage(OWNER_ID, `/new ${cwd} -- echo: hello from telegram`);
      const a = await finalAnswer(tg, first, 'hello from telegram');
      expect(a.edits).toBeGreaterThan(0);
      expect(replies(tg, first).filter((m) => m.visible.includes('hello from telegram'))).toHaveLength(1);
      const [session] = sessionFiles(s.sys, cwd);
      expect(session).toBeDefined();
      expect(await new UserMapping(s.sys.paths.userMappingFile).get(String(OWNER_ID))).toMatchObject({
        type: 'session',
        sessionUuid: session,
      });

      const second = tg.pushMessage(OWNER_ID, 'echo: and again');
      await finalAnswer(tg, second, 'and again');
      expect(sessionFiles(s.sys, cwd)).toEqual([session]);
      const req = s.anth.messageRequests().find((r) => r.scriptRequest?.lastUserText === 'echo: and again');
      expect(JSON.stringify(req?.scriptRequest?.messages)).toContain('hello from telegram');

      // Telegram re-delivers the same update (not confirmed before a crash): dropped, not run twice.
      tg.redeliver(second);
      await until(() => tg.pending() === 0, 'the re-delivery confirmed');
      await s.runtime.bridge.whenIdle();
      expect(s.runsOf('echo: and again')).toBe(1);
      expect(replies(tg, second).filter((m) => m.visible.includes('and again'))).toHaveLength(1);
    },
    CASE_TIMEOUT_MS,
  );

  it.skipIf(!fs.existsSync(CLI))(
    '`cc-linker status` (the built CLI, asked while the daemon runs) lists each chat channel and the queue',
    async () => {
      // Asynchronously: the daemon answering runs in this very process.
      const run = (...args: string[]) =>
        promisify(execFile)(process.execPath, [CLI, ...args], {
          env: { ...s.sys.env, CC_LINKER_LANGUAGE: 'en' },
          timeout: 30_000,
        });
      const json = JSON.parse((await run('status', '--json')).stdout) as { daemon: Record<string, unknown> };
      expect(json.daemon).toMatchObject({ state: 'running', pid: process.pid, failed: 0 });
      expect(json.daemon.channels).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ id: 'telegram', connected: true }),
          expect.objectContaining({ id: 'feishu', connected: true }),
        ]),
      );
      const text = (await run('status')).stdout;
      expect(text).toContain(`Daemon (cc-linker start): running (pid ${process.pid})`);
      expect(text).toMatch(/telegram\s+✓ @\w+/);
      expect(text).toMatch(/Queue:\s+\d+ waiting/);
      expect(text).not.toContain(tg.token);
    },
    CASE_TIMEOUT_MS,
  );

  it(
    'approval: Allow on the inline keyboard runs the tool, the click is answered and the keyboard removed',
    async () => {
      showLogOnFailure(() => s);
      const cwd = s.sys.project('tg-perm');
      const update = tg.pushMessage(OWNER_ID, `/new ${cwd} -- tool: Bash touch x`);
      const prompt = () =>
        tg.chat(OWNER_ID).find((m) => m.reply_markup?.inline_keyboard.flat().some((b) => b.text === 'Allow'));
      await until(() => prompt() !== undefined, 'the permission prompt', 45_000);
      const card = prompt() as FakeMessage;
      expect(card.visible).toContain('touch x');
      const labels = card.reply_markup?.inline_keyboard.flat().map((b) => b.text);
      expect(labels).toEqual(['Allow', 'Deny', 'Always allow']);
      expect(fs.existsSync(path.join(cwd, 'x'))).toBe(false);
      const allow = card.reply_markup?.inline_keyboard.flat().find((b) => b.text === 'Allow');
      // A stranger's click first: answered, changes nothing.
      const foreign = tg.pushCallback(STRANGER_ID, card, allow?.callback_data ?? '');
      await until(() => tg.answers.has(foreign.callback_query.id), 'the stranger answered');
      expect(fs.existsSync(path.join(cwd, 'x'))).toBe(false);
      const click = tg.pushCallback(OWNER_ID, card, allow?.callback_data ?? '');
      await until(() => tg.answers.has(click.callback_query.id), 'the click answered');
      expect(tg.answers.get(click.callback_query.id)).toBe('Allowed');
      await finalAnswer(tg, update, 'tool-result: ok');
      expect(fs.existsSync(path.join(cwd, 'x'))).toBe(true);
      await until(() => card.reply_markup === undefined, 'the keyboard removed');
    },
    CASE_TIMEOUT_MS,
  );

  it(
    'AskUserQuestion: the options are an inline keyboard; clicking "blue" answers Claude',
    async () => {
      showLogOnFailure(() => s);
      const cwd = s.sys.project('tg-ask');
      const update = tg.pushMessage(OWNER_ID, `/new ${cwd} -- ask: Which color? | red | blue`);
      const prompt = () =>
        tg.chat(OWNER_ID).find((m) => m.reply_markup?.inline_keyboard.flat().some((b) => b.text === 'blue'));
      await until(() => prompt() !== undefined, 'the question', 45_000);
      const card = prompt() as FakeMessage;
      expect(card.visible).toContain('Which color?');
      const blue = card.reply_markup?.inline_keyboard.flat().find((b) => b.text === 'blue');
      const click = tg.pushCallback(OWNER_ID, card, blue?.callback_data ?? '');
      await until(() => tg.answers.has(click.callback_query.id), 'the click answered');
      await finalAnswer(tg, update, 'answered: blue');
      const answered = s.anth
        .messageRequests()
        .flatMap((r) => r.scriptRequest?.lastUserToolResults ?? [])
        .find((t) => t.toolName === 'AskUserQuestion');
      expect(answered?.content).toContain('"Which color?"="blue"');
    },
    CASE_TIMEOUT_MS,
  );

  it(
    'a stranger gets the fixed refusal and reaches nothing; Feishu keeps working beside Telegram',
    async () => {
      showLogOnFailure(() => s);
      const before = s.anth.requests.length;
      const update = tg.pushMessage(STRANGER_ID, 'echo: let me in');
      await until(() => tg.chat(STRANGER_ID).length === 1, 'the refusal');
      expect(tg.chat(STRANGER_ID)[0]?.visible).toBe(en('notOwner'));
      expect(replies(tg, update)).toHaveLength(1);

      const { messageId } = await s.send('what does this project do?');
      await s.fake.waitFor(() => repliesTo(s.fake, messageId).length === 1);
      await s.runtime.bridge.whenIdle();
      expect(s.anth.requests.length).toBe(before);
      const status = await s.runtime.bridge.status();
      expect(status.channels.find((c) => c.id === 'telegram')).toMatchObject({ connected: true });
      expect(fs.readFileSync(s.logFile, 'utf8')).not.toContain(tg.token);
    },
    CASE_TIMEOUT_MS,
  );
});

describe.skipIf(!CLAUDE_BIN)('a Telegram outage never stops the rest', () => {
  it(
    'with the Bot API unreachable the daemon starts, Feishu answers, and /status names the Telegram error',
    async () => {
      const dead = await startFakeTelegram();
      const apiRoot = dead.apiRoot;
      await dead.close(); // nothing listens there any more
      const s = await startSystem('sdk', {
        tweak: (c) => {
          c.telegram.enabled = true;
          c.telegram.bot_token = dead.token;
          c.telegram.api_root = apiRoot;
          c.telegram.owner_user_id = String(OWNER_ID);
        },
      });
      try {
        showLogOnFailure(() => s);
        expect(s.runtime.telegram).toBe('started');
        const telegramState = async () =>
          (await s.runtime.bridge.status()).channels.find((c) => c.id === 'telegram')?.detail ?? '';
        for (let i = 0; i < 200 && !(await telegramState()).startsWith('error'); i += 1)
          await new Promise((r) => setTimeout(r, 50));
        const { messageId } = await s.send('/status');
        await s.fake.waitFor(() => repliesTo(s.fake, messageId).length === 1);
        const text = s.fake.textOf(repliesTo(s.fake, messageId)[0] as SentMessage);
        expect(text).toMatch(/telegram: disconnected .*error: .*getMe.*network request failed/);
        expect(text).not.toContain(dead.token);
        const status = await s.runtime.bridge.status();
        expect(status.channels.find((c) => c.id === 'feishu')).toMatchObject({ connected: true });
        expect(status.channels.find((c) => c.id === 'telegram')).toMatchObject({ connected: false });
      } finally {
        await s.stop();
      }
    },
    CASE_TIMEOUT_MS,
  );
});
