import type { Language } from '../../core/i18n.js';
import { downmix, downsample, toInt16 } from './resample-pcm.js';
import { SPEECH_SAMPLE_RATE } from './speech-to-text.js';
import { VoiceError } from './voice-error.js';

/** Opus always decodes at 48 kHz. */
const OPUS_RATE = 48_000;
const MAGIC = Buffer.from('OggS', 'latin1');

/**
 * The stream's length in seconds from its last page's granule position (48 kHz units for Opus),
 * read without decoding. Trusted only when that page is well formed and ends exactly at the end
 * of the file (version 0, its segment table adding up); undefined otherwise.
 */
function lastGranuleSeconds(bytes: Uint8Array): number | undefined {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const at = buf.lastIndexOf(MAGIC);
  if (at < 0 || at + 27 > buf.length || buf[at + 4] !== 0) return undefined;
  const segments = buf[at + 26] ?? 0;
  if (at + 27 + segments > buf.length) return undefined;
  let body = 0;
  for (let i = 0; i < segments; i += 1) body += buf[at + 27 + i] ?? 0;
  if (at + 27 + segments + body !== buf.length) return undefined;
  const granule = buf.readBigUInt64LE(at + 6);
  // -1 (all ones) marks a page on which no packet ends.
  if (granule === 0xffffffffffffffffn) return undefined;
  return Number(granule) / OPUS_RATE;
}

/**
 * Decodes an Ogg/Opus voice message into what speech-to-text takes: 16 kHz, 16-bit, mono PCM.
 * Checks the `OggS` magic first, refuses a stream longer than `maxSeconds` (from its last granule
 * position before decoding, and again from what was decoded), mixes the channels, and resamples
 * 48 kHz → 16 kHz through a low-pass filter. The WASM decoder is loaded on first use and always
 * freed. Throws `VoiceError` (`notOgg`, `undecodable`, `tooLong`).
 */
export async function decodeVoice(bytes: Uint8Array, o: { maxSeconds: number; lang: Language }): Promise<Int16Array> {
  if (bytes.length < 4 || !MAGIC.equals(Buffer.from(bytes.subarray(0, 4)))) throw new VoiceError('notOgg', o.lang);
  const declared = lastGranuleSeconds(bytes);
  if (declared !== undefined && declared > o.maxSeconds + 1)
    throw new VoiceError('tooLong', o.lang, { seconds: Math.round(declared), max: o.maxSeconds });
  const { OggOpusDecoder } = await import('ogg-opus-decoder');
  const decoder = new OggOpusDecoder();
  let decoded: { channelData: Float32Array[]; samplesDecoded: number; sampleRate: number };
  try {
    await decoder.ready;
    decoded = await decoder.decodeFile(bytes);
  } catch (err) {
    throw new VoiceError('undecodable', o.lang, {}, err);
  } finally {
    decoder.free();
  }
  if (decoded.samplesDecoded === 0 || decoded.channelData.length === 0) throw new VoiceError('undecodable', o.lang);
  const seconds = decoded.samplesDecoded / decoded.sampleRate;
  if (seconds > o.maxSeconds + 1)
    throw new VoiceError('tooLong', o.lang, { seconds: Math.round(seconds), max: o.maxSeconds });
  const mono = downmix(decoded.channelData.map((c) => c.subarray(0, decoded.samplesDecoded)));
  const factor = decoded.sampleRate / SPEECH_SAMPLE_RATE;
  if (!Number.isInteger(factor)) throw new VoiceError('undecodable', o.lang);
  return toInt16(downsample(mono, factor));
}
