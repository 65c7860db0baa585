import type * as Lark from '@larksuiteoapi/node-sdk';
import { httpWithTimeout, larkDomain, larkSdk } from './lark-sdk.js';

/**
 * The shape Feishu gives every app id, and the one the SDK's `WSClient.start()` silently requires
 * (it does nothing for any other id). `cc-linker setup` checks it before asking the network.
 */
export const FEISHU_APP_ID_PATTERN = /^cli_[0-9a-fA-F]{16}$/;

/** Why credentials were not accepted; `detail` is one technical line and never contains the secret. */
export type CredentialCheckResult =
  { ok: true } | { ok: false; reason: 'bad-app-id' | 'rejected' | 'unreachable'; detail: string };

/** What to check: the app's id and secret, and where (`feishu`, `lark` or a base URL). */
export interface CredentialCheckInput {
  appId: string;
  appSecret: string;
  /** `feishu_bot.domain`: `feishu`, `lark`, or a base URL such as `http://127.0.0.1:8080`. */
  domain: string;
  /** Gives up (as `unreachable`) after this long; default 8000 ms. */
  timeoutMs?: number;
}

const DEFAULT_TIMEOUT_MS = 8_000;
/** Feishu's app-level rate-limit code (often with HTTP 400). */
const RATE_LIMITED = 99991400;

/** The SDK logs failed requests with the whole axios error (request body included): keep it silent. */
const silent: Lark.Logger = {
  error: () => undefined,
  warn: () => undefined,
  info: () => undefined,
  debug: () => undefined,
  trace: () => undefined,
};

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

/** `code 10014: app secret invalid`, from a Feishu answer body; undefined when it is not one. */
function feishuRefusal(body: unknown): string | undefined {
  if (!isRecord(body) || typeof body.code !== 'number' || body.code === 0) return undefined;
  const msg = typeof body.msg === 'string' ? body.msg.slice(0, 200) : '';
  return `code ${body.code}${msg ? `: ${msg}` : ''}`;
}

/**
 * Sorts an HTTP answer of the token endpoint: a Feishu refusal of the credentials is `rejected`;
 * a missing path (wrong host), a non-Feishu answer, a rate limit or a server error says nothing
 * about the credentials and is `unreachable`.
 */
function classifyAnswer(status: number, body: unknown): CredentialCheckResult {
  const refusal = feishuRefusal(body);
  const http = status === 200 ? '' : ` (HTTP ${status})`;
  if (status >= 500 || status === 429 || (isRecord(body) && body.code === RATE_LIMITED)) {
    return {
      ok: false,
      reason: 'unreachable',
      detail: `${refusal ?? `HTTP ${status}`}${refusal ? http : ''}, try again later`,
    };
  }
  if (status === 404 || !refusal)
    return {
      ok: false,
      reason: 'unreachable',
      detail: `HTTP ${status}: not a Feishu Open API token endpoint (is the domain right?)`,
    };
  return { ok: false, reason: 'rejected', detail: `${refusal}${http}` };
}

function describeFailure(err: unknown, timeoutMs: number): CredentialCheckResult {
  const e = isRecord(err) ? err : {};
  const response = isRecord(e.response) ? e.response : undefined;
  if (response) return classifyAnswer(typeof response.status === 'number' ? response.status : 0, response.data);
  if (
    e.code === 'ECONNABORTED' ||
    e.code === 'ETIMEDOUT' ||
    (typeof e.message === 'string' && /timeout/i.test(e.message))
  ) {
    return {
      ok: false,
      reason: 'unreachable',
      detail: `no answer within ${timeoutMs >= 1000 ? `${Math.round(timeoutMs / 1000)} s` : `${timeoutMs} ms`}`,
    };
  }
  const code = typeof e.code === 'string' ? e.code : '';
  const message = typeof e.message === 'string' ? e.message.slice(0, 200) : String(err).slice(0, 200);
  return {
    ok: false,
    reason: 'unreachable',
    detail: code && !message.includes(code) ? `${code}: ${message}` : message,
  };
}

/**
 * Asks Feishu/Lark for a tenant access token with these credentials — the cheapest call that
 * proves both the app id and the secret, and the first thing `cc-linker start` would do anyway.
 *
 * Uses the official SDK's `client.auth.tenantAccessToken.internal` with the token cache disabled:
 * the SDK caches tokens process-wide per app id, so a cached token would make a wrong secret look
 * right. Outcomes: `bad-app-id` (not `cli_` + 16 hex; no request is made), `rejected` (Feishu
 * answered with a non-zero code, e.g. a wrong secret or an app id of the other domain),
 * `unreachable` (network error, timeout, or a host that is not a Feishu Open API). The secret is
 * never part of `detail`.
 *
 * @example
 *   const r = await checkFeishuCredentials({ appId, appSecret, domain: config.feishu_bot.domain });
 *   if (!r.ok) console.error(r.reason, r.detail);
 */
export async function checkFeishuCredentials(input: CredentialCheckInput): Promise<CredentialCheckResult> {
  const appId = input.appId.trim();
  if (!FEISHU_APP_ID_PATTERN.test(appId))
    return { ok: false, reason: 'bad-app-id', detail: 'expected "cli_" followed by 16 hex digits' };
  const timeoutMs = input.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  // Belt and braces: no known answer echoes the secret, but a proxy or a custom host might.
  const scrub = (r: CredentialCheckResult): CredentialCheckResult =>
    r.ok || input.appSecret.length < 6 ? r : { ...r, detail: r.detail.split(input.appSecret).join('***') };
  let client: Lark.Client;
  try {
    client = new (larkSdk().Client)({
      appId,
      appSecret: input.appSecret,
      domain: larkDomain(input.domain),
      disableTokenCache: true,
      logger: silent,
      httpInstance: httpWithTimeout(timeoutMs),
    });
  } catch (err) {
    return scrub({
      ok: false,
      reason: 'rejected',
      detail: err instanceof Error ? err.message.slice(0, 200) : 'the SDK refused the credentials',
    });
  }
  try {
    const res: unknown = await client.auth.tenantAccessToken.internal({
      data: { app_id: appId, app_secret: input.appSecret },
    });
    if (
      isRecord(res) &&
      res.code === 0 &&
      typeof res.tenant_access_token === 'string' &&
      res.tenant_access_token.length > 0
    )
      return { ok: true };
    return scrub(classifyAnswer(200, res));
  } catch (err) {
    return scrub(describeFailure(err, timeoutMs));
  }
}
