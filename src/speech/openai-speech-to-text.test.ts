import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startFakeTranscription,
  type FakeTranscription,
} from '../../test/fakes/fake-transcription/fake-transcription-server.js';
import { mp4Clip, webmClip } from '../../test/fakes/voice/audio-clip-fixture.js';
import { tone } from '../../test/fakes/voice/ogg-opus-fixture.js';
import { createOpenAISpeechToText } from './openai-speech-to-text.js';
import { SpeechServiceError } from './speech-service-error.js';

const KEY = 'sk-voice-test-0123456789abcdef';

/** `seconds` of a `hz` tone as 16 kHz Int16 PCM. */
function pcmTone(hz: number, seconds: number): Int16Array {
  return Int16Array.from(tone(hz, seconds), (v) => Math.round(v * 32767));
}

describe('createOpenAISpeechToText (real openai client ↔ fake endpoint)', () => {
  let fake: FakeTranscription;
  beforeAll(async () => {
    fake = await startFakeTranscription(KEY);
  });
  afterAll(() => fake.close());

  const stt = (over: Partial<Parameters<typeof createOpenAISpeechToText>[0]> = {}) =>
    createOpenAISpeechToText({ baseURL: fake.baseURL, apiKey: KEY, model: 'whisper-1', lang: 'en', ...over });

  it('sends the piece as a 16 kHz mono WAV and returns the text heard', async () => {
    const before = fake.requests.length;
    await expect(stt().transcribe(pcmTone(440, 1))).resolves.toBe('tone 440 Hz');
    expect(fake.requests.slice(before)).toEqual([
      expect.objectContaining({ model: 'whisper-1', filename: 'voice.wav', seconds: 1, text: 'tone 440 Hz' }),
    ]);
    await expect(stt().transcribe(new Int16Array(16_000))).resolves.toBe('');
  });

  it('says the key was rejected, without quoting the server (it echoes part of the key)', async () => {
    const err = await stt({ apiKey: 'sk-wrong-key-9876543210' })
      .transcribe(pcmTone(440, 1))
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SpeechServiceError);
    expect((err as SpeechServiceError).kind).toBe('auth');
    expect((err as Error).message).toContain('voice.api_key');
    expect((err as Error).message).not.toContain('sk-wro');
    expect(String((err as Error).cause)).not.toContain('sk-wrong-key-9876543210');
    expect((err as SpeechServiceError).localize('zh')).toContain('拒绝了 API key');
  });

  it('names a model the server does not have, and retries a 429 once', async () => {
    const missing = await stt({ model: 'whisper-9' })
      .transcribe(pcmTone(440, 1))
      .catch((e: unknown) => e);
    expect((missing as SpeechServiceError).kind).toBe('notFound');
    expect((missing as Error).message).toContain('whisper-9');
    fake.failNext(429);
    await expect(stt().transcribe(pcmTone(880, 1))).resolves.toBe('tone 880 Hz');
    fake.failNext(500, 2);
    const failed = await stt()
      .transcribe(pcmTone(880, 1))
      .catch((e: unknown) => e);
    expect((failed as SpeechServiceError).kind).toBe('server');
  });

  it('says the endpoint cannot be reached', async () => {
    const err = await stt({ baseURL: 'http://127.0.0.1:9/v1' })
      .transcribe(pcmTone(440, 1))
      .catch((e: unknown) => e);
    expect((err as SpeechServiceError).kind).toBe('network');
    expect((err as Error).message).toContain('http://127.0.0.1:9/v1');
  });
});

describe('createOpenAISpeechToText.transcribeFile (a clip sent whole)', () => {
  let fake: FakeTranscription;
  beforeAll(async () => {
    fake = await startFakeTranscription(KEY);
  });
  afterAll(() => fake.close());

  const stt = (apiKey = KEY) =>
    createOpenAISpeechToText({ baseURL: fake.baseURL, apiKey, model: 'whisper-1', lang: 'en' });

  it('uploads a webm and an mp4 clip whole, under the name given, and returns the text heard', async () => {
    const service = stt();
    const webm = webmClip(700);
    await expect(service.transcribeFile?.(webm, { mime: 'audio/webm', filename: 'voice.webm' })).resolves.toBe(
      'webm clip, 700 bytes',
    );
    await expect(service.transcribeFile?.(mp4Clip(512), { mime: 'audio/mp4', filename: 'voice.mp4' })).resolves.toBe(
      'mp4 clip, 512 bytes',
    );
    expect(fake.requests.slice(-2)).toEqual([
      expect.objectContaining({ model: 'whisper-1', filename: 'voice.webm', bytes: 700 }),
      expect.objectContaining({ model: 'whisper-1', filename: 'voice.mp4', bytes: 512 }),
    ]);
  });

  it('a clip under the wrong extension is refused by the endpoint, with its reason', async () => {
    const err = await stt()
      .transcribeFile?.(webmClip(), { mime: 'audio/mp4', filename: 'voice.mp4' })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SpeechServiceError);
    expect((err as SpeechServiceError).kind).toBe('refused');
    expect((err as Error).message).toContain('Invalid file format');
  });

  it('a refused key says so, never the key', async () => {
    const err = await stt('sk-wrong-clip-key-555')
      .transcribeFile?.(webmClip(), { mime: 'audio/webm', filename: 'voice.webm' })
      .catch((e: unknown) => e);
    expect((err as SpeechServiceError).kind).toBe('auth');
    expect((err as Error).message).toContain('voice.api_key');
    expect((err as Error).message).not.toContain('sk-wro');
    expect(String((err as Error).cause)).not.toContain('sk-wrong-clip-key-555');
  });
});
