import type { Language } from '../../core/i18n.js';
import type { Logger } from '../../core/logger.js';
import { redact } from '../../core/redact.js';
import { FeishuApiError, type FeishuFailure } from './feishu-api-error.js';

/** Bounds of the one retry policy every outbound Feishu call shares. */
export interface RetryPolicy {
  /** Attempts in all, the first included (default 5). */
  maxAttempts: number;
  /** No retry starts after this much time since the first attempt (default 30 s). */
  maxTotalMs: number;
  /** First backoff; doubles per attempt, with jitter (default 300 ms). */
  baseDelayMs: number;
  /** Backoff ceiling (default 8 s). */
  maxDelayMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxAttempts: 5,
  maxTotalMs: 30_000,
  baseDelayMs: 300,
  maxDelayMs: 8_000,
};

/** What `callFeishu` needs besides the call; everything has a default, tests inject clocks. */
export interface CallFeishuDeps {
  policy?: Partial<RetryPolicy>;
  /** Drops the cached tenant token so the SDK fetches a fresh one (see `createTokenCache`). */
  refreshToken?: () => void | Promise<void>;
  logger?: Logger;
  lang?: Language;
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
  now?: () => number;
}

/** Feishu codes meaning "too many requests": app limit, per-message update limit, send limit. */
const RATE_LIMIT_CODES = new Set([99991400, 230020, 11232]);
/** Feishu codes meaning the tenant token is missing, invalid or expired. */
const TOKEN_CODES = new Set([99991661, 99991663, 99991668]);
const NETWORK_CODES = new Set([
  'ECONNRESET',
  'ETIMEDOUT',
  'ECONNABORTED',
  'ECONNREFUSED',
  'EPIPE',
  'EAI_AGAIN',
  'ENOTFOUND',
  'ENETUNREACH',
  'EHOSTUNREACH',
  'ERR_NETWORK',
  'ERR_SOCKET_CONNECTION_TIMEOUT',
]);

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

function headerValue(headers: unknown, name: string): string | undefined {
  if (!isRecord(headers)) return undefined;
  const v = headers[name] ?? headers[name.toLowerCase()];
  return typeof v === 'string' || typeof v === 'number' ? String(v) : undefined;
}

function retryAfterMs(headers: unknown): number | undefined {
  for (const name of ['retry-after', 'x-ogw-ratelimit-reset']) {
    const raw = headerValue(headers, name);
    if (raw === undefined) continue;
    const seconds = Number(raw);
    if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
    const date = Date.parse(raw);
    if (Number.isFinite(date)) return Math.max(0, date - Date.now());
  }
  return undefined;
}

function kindOf(status: number | undefined, code: number | undefined): FeishuFailure['kind'] {
  if (status === 429 || (code !== undefined && RATE_LIMIT_CODES.has(code))) return 'rate-limit';
  if (code !== undefined && TOKEN_CODES.has(code)) return 'token';
  if (status !== undefined && status >= 500) return 'server';
  return 'rejected';
}

/** A resolved SDK answer with `code !== 0` (Feishu said no in an HTTP 200). */
export function failureOfBody(body: unknown): FeishuFailure | undefined {
  if (!isRecord(body) || typeof body.code !== 'number' || body.code === 0) return undefined;
  const code = body.code;
  return { kind: kindOf(undefined, code), code, ...(typeof body.msg === 'string' ? { msg: body.msg } : {}) };
}

/**
 * What a thrown SDK error means: an axios error with a response (status, Feishu body, retry hint),
 * a network fault (no response), or anything else (not retried).
 */
export function failureOfError(err: unknown): FeishuFailure {
  if (err instanceof FeishuApiError) return err.failure;
  const e = isRecord(err) ? err : {};
  const response = isRecord(e.response) ? e.response : undefined;
  if (response) {
    const status = typeof response.status === 'number' ? response.status : undefined;
    const data = isRecord(response.data) ? response.data : {};
    const code = typeof data.code === 'number' ? data.code : undefined;
    const wait = retryAfterMs(response.headers);
    return {
      kind: kindOf(status, code),
      ...(status === undefined ? {} : { status }),
      ...(code === undefined ? {} : { code }),
      ...(typeof data.msg === 'string' ? { msg: data.msg } : {}),
      ...(wait === undefined ? {} : { retryAfterMs: wait }),
    };
  }
  const errCode = typeof e.code === 'string' ? e.code : undefined;
  const message = typeof e.message === 'string' ? e.message : String(err);
  if ((errCode !== undefined && NETWORK_CODES.has(errCode)) || /socket hang up|network error|timeout/i.test(message)) {
    return { kind: 'network', msg: errCode ?? message.slice(0, 80) };
  }
  return { kind: 'rejected', msg: message.slice(0, 200) };
}

/** Backoff before attempt `attempt + 1`: exponential, half of it jittered, at least the server's hint. */
export function backoffMs(attempt: number, policy: RetryPolicy, random: () => number, hintMs?: number): number {
  const exp = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  const jittered = exp / 2 + random() * (exp / 2);
  return Math.round(Math.max(jittered, hintMs ?? 0));
}

const defaultSleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The ONE outbound path to Feishu (grammY's transformer idea): every create, reply, patch and
 * CardKit call runs through here so all of them get the same policy.
 *
 * - rate limits (HTTP 429, code 99991400 / 230020 / 11232) and 5xx: exponential backoff with
 *   jitter, never shorter than `Retry-After` / `x-ogw-ratelimit-reset`;
 * - network faults (ECONNRESET, ETIMEDOUT, socket hang up, …): same backoff;
 * - token errors (99991661 / 99991663 / 99991668): `refreshToken()` then one immediate retry;
 * - anything else: no retry.
 *
 * Bounded by `maxAttempts` and `maxTotalMs`. `fn` must build the SAME request each time (same
 * `uuid` for create / reply), which is what makes a retry after a lost response harmless.
 * Failures end as a `FeishuApiError` carrying no token or secret.
 */
export async function callFeishu<T>(op: string, fn: () => Promise<T>, deps: CallFeishuDeps = {}): Promise<T> {
  const policy = { ...DEFAULT_RETRY_POLICY, ...deps.policy };
  const now = deps.now ?? Date.now;
  const sleep = deps.sleep ?? defaultSleep;
  const random = deps.random ?? Math.random;
  const started = now();
  let tokenRefreshed = false;
  for (let attempt = 1; ; attempt += 1) {
    let failure: FeishuFailure;
    try {
      const result = await fn();
      const refused = failureOfBody(result);
      if (!refused) return result;
      failure = refused;
    } catch (err) {
      failure = failureOfError(err);
    }
    const fail = (): FeishuApiError => new FeishuApiError(op, failure, attempt, deps.lang);
    if (failure.kind === 'rejected' || attempt >= policy.maxAttempts) throw fail();
    if (failure.kind === 'token') {
      if (tokenRefreshed || !deps.refreshToken) throw fail();
      tokenRefreshed = true;
      deps.logger?.warn('feishu token rejected, refreshing', { op, code: failure.code });
      await deps.refreshToken();
      continue;
    }
    const delay = backoffMs(attempt, policy, random, failure.retryAfterMs);
    if (now() - started + delay > policy.maxTotalMs) throw fail();
    deps.logger?.warn('feishu call failed, retrying', {
      op,
      attempt,
      kind: failure.kind,
      status: failure.status,
      code: failure.code,
      msg: failure.msg === undefined ? undefined : redact(failure.msg),
      delayMs: delay,
    });
    await sleep(delay);
  }
}
