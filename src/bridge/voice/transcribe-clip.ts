import type { Language } from '../../core/i18n.js';
import { sniffAudio } from './sniff-audio.js';
import type { SpeechToText } from './speech-to-text.js';
import { VoiceError } from './voice-error.js';

/**
 * An audio clip (webm, mp4 …) → its text, sent whole through `stt.transcribeFile` as `voice.<ext>`,
 * the extension and type taken from its bytes (endpoints pick their decoder by the extension; the
 * user's file name never leaves the machine). Bytes of no known audio container are `undecodable`;
 * a service without `transcribeFile` is the caller's to rule out first. '' means nothing was heard.
 */
export async function transcribeClip(
  bytes: Uint8Array,
  stt: SpeechToText,
  o: { lang: Language; signal?: AbortSignal },
): Promise<string> {
  const container = sniffAudio(bytes);
  if (!container || !stt.transcribeFile) throw new VoiceError('undecodable', o.lang);
  const file = { mime: container.mime, filename: `voice.${container.extension}` };
  return (await stt.transcribeFile(bytes, file, o.signal)).trim();
}
