import type { Language } from '../../core/i18n.js';
import type { InboundMessage } from '../inbound-message.js';
import type { CardReply, Reply } from '../reply-model.js';
import { voiceMessages } from './voice-messages.js';

/** The outcome codes of a voice message answered instead of run (`voiceRefusal`). */
export const VOICE_REFUSAL_CODES: ReadonlySet<string> = new Set(['VOICE_FAILED', 'VOICE_EMPTY']);

/** The transcript of the message's voice, when something was heard. */
export function heardText(message: InboundMessage): string | undefined {
  const text = message.voice?.transcript?.trim();
  return text ? text : undefined;
}

/**
 * The prompt's text with the voice message's transcript first (fixed wording: the agent reads it,
 * the user never does), then whatever the user typed.
 */
export function withTranscript(message: InboundMessage, text: string): string {
  const heard = heardText(message);
  if (!heard) return text;
  const line = `[voice message, transcribed] ${heard.replace(/\s*\n\s*/g, ' ')}`;
  return text.trim() === '' ? line : `${line}\n${text}`;
}

/**
 * When a message is only a voice message and nothing usable was heard, the reply that answers it
 * instead of a run: "heard nothing", or the failure with its reason. Undefined when the message
 * runs (something was heard, or it carries text, images or files besides).
 */
export function voiceRefusal(message: InboundMessage, lang: Language): { code: string; reply: CardReply } | undefined {
  const voice = message.voice;
  if (!voice || heardText(message)) return undefined;
  if (message.text.trim() !== '' || message.images.length > 0 || (message.files ?? []).some((f) => f.localPath))
    return undefined;
  const t = voiceMessages(lang);
  const failed = voice.error !== undefined || voice.transcript === undefined;
  const text = failed ? t('failed', { reason: voice.error ?? t('transcribeError') }) : t('heardNothing');
  return {
    code: failed ? 'VOICE_FAILED' : 'VOICE_EMPTY',
    reply: {
      kind: 'card',
      title: t('title'),
      status: failed ? 'error' : 'warning',
      sections: [{ type: 'plain', text }],
    },
  };
}

/**
 * The reply with what was heard quoted at the top (`🎤 <transcript>`, escaped by the channel like
 * any quote), so the user sees what the agent was told; a voice message that failed beside typed
 * text shows why instead (an audio clip kept as a file: why, and that the agent has the file).
 * Text replies and messages without voice are returned as they are.
 */
export function withHeardQuote<R extends Reply>(reply: R, message: InboundMessage, lang: Language): R {
  if (!message.voice || reply.kind !== 'card') return reply;
  const heard = heardText(message);
  const t = voiceMessages(lang);
  const voice = message.voice;
  const why = voice.error ?? (voice.transcript === undefined ? t('transcribeError') : t('nothingHeard'));
  // An audio clip that could not be heard but was kept as a file (keep-clip-as-file.ts): say so.
  const kept = voice.clip !== undefined && (message.files ?? []).some((f) => f.key === voice.key && f.localPath);
  const quote = `🎤 ${heard ?? (kept ? t('clipKept', { reason: why }) : why)}`;
  return { ...reply, sections: [{ type: 'quote', text: quote }, ...reply.sections] };
}
