import { AppError } from '../../core/app-error.js';
import type { Language } from '../../core/i18n.js';
import { redact } from '../../core/redact.js';
import { feishuMessages } from './feishu-messages.js';

/** Why a Feishu call failed, as far as retrying is concerned. */
export type FeishuFailureKind = 'rate-limit' | 'server' | 'network' | 'token' | 'rejected';

/** What we know about one failed attempt: never the request, the token or the response headers. */
export interface FeishuFailure {
  kind: FeishuFailureKind;
  /** HTTP status, when a response arrived. */
  status?: number;
  /** Feishu `code` of the response body, when there was one. */
  code?: number;
  /** Feishu `msg`, or the network error's code (`ECONNRESET`, …). */
  msg?: string;
  /** Server-requested wait (`Retry-After` / `x-ogw-ratelimit-reset`), in ms. */
  retryAfterMs?: number;
}

/**
 * A Feishu Open API call that failed for good (after the retry policy of `callFeishu`). The user
 * message names the operation and Feishu's code or the network error, never a token or secret
 * (everything passes through `redact`).
 */
export class FeishuApiError extends AppError {
  readonly op: string;
  readonly failure: FeishuFailure;
  readonly attempts: number;

  constructor(op: string, failure: FeishuFailure, attempts: number, lang: Language = 'zh') {
    super('FEISHU_API', FeishuApiError.message(op, failure, lang), { exitCode: 1 });
    this.op = op;
    this.failure = failure;
    this.attempts = attempts;
  }

  override localize(lang: Language): string {
    return FeishuApiError.message(this.op, this.failure, lang);
  }

  /** True when Feishu answered with a refusal (not a rate limit, outage or network fault). */
  get rejected(): boolean {
    return this.failure.kind === 'rejected';
  }

  private static message(op: string, f: FeishuFailure, lang: Language): string {
    const parts: string[] = [];
    if (f.code !== undefined) parts.push(`code ${f.code}`);
    else if (f.status !== undefined) parts.push(`HTTP ${f.status}`);
    if (f.msg) parts.push(f.msg.slice(0, 200));
    return redact(feishuMessages(lang)('apiFailed', { op, detail: parts.join(' ') || f.kind }));
  }
}
