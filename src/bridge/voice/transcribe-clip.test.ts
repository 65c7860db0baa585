import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { InboundMessage, InboundVoice } from '../inbound-message.js';
import { silentLogger } from '../../core/logger.js';
import { mp4Clip, webmClip } from '../../../test/fakes/voice/audio-clip-fixture.js';
import { toneNote } from '../../../test/fakes/voice/ogg-opus-fixture.js';
import type { CardReply } from '../reply-model.js';
import { keepClipAsFile } from './keep-clip-as-file.js';
import { sniffAudio } from './sniff-audio.js';
import type { SpeechFile, SpeechToText } from './speech-to-text.js';
import { transcribeVoiceMessage, type TranscribeVoiceMessageOptions } from './transcribe-voice-message.js';
import { voiceRefusal, withHeardQuote } from './voice-turn.js';

const message = (voice: InboundVoice, over: Partial<InboundMessage> = {}): InboundMessage => ({
  id: 'slack:D1:1.000100',
  channel: 'slack',
  platformMessageId: 'D1:1.000100',
  userId: 'U1',
  chatId: 'D1',
  chatType: 'p2p',
  text: '',
  images: [],
  voice,
  receivedAt: '2026-12-03T10:00:00.000Z',
  ...over,
});

const clip = (over: Partial<InboundVoice> = {}): InboundVoice => ({
  key: 'https://files.slack.com/clip',
  durationMs: 3000,
  clip: { name: 'audio_message.webm', size: 600 },
  ...over,
});

/** A speech service that takes files (the endpoint's shape) unless `pcmOnly` (Feishu's shape). */
function service(pcmOnly = false) {
  const sent: SpeechFile[] = [];
  const stt: SpeechToText = {
    transcribe: async () => 'pcm heard',
    ...(pcmOnly
      ? {}
      : {
          transcribeFile: async (bytes: Uint8Array, file: SpeechFile) => {
            sent.push(file);
            return ` heard ${bytes.length} bytes `;
          },
        }),
  };
  return { stt, sent };
}

function options(bytes: Buffer, stt: SpeechToText | undefined, over: Partial<TranscribeVoiceMessageOptions> = {}) {
  const counts = { downloads: 0 };
  const o: TranscribeVoiceMessageOptions = {
    download: async () => {
      counts.downloads += 1;
      return { stream: Readable.from([bytes]), contentLength: bytes.length };
    },
    stt,
    voice: { enabled: true, max_seconds: 300 },
    maxBytes: 1_000_000,
    lang: 'en',
    logger: silentLogger,
    ...over,
  };
  return { o, counts };
}

describe('sniffAudio', () => {
  it('tells containers by their bytes, not their names', () => {
    expect(sniffAudio(webmClip())).toEqual({ mime: 'audio/webm', extension: 'webm' });
    expect(sniffAudio(mp4Clip())).toEqual({ mime: 'audio/mp4', extension: 'mp4' });
    expect(sniffAudio(toneNote(440, 0.2))).toEqual({ mime: 'audio/ogg', extension: 'ogg' });
    expect(sniffAudio(Buffer.from('ID3\x04rest'))?.extension).toBe('mp3');
    expect(sniffAudio(Buffer.from('%PDF-1.7'))).toBeUndefined();
    expect(sniffAudio(new Uint8Array(0))).toBeUndefined();
  });
});

