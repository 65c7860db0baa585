import type { InboundMessage } from '../inbound-message.js';
import { voiceUnavailable, type TranscribeVoiceMessageOptions } from './transcribe-voice-message.js';

/**
 * An audio clip the daemon's setup cannot transcribe (voice off, no speech service, or a PCM-only
 * service such as Feishu's) is not lost: it becomes the message's first file (downloaded and
 * mentioned to the agent like any file), and `voice.error` says why it was not heard and how to fix
 * it (the answer's quote adds that the agent has the file, once it was saved: `voice-turn.ts`).
 * Anything else — no clip, already prepared, or a clip that can be tried — is returned as it is.
 * Runs before the channel downloads its files; `transcribeVoiceMessage` then leaves the voice alone.
 */
export function keepClipAsFile(
  message: InboundMessage,
  o: Pick<TranscribeVoiceMessageOptions, 'stt' | 'voice' | 'lang'>,
): InboundMessage {
  const voice = message.voice;
  if (!voice?.clip || !voice.key || voice.transcript !== undefined || voice.error !== undefined) return message;
  const reason = voiceUnavailable(voice, o);
  if (reason === undefined) return message;
  const { name, size } = voice.clip;
  return {
    ...message,
    files: [{ key: voice.key, name, ...(size !== undefined ? { size } : {}) }, ...(message.files ?? [])],
    voice: { ...voice, error: reason },
  };
}
