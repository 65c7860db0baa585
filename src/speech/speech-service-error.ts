import { AppError } from '../core/app-error.js';
import type { Language } from '../core/i18n.js';
import { speechMessages } from './speech-messages.js';

/** How a transcription request failed, in terms the user can act on. */
export type SpeechFailureKind = 'auth' | 'notFound' | 'rateLimit' | 'network' | 'refused' | 'server';

/** Everything a message may name; none of it is secret (`detail` is scrubbed of the key first). */
export type SpeechFailureParams = { base: string; model: string; status?: number; detail?: string };

/**
 * A transcription endpoint's failure. The user message says what to check (key, model, network)
 * and never holds the key; the cause is a scrubbed copy of the SDK's error.
 */
export class SpeechServiceError extends AppError {
  readonly kind: SpeechFailureKind;
  private readonly params: SpeechFailureParams;

  constructor(kind: SpeechFailureKind, lang: Language, params: SpeechFailureParams, cause?: unknown) {
    super(`SPEECH_${kind.toUpperCase()}`, speechMessages(lang)(kind, SpeechServiceError.fill(params)), {
      ...(cause === undefined ? {} : { cause }),
    });
    this.kind = kind;
    this.params = params;
  }

  override localize(lang: Language): string {
    return speechMessages(lang)(this.kind, SpeechServiceError.fill(this.params));
  }

  private static fill(p: SpeechFailureParams): Record<string, string | number> {
    return { base: p.base, model: p.model, status: p.status ?? '-', detail: p.detail ?? '-' };
  }
}