describe('transcribeVoiceMessage with an audio clip', () => {
  it('sends a webm or mp4 clip whole, named by its sniffed container; the text trimmed and kept', async () => {
    const { stt, sent } = service();
    const webm = options(webmClip(600), stt);
    const done = await transcribeVoiceMessage(message(clip()), webm.o);
    expect(done.voice?.transcript).toBe('heard 600 bytes');
    // Named .webm but mp4 inside: the bytes decide.
    const mp4 = options(mp4Clip(300), stt);
    const named = clip({ clip: { name: 'audio_message.webm' } });
    expect((await transcribeVoiceMessage(message(named), mp4.o)).voice?.transcript).toBe('heard 300 bytes');
    expect(sent).toEqual([
      { mime: 'audio/webm', filename: 'voice.webm' },
      { mime: 'audio/mp4', filename: 'voice.mp4' },
    ]);
    expect(await transcribeVoiceMessage(done, webm.o)).toBe(done);
    expect(webm.counts.downloads).toBe(1);
  });

  it("with a PCM-only service (Feishu's): says to set [voice] api_key and service, downloads nothing", async () => {
    const { o, counts } = options(webmClip(), service(true).stt);
    const done = await transcribeVoiceMessage(message(clip()), o);
    expect(done.voice?.error).toBe(
      'this audio clip (not Ogg/Opus) cannot be transcribed with Feishu\'s speech service; set api_key (an OpenAI-compatible transcription endpoint) and service = "openai" under [voice] in config.toml',
    );
    expect(counts.downloads).toBe(0);
    const zh = await transcribeVoiceMessage(message(clip()), { ...o, lang: 'zh' });
    expect(zh.voice?.error).toContain('[voice] 里设置 api_key（兼容 OpenAI 的转写接口）和 service = "openai"');
  });

  it('caps a clip at the endpoint’s 25 MB even when files.max_size_bytes is larger', async () => {
    const { stt, sent } = service();
    const big = options(webmClip(), stt, { maxBytes: 100 * 1024 * 1024 });
    const announced = clip({ clip: { name: 'a.webm', size: 26 * 1024 * 1024 } });
    const refused = await transcribeVoiceMessage(message(announced), big.o);
    expect(refused.voice?.error).toBe('larger than the 25 MB limit, not kept');
    expect(big.counts.downloads).toBe(0);
    // Not announced, but the download says so: refused unread.
    const streamed = await transcribeVoiceMessage(message(clip({ clip: { name: 'a.webm' } })), {
      ...big.o,
      download: async () => ({ stream: Readable.from([webmClip()]), contentLength: 30 * 1024 * 1024 }),
    });
    expect(streamed.voice?.error).toBe('larger than the 25 MB limit, not kept');
    // A smaller files.max_size_bytes is the cap then.
    const small = options(webmClip(600), stt, { maxBytes: 500 });
    expect((await transcribeVoiceMessage(message(clip()), small.o)).voice?.error).toBe(
      'larger than the 500 B limit, not kept',
    );
    expect(sent).toEqual([]);
  });

  it('bytes of no audio container are undecodable and never sent', async () => {
    const { stt, sent } = service();
    const { o } = options(Buffer.from('<html>not audio</html>'), stt);
    const done = await transcribeVoiceMessage(message(clip({ clip: { name: 'x.webm', size: 22 } })), o);
    expect(done.voice?.error).toBe('the voice message could not be read: the audio is damaged or cannot be decoded');
    expect(sent).toEqual([]);
  });
});

describe('keepClipAsFile', () => {
  const voice = { enabled: true, max_seconds: 300 };

  it('a clip the setup cannot transcribe becomes the first file, and the voice says why', () => {
    const m = message(clip(), { files: [{ key: 'F2', name: 'notes.pdf' }] });
    const kept = keepClipAsFile(m, { stt: service(true).stt, voice, lang: 'en' });
    expect(kept.files).toEqual([
      { key: 'https://files.slack.com/clip', name: 'audio_message.webm', size: 600 },
      { key: 'F2', name: 'notes.pdf' },
    ]);
    expect(kept.voice?.error).toMatch(/^this audio clip \(not Ogg\/Opus\) cannot be transcribed with Feishu's/);
    // Prepared again (a retried record): nothing added twice.
    expect(keepClipAsFile(kept, { stt: undefined, voice, lang: 'en' })).toBe(kept);
    const off = keepClipAsFile(message(clip()), {
      stt: service().stt,
      voice: { ...voice, enabled: false },
      lang: 'zh',
    });
    expect(off.voice?.error).toBe('语音处理已关闭（voice.enabled = false）');
    expect(keepClipAsFile(message(clip()), { stt: undefined, voice, lang: 'en' }).files).toHaveLength(1);
  });

  it('leaves a clip the service can take, and a voice note that is no clip, as they are', () => {
    const m = message(clip());
    expect(keepClipAsFile(m, { stt: service().stt, voice, lang: 'en' })).toBe(m);
    const note = message({ key: 'file_1', durationMs: 1000 });
    expect(keepClipAsFile(note, { stt: service(true).stt, voice, lang: 'en' })).toBe(note);
  });
});

describe('the answer for a clip kept as a file', () => {
  const voice = { enabled: true, max_seconds: 300 };
  const card: CardReply = { kind: 'card', title: 't', status: 'complete', sections: [] };
  const kept = keepClipAsFile(message(clip()), { stt: undefined, voice, lang: 'en' });
  const why = kept.voice?.error ?? '';

  it('saved: the message runs with the file, the quote says why and that the agent has it', () => {
    const saved = { ...kept, files: kept.files?.map((f) => ({ ...f, localPath: '/tmp/a/audio_message.webm' })) };
    expect(voiceRefusal(saved, 'en')).toBeUndefined();
    expect(withHeardQuote(card, saved, 'en').sections[0]).toEqual({
      type: 'quote',
      text: `🎤 ${why}. The clip was saved as a file and passed on to the agent`,
    });
  });

  it('not saved (too large, files off): nothing runs, and the reply does not claim it was kept', () => {
    const lost = { ...kept, files: kept.files?.map((f) => ({ ...f, error: 'files are off' })) };
    const refusal = voiceRefusal(lost, 'en');
    expect(refusal?.code).toBe('VOICE_FAILED');
    expect(JSON.stringify(refusal)).toContain(why);
    expect(JSON.stringify(refusal)).not.toContain('saved as a file');
  });
});
