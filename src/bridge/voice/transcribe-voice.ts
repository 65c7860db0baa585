import type { Language } from '../../core/i18n.js';
import { decodeVoice } from './decode-voice.js';
import { splitPcm } from './split-pcm.js';
import { SPEECH_CHUNK_SECONDS, SPEECH_SAMPLE_RATE, type SpeechToText } from './speech-to-text.js';

/**
 * An Ogg/Opus voice message → its text: decoded to 16 kHz mono PCM (`decodeVoice`), split into
 * pieces of at most 60 s, each sent to `stt` in order, the texts joined with a space. Throws the
 * decoder's `VoiceError` or whatever `stt` throws; '' means nothing was heard.
 */
export async function transcribeVoice(
  bytes: Uint8Array,
  stt: SpeechToText,
  o: { maxSeconds: number; lang: Language; signal?: AbortSignal },
): Promise<string> {
  const pcm = await decodeVoice(bytes, o);
  const texts: string[] = [];
  for (const piece of splitPcm(pcm, SPEECH_SAMPLE_RATE, SPEECH_CHUNK_SECONDS)) {
    o.signal?.throwIfAborted();
    texts.push((await stt.transcribe(piece, o.signal)).trim());
  }
  return texts.filter((t) => t !== '').join(' ');
}
