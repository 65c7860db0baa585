// The whole system (`assembleDaemon`) with Telegram and `voice.service = "openai"`: a Telegram voice
// note goes through the daemon's choice of speech-to-text (the real `openai` client against a local
// transcription endpoint), and the REAL bundled Claude Code is asked the transcript.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import { startFakeTelegram, type FakeTelegram } from '../fakes/fake-telegram/fake-telegram-server.js';
import {
  startFakeTranscription,
  type FakeTranscription,
} from '../fakes/fake-transcription/fake-transcription-server.js';
import { toneNote } from '../fakes/voice/ogg-opus-fixture.js';
import { CASE_TIMEOUT_MS, CLAUDE_BIN, showLogOnFailure, startSystem, type System } from './system-harness.js';
import { until } from './telegram-harness.js';

const OWNER_ID = 5151;
const KEY = 'sk-system-voice-0123456789';

describe.skipIf(!CLAUDE_BIN)('a Telegram voice note through the whole system (voice.service = "openai")', () => {
  let s: System;
  let tg: FakeTelegram;
  let stt: FakeTranscription;

  beforeAll(async () => {
    tg = await startFakeTelegram();
    stt = await startFakeTranscription(KEY);
    s = await startSystem('sdk', {
      tweak: (c) => {
        c.telegram.enabled = true;
        c.telegram.bot_token = tg.token;
        c.telegram.api_root = tg.apiRoot;
        c.telegram.owner_user_id = String(OWNER_ID);
        c.stream.throttle_ms = 100;
        c.voice.service = 'openai';
        c.voice.api_base = stt.baseURL;
        c.voice.api_key = KEY;
      },
    });
  }, CASE_TIMEOUT_MS);
  afterAll(async () => {
    await s?.stop();
    await tg?.close();
    await stt?.close();
  }, CASE_TIMEOUT_MS);

  it(
    'the transcript is the prompt, the answer quotes it with 🎤, and the key is in no log',
    async () => {
      showLogOnFailure(() => s);
      const cwd = s.sys.project('tg-voice');
      const first = tg.pushMessage(OWNER_ID, `/new ${cwd} -- echo: listening`);
      const id = (first.message as { message_id: number }).message_id;
      await until(
        () => tg.messages.some((m) => m.reply_to === id && m.visible.includes('listening')),
        'the session',
        45_000,
      );

      tg.files.set('voice/sys', toneNote(440, 1.5));
      tg.pushMessage(OWNER_ID, '', {
        text: undefined,
        voice: { file_id: 'voice/sys', file_unique_id: 'u-sys', duration: 2, mime_type: 'audio/ogg' },
      });
      const prompt = '[voice message, transcribed] tone 440 Hz';
      await until(
        () => tg.messages.some((m) => m.visible.includes('🎤 tone 440 Hz') && m.visible.includes(`ok: ${prompt}`)),
        'the answer to the voice note',
        45_000,
      );
      expect(s.anth.messageRequests().some((r) => r.scriptRequest?.lastUserText === prompt)).toBe(true);
      expect(stt.requests).toEqual([expect.objectContaining({ model: 'whisper-1', text: 'tone 440 Hz' })]);
      expect(fs.readFileSync(s.logFile, 'utf8')).not.toContain(KEY);
    },
    CASE_TIMEOUT_MS,
  );
});
