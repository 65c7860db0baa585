import type { Readable } from 'node:stream';
import type { InboundMessage, InboundVoice } from '../inbound-message.js';
import { SPEECH_FILE_MAX_BYTES, type SpeechToText } from './speech-to-text.js';
import { transcribeClip } from './transcribe-clip.js';
import { transcribeVoice } from './transcribe-voice.js';
import { VoiceError } from './voice-error.js';
import { voiceMessages } from './voice-messages.js';
import { isAppError } from '../../core/app-error.js';
import type { Config } from '../../core/config-schema.js';
import type { Language } from '../../core/i18n.js';
import type { Logger } from '../../core/logger.js';
import { formatBytes } from '../../core/format-bytes.js';
import type { FileSource } from '../inbound-files/download-files.js';
import { inboundFilesMessages } from '../inbound-files/inbound-files-messages.js';
import { TooLarge } from '../inbound-files/save-stream.js';

export interface TranscribeVoiceMessageOptions {
  /** Opens the audio (Feishu: `downloadFile` with type=file; Telegram: `getFile`). */
  download: FileSource;
  /** The daemon's speech-to-text; absent = none is set up (the user is told how to set one up). */
  stt: SpeechToText | undefined;
  voice: Pick<Config['voice'], 'enabled' | 'max_seconds'>;
  /** The largest download accepted (`files.max_size_bytes`). */
  maxBytes: number;
  lang: Language;
  logger: Logger;
}

/** The whole stream in memory, or `TooLarge` as soon as it passes `maxBytes` (the rest unread). */
async function readCapped(stream: Readable, maxBytes: number, contentLength?: number): Promise<Buffer> {
  if (contentLength !== undefined && contentLength > maxBytes) {
    stream.destroy();
    throw new TooLarge(`announced ${contentLength} bytes`);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    const buf = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array);
    size += buf.length;
    if (size > maxBytes) {
      stream.destroy();
      throw new TooLarge(`more than ${maxBytes} bytes`);
    }
    chunks.push(buf);
  }
  return Buffer.concat(chunks);
}

/**
 * Why `voice` cannot be transcribed with this setup, known before anything is fetched: voice off,
 * no speech service, or an audio clip (`voice.clip`) for a service that takes PCM only (Feishu's).
 * Undefined = it can be tried. A channel that can keep such a clip as a file asks this first.
 */
export function voiceUnavailable(
  voice: InboundVoice,
  o: Pick<TranscribeVoiceMessageOptions, 'stt' | 'voice' | 'lang'>,
): string | undefined {
  const t = voiceMessages(o.lang);
  if (!o.voice.enabled) return t('disabled');
  if (!o.stt) return t('unavailable');
  if (voice.clip && !o.stt.transcribeFile) return t('clipNeedsEndpoint');
  return undefined;
}

/**
 * `Channel.prepare` for a voice message: downloads its audio (size-capped, in memory), decodes and
 * transcribes it piece by piece with the daemon's speech-to-text — an audio clip (`voice.clip`) is
 * sent whole instead, capped at the endpoint's 25 MB too — and keeps the text on the
 * message (`voice.transcript`) — or why not (`voice.error`: voice off, no speech service, too long,
 * too large, undecodable, not permitted, failed). A message already transcribed is returned untouched, so a
 * retried record never pays for speech recognition twice. Never throws.
 */
export async function transcribeVoiceMessage(
  message: InboundMessage,
  o: TranscribeVoiceMessageOptions,
): Promise<InboundMessage> {
  const voice = message.voice;
  if (!voice || voice.transcript !== undefined || voice.error !== undefined) return message;
  const t = voiceMessages(o.lang);
  const max = o.voice.max_seconds;
  const cap = voice.clip ? Math.min(o.maxBytes, SPEECH_FILE_MAX_BYTES) : o.maxBytes;
  const unavailable = voiceUnavailable(voice, o);
  let result: Pick<InboundVoice, 'transcript' | 'error'>;
  if (unavailable !== undefined || !o.stt) {
    result = { error: unavailable ?? t('unavailable') };
  } else if (!voice.key) {
    result = { error: t('transcribeError') };
  } else if (voice.durationMs !== undefined && voice.durationMs > (max + 1) * 1000) {
    // The platform says how long it is: no need to download it to refuse it.
    result = {
      error: new VoiceError('tooLong', o.lang, { seconds: Math.round(voice.durationMs / 1000), max }).userMessage,
    };
  } else if ((voice.clip?.size ?? 0) > cap) {
    result = { error: inboundFilesMessages(o.lang)('fileTooLarge', { size: formatBytes(cap) }) };
  } else {
    const stt = o.stt;
    try {
      const { stream, contentLength } = await o.download(message.platformMessageId, voice.key);
      const bytes = await readCapped(stream, cap, contentLength);
      const transcript = voice.clip
        ? await transcribeClip(bytes, stt, { lang: o.lang })
        : await transcribeVoice(bytes, stt, { maxSeconds: max, lang: o.lang });
      result = { transcript };
    } catch (err) {
      if (err instanceof TooLarge) {
        result = { error: inboundFilesMessages(o.lang)('fileTooLarge', { size: formatBytes(cap) }) };
      } else {
        result = { error: isAppError(err) ? err.userMessage : t('transcribeError') };
        if (!(err instanceof VoiceError)) o.logger.warn('voice transcription failed', { messageId: message.id, err });
      }
    }
  }
  return { ...message, voice: { ...voice, ...result } };
}
