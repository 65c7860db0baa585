import { AppError } from '../../core/app-error.js';
import { defineMessages, type Language } from '../../core/i18n.js';
import { redact } from '../../core/redact.js';

/**
 * What went wrong talking to a model service, in the terms a user can act on:
 * `auth` (key rejected, 401/403), `model_not_found` (404 — a wrong model or Doubao endpoint id),
 * `rate_limit` (429/402 — throttled or out of quota), `network` (no connection, DNS, timeout),
 * `bad_request` (400/413/422), `tools_rejected` (a 400/422 or an in-stream error about the tools sent:
 * the model or server has no tool calling), `server` (5xx and
 * other upstream failures), `protocol` (a reply we could not read), `missing_key` (the configured
 * environment variable is unset), `config` (the provider table is incomplete), `aborted` (cancelled).
 */
export type ProviderErrorKind =
  | 'auth'
  | 'model_not_found'
  | 'rate_limit'
  | 'network'
  | 'bad_request'
  | 'tools_rejected'
  | 'server'
  | 'protocol'
  | 'missing_key'
  | 'config'
  | 'aborted';

const CODES: Record<ProviderErrorKind, string> = {
  auth: 'PROVIDER_AUTH',
  model_not_found: 'PROVIDER_MODEL_NOT_FOUND',
  rate_limit: 'PROVIDER_RATE_LIMIT',
  network: 'PROVIDER_NETWORK',
  bad_request: 'PROVIDER_BAD_REQUEST',
  tools_rejected: 'PROVIDER_TOOLS_REJECTED',
  server: 'PROVIDER_SERVER',
  protocol: 'PROVIDER_PROTOCOL',
  missing_key: 'PROVIDER_MISSING_KEY',
  config: 'PROVIDER_CONFIG',
  aborted: 'PROVIDER_ABORTED',
};

const RETRYABLE: ReadonlySet<ProviderErrorKind> = new Set(['rate_limit', 'network', 'server']);

const messages = defineMessages<ProviderErrorKind>({
  zh: {
    auth: '模型服务 {provider} 拒绝了 API key（HTTP {status}）。请检查 {envVar} 中的 key 是否有效、是否属于这个服务和地域。',
    model_not_found:
      '模型服务 {provider} 找不到模型 {model}（HTTP 404）。请检查配置里的 model（豆包可填接入点 ID ep-…）和 base_url。',
    rate_limit: '模型服务 {provider} 限流或额度不足（HTTP {status}），请稍后再试。',
    network: '连不上模型服务 {provider}（{baseURL}）：{detail}。请检查网络、代理和 base_url。',
    bad_request:
      '模型服务 {provider} 拒绝了请求（HTTP {status}）：{detail}。如果模型 {model} 不支持工具调用，请在配置里设 tools = false。',
    tools_rejected:
      '模型服务 {provider} 的模型 {model} 不接受工具调用（HTTP {status}）：{detail}。配置里写了 tools = true：请改成 tools = false（普通对话），或删掉这一行让 cc-linker 自动退回普通对话，或换一个支持工具调用的模型。',
    server: '模型服务 {provider} 出错（{status}）：{detail}。请稍后再试。',
    protocol: '模型服务 {provider} 返回了无法识别的数据：{detail}',
    missing_key: '模型服务 {provider} 缺少 API key：环境变量 {envVar} 未设置。',
    config: '模型服务 {provider} 的配置不完整：{detail}',
    aborted: '已取消对模型服务 {provider} 的请求。',
  },
  en: {
    auth: 'The model service {provider} rejected the API key (HTTP {status}). Check that the key in {envVar} is valid and belongs to this service and region.',
    model_not_found:
      'The model service {provider} has no model {model} (HTTP 404). Check `model` (a Doubao endpoint id ep-… works too) and `base_url` in the config.',
    rate_limit: 'The model service {provider} is rate-limiting or out of quota (HTTP {status}); try again later.',
    network: 'Cannot reach the model service {provider} ({baseURL}): {detail}. Check the network, proxy and base_url.',
    bad_request:
      'The model service {provider} rejected the request (HTTP {status}): {detail}. If the model {model} does not support tool calls, set tools = false in the config.',
    tools_rejected:
      'The model {model} of the model service {provider} does not accept tool calls (HTTP {status}): {detail}. The config says tools = true: set tools = false (plain chat), or remove the line so that cc-linker falls back to plain chat by itself, or pick a model with tool calling.',
    server: 'The model service {provider} failed ({status}): {detail}. Try again later.',
    protocol: 'The model service {provider} sent a reply that could not be read: {detail}',
    missing_key: 'No API key for the model service {provider}: the environment variable {envVar} is not set.',
    config: 'The configuration of the model service {provider} is incomplete: {detail}',
    aborted: 'The request to the model service {provider} was cancelled.',
  },
});

