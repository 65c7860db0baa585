import { AppError } from '../../core/app-error.js';
import type { Language } from '../../core/i18n.js';
import { redact } from '../../core/redact.js';
import { telegramMessages } from './telegram-messages.js';

/**
 * A Bot API call that failed: Telegram's `error_code` and `description`, or the network fault.
 * grammY's own errors carry the request URL, and the bot token is part of every URL path, so
 * the message is built from the code and description only and still passes through `redact`.
 */
export class TelegramApiError extends AppError {
  constructor(
    readonly op: string,
    /** Telegram's `error_code`; 0 for a network fault (no answer). */
    readonly errorCode: number,
    readonly description: string,
    lang: Language = 'zh',
  ) {
    super('TELEGRAM_API', TelegramApiError.message(op, errorCode, description, lang));
  }

  override localize(lang: Language): string {
    return TelegramApiError.message(this.op, this.errorCode, this.description, lang);
  }

  private static message(op: string, code: number, description: string, lang: Language): string {
    const detail = code > 0 ? `${code} ${description.slice(0, 200)}` : description.slice(0, 200);
    return redact(telegramMessages(lang)('apiFailed', { op, detail }));
  }
}

/** True for Telegram's "message is not modified" answer to an edit that changes nothing. */
export function isNotModified(err: unknown): boolean {
  return (
    err instanceof TelegramApiError && err.errorCode === 400 && err.description.includes('message is not modified')
  );
}

/**
 * Turns whatever grammY threw into a `TelegramApiError` (its `GrammyError` has `error_code` and
 * `description`; its `HttpError` is a network fault whose message holds the URL — dropped).
 */
export function toTelegramError(op: string, err: unknown, lang: Language): TelegramApiError {
  if (err instanceof TelegramApiError) return err;
  const e = err as { error_code?: unknown; description?: unknown; name?: unknown };
  if (typeof e?.error_code === 'number' && typeof e.description === 'string')
    return new TelegramApiError(op, e.error_code, e.description, lang);
  const name = typeof e?.name === 'string' ? e.name : 'Error';
  return new TelegramApiError(op, 0, `${name}: network request failed`, lang);
}
