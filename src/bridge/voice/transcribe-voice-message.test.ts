import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { InboundMessage } from '../inbound-message.js';
import { silentLogger } from '../../core/logger.js';
import { toneNote } from '../../../test/fakes/voice/ogg-opus-fixture.js';
import { transcribeVoiceMessage, type TranscribeVoiceMessageOptions } from './transcribe-voice-message.js';

const message = (voice: InboundMessage['voice']): InboundMessage => ({
  id: 'feishu:om_1',
  channel: 'feishu',
  platformMessageId: 'om_1',
  userId: 'ou_1',
  chatId: 'oc_1',
  chatType: 'p2p',
  text: '',
  images: [],
  voice,
  receivedAt: '2026-12-02T10:00:00.000Z',
});

/** Options whose download serves `bytes` and whose speech service answers `heard`, counting both. */
function options(bytes: Buffer, over: Partial<TranscribeVoiceMessageOptions> = {}) {
  const counts = { downloads: 0, pieces: 0 };
  const logged: string[] = [];
  const o: TranscribeVoiceMessageOptions = {
    download: async () => {
      counts.downloads += 1;
      return { stream: Readable.from([bytes]) };
    },
    stt: {
      transcribe: async () => {
        counts.pieces += 1;
        return 'heard';
      },
    },
    voice: { enabled: true, max_seconds: 300 },
    maxBytes: 1_000_000,
    lang: 'en',
    logger: { ...silentLogger, warn: (msg: string) => void logged.push(msg) },
    ...over,
  };
  return { o, counts, logged };
}

describe('transcribeVoiceMessage (Feishu prepare)', () => {
  it('keeps the transcript on the message; a message already transcribed is returned untouched', async () => {
    const { o, counts } = options(toneNote(440, 1));
    const done = await transcribeVoiceMessage(message({ key: 'file_1', durationMs: 1000 }), o);
    expect(done.voice).toEqual({ key: 'file_1', durationMs: 1000, transcript: 'heard' });
    expect(await transcribeVoiceMessage(done, o)).toBe(done);
    const failed = message({ key: 'file_1', error: 'earlier failure' });
    expect(await transcribeVoiceMessage(failed, o)).toBe(failed);
    expect(counts).toEqual({ downloads: 1, pieces: 1 });
  });

  it('voice off: says so, downloads nothing', async () => {
    const { o, counts } = options(toneNote(440, 1), { voice: { enabled: false, max_seconds: 300 } });
    const done = await transcribeVoiceMessage(message({ key: 'file_1' }), o);
    expect(done.voice?.error).toBe('voice handling is off (voice.enabled = false)');
    expect(counts.downloads).toBe(0);
  });

  it('a download over files.max_size_bytes is refused with the limit and not decoded', async () => {
    const { o, counts } = options(toneNote(440, 1), { maxBytes: 100 });
    const done = await transcribeVoiceMessage(message({ key: 'file_1' }), o);
    expect(done.voice?.error).toBe('larger than the 100 B limit, not kept');
    expect(counts.pieces).toBe(0);
  });

  it('an unexpected failure becomes a generic reason for the user and a warning in the log', async () => {
    const { o, logged } = options(toneNote(440, 1), {
      download: async () => {
        throw new Error('socket hang up');
      },
    });
    const done = await transcribeVoiceMessage(message({ key: 'file_1' }), o);
    expect(done.voice?.error).toBe('the speech recognition service failed');
    expect(logged.join('\n')).toContain('voice transcription failed');
  });
});