/** Everything a message may name. None of it is secret; `detail` is scrubbed before use. */
export type ProviderErrorParams = {
  providerId: string;
  model?: string;
  status?: number;
  baseURL?: string;
  envVar?: string;
  detail?: string;
  language?: Language;
};

/**
 * The error of the provider layer. `userMessage` is localized and never contains the API key (the
 * server's own wording is scrubbed of it and of every key-shaped token); `cause` is a scrubbed copy
 * of the SDK error, never the SDK error itself, so logging it cannot leak a key either.
 *
 * @example new ProviderError('missing_key', { providerId: 'deepseek', envVar: 'DEEPSEEK_API_KEY' })
 */
export class ProviderError extends AppError {
  readonly kind: ProviderErrorKind;
  readonly providerId: string;
  /** HTTP status when the service answered one. */
  readonly status: number | undefined;
  /** The key's environment variable (its name; `missing_key` names the one to set). */
  readonly envVar: string | undefined;
  /** True when the same request may succeed later (rate limit, network, 5xx). */
  readonly retryable: boolean;

  constructor(kind: ProviderErrorKind, params: ProviderErrorParams, options: { cause?: unknown } = {}) {
    const t = messages(params.language ?? 'zh');
    const text = t(kind, {
      provider: params.providerId,
      model: params.model ?? '',
      status: params.status ?? '-',
      baseURL: params.baseURL ? displayURL(params.baseURL) : '-',
      envVar: params.envVar ?? 'api_key_env',
      detail: params.detail ?? '-',
    });
    super(CODES[kind], text, { ...options, exitCode: kind === 'aborted' ? 130 : 1 });
    this.kind = kind;
    this.providerId = params.providerId;
    this.status = params.status;
    this.envVar = params.envVar;
    this.retryable = RETRYABLE.has(kind);
  }
}

/** What a provider learnt from its SDK's error, before classification (see `providerErrorFrom`). */
export type ProviderFailure =
  | { type: 'abort' }
  | { type: 'timeout'; detail: string }
  | { type: 'connection'; detail: string }
  | { type: 'unknown'; detail: string }
  /** An HTTP error status, or an `error` event inside the stream (no status, a typed body). */
  | { type: 'http'; status?: number; detail: string; errorType?: string };

/** The error classes both official SDKs export (same shapes: both clients are generated alike). */
export interface SdkErrorClasses {
  APIUserAbortError: abstract new (...args: never[]) => Error;
  APIConnectionTimeoutError: abstract new (...args: never[]) => Error;
  APIConnectionError: abstract new (...args: never[]) => Error;
  APIError: abstract new (...args: never[]) => Error & { status?: number; error?: unknown };
}

/**
 * Classifies what an SDK threw. `bodyOf` reads the provider's error body (OpenAI puts
 * `{message, type|code}` at the top, Anthropic nests `{error: {type, message}}`).
 */
export function describeSdkFailure(
  err: unknown,
  sdk: SdkErrorClasses,
  bodyOf: (error: unknown) => { message?: unknown; type?: unknown },
): ProviderFailure {
  if (err instanceof sdk.APIUserAbortError) return { type: 'abort' };
  if (err instanceof sdk.APIConnectionTimeoutError) return { type: 'timeout', detail: 'timeout' };
  if (err instanceof sdk.APIConnectionError) {
    const cause = err.cause instanceof Error ? err.cause.message : '';
    return { type: 'connection', detail: cause || err.message };
  }
  if (err instanceof sdk.APIError) {
    const body = bodyOf(typeof err.error === 'object' && err.error !== null ? err.error : {});
    const detail = typeof body.message === 'string' ? body.message : err.message;
    return {
      type: 'http',
      status: err.status,
      detail,
      errorType: typeof body.type === 'string' ? body.type : undefined,
    };
  }
  return { type: 'unknown', detail: err instanceof Error ? err.message : String(err) };
}

