import { AppError } from '../../core/app-error.js';
import type { Language } from '../../core/i18n.js';
import { redact } from '../../core/redact.js';
import { dingtalkMessages } from './dingtalk-messages.js';

/**
 * A DingTalk OpenAPI call that failed: the HTTP status (0 = no answer) and DingTalk's `code` /
 * `message`. Built from those only — never from the request, which carries the access token or
 * the client secret — and passed through `redact` all the same.
 */
export class DingTalkApiError extends AppError {
  constructor(
    readonly op: string,
    readonly status: number,
    readonly description: string,
    lang: Language = 'zh',
    cause?: unknown,
  ) {
    super('DINGTALK_API', DingTalkApiError.message(op, status, description, lang), { cause });
  }

  override localize(lang: Language): string {
    return DingTalkApiError.message(this.op, this.status, this.description, lang);
  }

  /** 429 and 5xx: worth another try later. */
  get retryable(): boolean {
    return this.status === 0 || this.status === 429 || this.status >= 500;
  }

  private static message(op: string, status: number, description: string, lang: Language): string {
    const detail = status > 0 ? `${status} ${description.slice(0, 200)}` : description.slice(0, 200);
    return redact(dingtalkMessages(lang)('apiFailed', { op, detail }));
  }
}
