// The whole system (`assembleDaemon`) with Telegram in webhook mode: the REAL grammY registers the
// webhook with the fake Bot API, which POSTs each update (secret header) through its "reverse
// proxy" route to the daemon's own listener; the REAL bundled Claude Code answers against the
// fake Anthropic API. Assertions are on what the user sees in the Telegram chat.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UserMapping } from '../../src/bridge/mapping/user-mapping.js';
import { startFakeTelegram, type FakeMessage, type FakeTelegram } from '../fakes/fake-telegram/fake-telegram-server.js';
import { freePort } from '../helpers/free-port.js';
import {
  CASE_TIMEOUT_MS,
  CLAUDE_BIN,
  sessionFiles,
  showLogOnFailure,
  startSystem,
  type System,
} from './system-harness.js';
import { until } from './telegram-harness.js';
import { finalAnswer } from './telegram-replies.js';

const OWNER_ID = 5151;
const PUBLIC = 'https://tg.example.test';

describe.skipIf(!CLAUDE_BIN)('the whole system over a Telegram webhook (real grammY, real Claude Code)', () => {
  let s: System;
  let tg: FakeTelegram;

  beforeAll(async () => {
    tg = await startFakeTelegram();
    const port = await freePort();
    tg.webhook.route(PUBLIC, `http://127.0.0.1:${port}`);
    s = await startSystem('sdk', {
      tweak: (c) => {
        c.telegram.enabled = true;
        c.telegram.bot_token = tg.token;
        c.telegram.api_root = tg.apiRoot;
        c.telegram.owner_user_id = String(OWNER_ID);
        c.telegram.webhook_url = `${PUBLIC}/cc-linker/telegram`;
        c.telegram.webhook_listen = `127.0.0.1:${port}`;
        c.stream.throttle_ms = 100;
      },
    });
    expect(s.runtime.telegram).toBe('started');
    await until(() => tg.webhook.url !== '', 'the webhook registered', 20_000);
  }, CASE_TIMEOUT_MS);
  afterAll(async () => {
    await s?.stop();
    await tg?.close();
  }, CASE_TIMEOUT_MS);

  it(
    'a new session answers through the webhook; an Allow click runs the tool; the secret stays private',
    async () => {
      showLogOnFailure(() => s);
      const cwd = s.sys.project('tg-hook');
      const first = tg.pushMessage(OWNER_ID, `/new ${cwd} -- echo: hello by webhook`);
      await finalAnswer(tg, first, 'hello by webhook');
      const [session] = sessionFiles(s.sys, cwd);
      expect(await new UserMapping(s.sys.paths.userMappingFile).get(String(OWNER_ID))).toMatchObject({
        type: 'session',
        sessionUuid: session,
      });

      const update = tg.pushMessage(OWNER_ID, 'tool: Bash touch y');
      const prompt = () =>
        tg.chat(OWNER_ID).find((m) => m.reply_markup?.inline_keyboard.flat().some((b) => b.text === 'Allow'));
      await until(() => prompt() !== undefined, 'the permission prompt', 45_000);
      const card = prompt() as FakeMessage;
      const allow = card.reply_markup?.inline_keyboard.flat().find((b) => b.text === 'Allow');
      const click = tg.pushCallback(OWNER_ID, card, allow?.callback_data ?? '');
      await until(() => tg.answers.has(click.callback_query.id), 'the click answered');
      expect(tg.answers.get(click.callback_query.id)).toBe('Allowed');
      await finalAnswer(tg, update, 'tool-result: ok');
      expect(fs.existsSync(path.join(cwd, 'y'))).toBe(true);

      // Every update came by webhook, each confirmed by one 200; polling never ran.
      expect(tg.callsOf('getUpdates')).toHaveLength(0);
      expect(tg.webhook.posts.every((p) => p.status === 200)).toBe(true);
      expect(tg.webhook.posts.map((p) => p.update_id)).toEqual([first.update_id, update.update_id, click.update_id]);
      const status = await s.runtime.bridge.status();
      const telegram = status.channels.find((c) => c.id === 'telegram');
      expect(telegram).toMatchObject({ connected: true, detail: expect.stringContaining('webhook tg.example.test') });
      const secretFile = path.join(s.sys.paths.runtimeDir, 'telegram-webhook-secret');
      expect(fs.statSync(secretFile).mode & 0o777).toBe(0o600);
      expect(fs.readFileSync(secretFile, 'utf8').trim()).toBe(tg.webhook.secret);
      const log = fs.readFileSync(s.logFile, 'utf8');
      expect(log).not.toContain(tg.webhook.secret);
      expect(JSON.stringify(status)).not.toContain(tg.webhook.secret);
    },
    CASE_TIMEOUT_MS,
  );
});