/** Who failed, and the one secret that must be kept out of the result. */
export type ProviderErrorContext = {
  providerId: string;
  model: string;
  baseURL: string;
  apiKey: string;
  apiKeyEnv?: string;
  language?: Language;
  /** The request offered tools: a rejection that names them is `tools_rejected`, not `bad_request`. */
  toolsSent?: boolean;
};

/**
 * How servers word "this model cannot call tools": Ollama's `… does not support tools`, vLLM's
 * `"auto" tool choice requires --enable-auto-tool-choice`, `tool_choice` / `functions` not supported.
 */
const ABOUT_TOOLS = /\btools?\b|tool[_ ]?(choice|call)|\bfunctions?\b|function[_ ]?call/i;

/**
 * A request with tools refused because of them: HTTP 400/422, or an error inside the stream (no
 * status) that is not one of the other typed errors, whose text is about tools or functions.
 */
function rejectsTools(failure: Extract<ProviderFailure, { type: 'http' }>, kind: ProviderErrorKind): boolean {
  const refused =
    failure.status === 400 ||
    failure.status === 422 ||
    (failure.status === undefined && (kind === 'bad_request' || kind === 'server'));
  return refused && ABOUT_TOOLS.test(failure.detail);
}

const STREAM_ERROR_TYPES: Record<string, ProviderErrorKind> = {
  authentication_error: 'auth',
  permission_error: 'auth',
  not_found_error: 'model_not_found',
  rate_limit_error: 'rate_limit',
  rate_limit_exceeded: 'rate_limit',
  insufficient_quota: 'rate_limit',
  invalid_request_error: 'bad_request',
  request_too_large: 'bad_request',
};

function kindOfStatus(status: number): ProviderErrorKind {
  if (status === 401 || status === 403) return 'auth';
  if (status === 404) return 'model_not_found';
  if (status === 429 || status === 402) return 'rate_limit';
  if (status === 400 || status === 413 || status === 422) return 'bad_request';
  return 'server';
}

/**
 * Classifies a failure into a `ProviderError`. An aborted `signal` wins over whatever the SDK threw
 * while being torn down. A refusal that names tools, of a request that sent some, is `tools_rejected`. `auth` never quotes the server (OpenAI echoes part of a wrong key).
 */
export function providerErrorFrom(
  failure: ProviderFailure,
  ctx: ProviderErrorContext,
  signal?: AbortSignal,
): ProviderError {
  const base = {
    providerId: ctx.providerId,
    model: ctx.model,
    baseURL: ctx.baseURL,
    envVar: ctx.apiKeyEnv,
    language: ctx.language,
  };
  if (signal?.aborted || failure.type === 'abort') return new ProviderError('aborted', base);
  const detail = scrubSecret(failure.detail, ctx.apiKey);
  const cause = new Error(detail);
  if (failure.type === 'timeout' || failure.type === 'connection') {
    return new ProviderError('network', { ...base, detail }, { cause });
  }
  if (failure.type === 'unknown') return new ProviderError('protocol', { ...base, detail }, { cause });
  const classified =
    failure.status !== undefined
      ? kindOfStatus(failure.status)
      : (STREAM_ERROR_TYPES[failure.errorType ?? ''] ?? 'server');
  const kind = ctx.toolsSent === true && rejectsTools(failure, classified) ? 'tools_rejected' : classified;
  return new ProviderError(
    kind,
    { ...base, status: failure.status, detail: kind === 'auth' ? undefined : detail },
    { cause },
  );
}

/**
 * Removes the key (and every key-shaped token `redact` knows) from text that came from a server or
 * an SDK, and keeps it to one short line so a hostile error page cannot flood a chat card.
 */
export function scrubSecret(text: string, secret: string): string {
  const withoutKey = secret.length > 0 ? text.split(secret).join('***') : text;
  const line = redact(withoutKey).replace(/\s+/g, ' ').trim();
  return line.length > 300 ? `${line.slice(0, 300)}…` : line;
}

/** Origin and path only: a query string could carry a credential. */
export function displayURL(url: string): string {
  try {
    const u = new URL(url);
    return `${u.origin}${u.pathname}`;
  } catch {
    return redact(url);
  }
}
