import { describe, expect, it, vi } from 'vitest';
import { concat, encodeOggOpus, tone, toneNote } from '../../../test/fakes/voice/ogg-opus-fixture.js';
import { dominantHz, rms } from '../../../test/fakes/voice/tone-analysis.js';
import { decodeVoice } from './decode-voice.js';
import { transcribeVoice } from './transcribe-voice.js';
import { VoiceError } from './voice-error.js';

const en = { maxSeconds: 300, lang: 'en' as const };

describe('decodeVoice', () => {
  it('a 1 s Ogg/Opus 440 Hz tone → 16 kHz mono Int16 with the same pitch and loudness', async () => {
    const pcm = await decodeVoice(toneNote(440, 1, 0.5), en);
    // 1 s at 48 kHz less the 312-sample pre-skip, ÷ 3.
    expect(pcm.length).toBe(Math.floor((48_000 - 312) / 3));
    expect(dominantHz(pcm, 16_000)).toBe(440);
    expect(rms(pcm.subarray(800, -800)) / 32767).toBeGreaterThan(0.3);
    expect(rms(pcm.subarray(800, -800)) / 32767).toBeLessThan(0.42);
  });

  it('bytes that are not Ogg are refused before any decoding, with a clear message', async () => {
    const err = await decodeVoice(Buffer.from('ID3\u0003 an mp3 perhaps'), en).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(VoiceError);
    expect(err).toMatchObject({ code: 'VOICE_NOT_OGG', kind: 'notOgg' });
    expect((err as VoiceError).localize('zh')).toContain('Ogg/Opus');
    expect((err as VoiceError).userMessage).toBe('the voice message could not be read: it is not Ogg/Opus audio');
  });

  it('garbage behind an OggS magic is undecodable', async () => {
    const bytes = Buffer.concat([Buffer.from('OggS'), Buffer.alloc(2000, 0x5a)]);
    const err = await decodeVoice(bytes, en).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'VOICE_UNDECODABLE' });
  });

  it('a recording over voice.max_seconds is refused, naming both lengths', async () => {
    const err = await decodeVoice(toneNote(440, 5), { maxSeconds: 3, lang: 'zh' }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'VOICE_TOO_LONG' });
    expect((err as VoiceError).userMessage).toBe('语音太长（5 秒），上限 3 秒（voice.max_seconds）');
    expect((err as VoiceError).localize('en')).toContain('5 s');
  });

  it('the WASM decoder is freed whether decoding works or not', async () => {
    const mod = await import('ogg-opus-decoder');
    const free = vi.spyOn(mod.OggOpusDecoder.prototype, 'free');
    try {
      await decodeVoice(toneNote(300, 0.2), en);
      await decodeVoice(Buffer.concat([Buffer.from('OggS'), Buffer.alloc(500, 1)]), en).catch(() => undefined);
      expect(free).toHaveBeenCalledTimes(2);
    } finally {
      free.mockRestore();
    }
  });
});

describe('transcribeVoice', () => {
  it('sends each piece in order and joins the texts, skipping silent ones', async () => {
    const note = encodeOggOpus(concat(tone(500, 0.5), tone(0, 0.5)));
    const seen: number[] = [];
    const text = await transcribeVoice(
      note,
      {
        transcribe: async (pcm) => {
          seen.push(pcm.length);
          return ' hello ';
        },
      },
      en,
    );
    expect(text).toBe('hello');
    expect(seen).toHaveLength(1);
    const silent = await transcribeVoice(note, { transcribe: async () => '  ' }, en);
    expect(silent).toBe('');
  });
});
