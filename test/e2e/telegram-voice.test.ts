// Telegram voice notes (real grammY against the fake Bot API): the Ogg/Opus note is fetched with
// getFile, decoded, and transcribed by the OpenAI-compatible endpoint (the real `openai` client
// against a local fake) — or the user is told why not, with nothing sent anywhere.
import { afterEach, describe, expect, it } from 'vitest';
import { createOpenAISpeechToText } from '../../src/speech/openai-speech-to-text.js';
import { startFakeTranscription } from '../fakes/fake-transcription/fake-transcription-server.js';
import { toneNote } from '../fakes/voice/ogg-opus-fixture.js';
import { OWNER_ID, TelegramHarness, until } from './telegram-harness.js';

const KEY = 'sk-telegram-voice-0123456789';
let h: TelegramHarness;
afterEach(async () => {
  await h.cleanup();
});

/** A voice-note update's `voice` field, as Telegram sends it. */
const voiceNote = (fileId: string, seconds: number) => ({
  text: undefined,
  voice: { file_id: fileId, file_unique_id: `u-${fileId}`, duration: seconds, mime_type: 'audio/ogg' },
});

describe('Telegram voice notes', () => {
  it('transcribes a voice note with the OpenAI-compatible endpoint: the text is what it heard', async () => {
    h = new TelegramHarness();
    const fake = await h.fake();
    const stt = await startFakeTranscription(KEY);
    try {
      fake.files.set('voice/1', toneNote(440, 1.5));
      const speechToText = createOpenAISpeechToText({
        baseURL: stt.baseURL,
        apiKey: KEY,
        model: 'whisper-1',
        lang: 'en',
      });
      const { channel, bridge } = await h.channel(fake, { speechToText });
      fake.pushMessage(OWNER_ID, '', voiceNote('voice/1', 2));
      await until(() => bridge.accepted.length === 1, 'the voice note accepted');
      const accepted = bridge.accepted[0]!;
      expect(accepted.unsupportedType).toBeUndefined();
      expect(accepted.voice).toEqual({ key: 'voice/1', durationMs: 2000 });
      const prepared = await channel.prepare(accepted);
      expect(prepared.voice?.transcript).toBe('tone 440 Hz');
      expect(stt.requests).toEqual([expect.objectContaining({ model: 'whisper-1', text: 'tone 440 Hz' })]);
      expect(stt.requests[0]?.seconds).toBeCloseTo(1.5, 1);
      // Prepared once: a retried record keeps its transcript and pays nothing again.
      expect(await channel.prepare(prepared)).toBe(prepared);
      expect(stt.requests).toHaveLength(1);
      expect(h.logs.join('')).not.toContain(KEY);
    } finally {
      await stt.close();
    }
  });

  it('without a speech service, says how to set one up; nothing is downloaded', async () => {
    h = new TelegramHarness();
    const fake = await h.fake();
    fake.files.set('voice/2', toneNote(440, 1));
    const { channel, bridge } = await h.channel(fake);
    fake.pushMessage(OWNER_ID, '', voiceNote('voice/2', 1));
    await until(() => bridge.accepted.length === 1, 'the voice note accepted');
    const prepared = await channel.prepare(bridge.accepted[0]!);
    expect(prepared.voice?.transcript).toBeUndefined();
    expect(prepared.voice?.error).toContain('needs a speech-to-text service');
    expect(prepared.voice?.error).toContain('[voice]');
    expect(fake.callsOf('getFile')).toHaveLength(0);
  });

  it('refuses a note longer than voice.max_seconds by its announced length, before fetching it', async () => {
    h = new TelegramHarness();
    const fake = await h.fake();
    const stt = await startFakeTranscription(KEY);
    try {
      fake.files.set('voice/3', toneNote(440, 1));
      const speechToText = createOpenAISpeechToText({
        baseURL: stt.baseURL,
        apiKey: KEY,
        model: 'whisper-1',
        lang: 'en',
      });
      const { channel, bridge } = await h.channel(fake, { speechToText, voice: { enabled: true, max_seconds: 30 } });
      fake.pushMessage(OWNER_ID, '', voiceNote('voice/3', 95));
      await until(() => bridge.accepted.length === 1, 'the voice note accepted');
      const prepared = await channel.prepare(bridge.accepted[0]!);
      expect(prepared.voice?.error).toBe('the voice message is too long (95 s); the limit is 30 s (voice.max_seconds)');
      expect(fake.callsOf('getFile')).toHaveLength(0);
      expect(stt.requests).toHaveLength(0);
    } finally {
      await stt.close();
    }
  });

  it('a refused key reaches the user as a clear sentence, never the key', async () => {
    h = new TelegramHarness();
    const fake = await h.fake();
    const stt = await startFakeTranscription(KEY);
    try {
      fake.files.set('voice/4', toneNote(440, 1));
      const speechToText = createOpenAISpeechToText({
        baseURL: stt.baseURL,
        apiKey: 'sk-not-the-right-key-42',
        model: 'whisper-1',
        lang: 'en',
      });
      const { channel, bridge } = await h.channel(fake, { speechToText });
      fake.pushMessage(OWNER_ID, '', voiceNote('voice/4', 1));
      await until(() => bridge.accepted.length === 1, 'the voice note accepted');
      const prepared = await channel.prepare(bridge.accepted[0]!);
      expect(prepared.voice?.error).toContain('rejected the API key (HTTP 401); check voice.api_key');
      expect(JSON.stringify(prepared)).not.toContain('sk-not');
      expect(h.logs.join('')).not.toContain('sk-not-the-right-key-42');
    } finally {
      await stt.close();
    }
  });
});
