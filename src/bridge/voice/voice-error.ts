import { AppError } from '../../core/app-error.js';
import type { Language } from '../../core/i18n.js';
import { voiceMessages } from './voice-messages.js';

/** Why a voice message could not be turned into text on our side (before any speech service). */
export type VoiceErrorKind = 'notOgg' | 'undecodable' | 'tooLong';

const CODES: Readonly<Record<VoiceErrorKind, string>> = {
  notOgg: 'VOICE_NOT_OGG',
  undecodable: 'VOICE_UNDECODABLE',
  tooLong: 'VOICE_TOO_LONG',
};

/**
 * A voice message we cannot transcribe: not Ogg, undecodable, or longer than `voice.max_seconds`.
 * The user message says which (zh/en); the cause keeps the decoder's own error for the log.
 */
export class VoiceError extends AppError {
  readonly kind: VoiceErrorKind;
  private readonly params: Record<string, number>;

  constructor(kind: VoiceErrorKind, lang: Language, params: Record<string, number> = {}, cause?: unknown) {
    super(CODES[kind], voiceMessages(lang)(kind, params), cause === undefined ? {} : { cause });
    this.kind = kind;
    this.params = params;
  }

  override localize(lang: Language): string {
    return voiceMessages(lang)(this.kind, this.params);
  }
}
