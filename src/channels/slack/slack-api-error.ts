import { AppError } from '../../core/app-error.js';
import type { Language } from '../../core/i18n.js';
import { redact } from '../../core/redact.js';
import { slackMessages } from './slack-messages.js';

/**
 * A Web API call that failed: Slack's error code (`invalid_auth`, `msg_too_long`, …) or the
 * network fault. Slack tokens travel in a header, never in a URL, and the message is built from
 * the code only (and still passes through `redact`).
 */
export class SlackApiError extends AppError {
  constructor(
    readonly op: string,
    /** Slack's `error` code; `network` for no answer, `http_<status>` for another HTTP status. */
    readonly slackCode: string,
    lang: Language = 'zh',
    cause?: unknown,
  ) {
    super('SLACK_API', SlackApiError.message(op, slackCode, lang), cause === undefined ? {} : { cause });
  }

  override localize(lang: Language): string {
    return SlackApiError.message(this.op, this.slackCode, lang);
  }

  /** Slack refused the token itself (nothing a retry fixes). */
  get refused(): boolean {
    return ['invalid_auth', 'not_authed', 'account_inactive', 'token_revoked', 'token_expired'].includes(
      this.slackCode,
    );
  }

  private static message(op: string, code: string, lang: Language): string {
    return redact(slackMessages(lang)('apiFailed', { op, detail: code.slice(0, 200) }));
  }
}

/**
 * Turns what `@slack/web-api` threw into a `SlackApiError`: a platform error carries
 * `data.error`; an HTTP error its status; a request error (no answer) becomes `network`.
 */
export function toSlackError(op: string, err: unknown, lang: Language): SlackApiError {
  if (err instanceof SlackApiError) return err;
  const e = err as { code?: unknown; data?: { error?: unknown }; statusCode?: unknown };
  if (e?.code === 'slack_webapi_platform_error' && typeof e.data?.error === 'string')
    return new SlackApiError(op, e.data.error, lang);
  if (e?.code === 'slack_webapi_http_error' && typeof e.statusCode === 'number')
    return new SlackApiError(op, `http_${e.statusCode}`, lang);
  return new SlackApiError(op, 'network request failed', lang);
}
