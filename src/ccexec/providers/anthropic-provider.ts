import type Anthropic from '@anthropic-ai/sdk';

type Sdk = typeof import('@anthropic-ai/sdk');
let sdk: Promise<Sdk> | undefined;
/** The SDK is loaded when a chat first streams, not at start-up (an idle bridge never needs it). */
const loadSdk = (): Promise<Sdk> => (sdk ??= import('@anthropic-ai/sdk'));
import type { Language } from '../../core/i18n.js';
import { registerSecret } from '../../core/redact.js';
import { AnthropicStreamDecoder, ANTHROPIC_DEFAULT_MAX_TOKENS, buildAnthropicRequest } from './anthropic-wire.js';
import type { ChatMessage, ModelProvider, ProviderEvent, ToolSpec } from './canonical.js';
import {
  providerErrorFrom,
  type ProviderErrorContext,
  type ProviderFailure,
  describeSdkFailure,
} from './provider-error.js';

/** Anthropic's own endpoint (the SDK appends `/v1/messages`). */
export const ANTHROPIC_BASE_URL = 'https://api.anthropic.com';

/**
 * One Anthropic Messages provider. `apiKeyEnv` only names the variable in error messages;
 * `maxTokens` defaults to 4096; `fetch` lets tests (and proxies) replace the transport.
 */
export type AnthropicProviderConfig = {
  id: string;
  baseURL?: string;
  apiKey: string;
  apiKeyEnv?: string;
  model: string;
  contextLimit: number;
  tools: boolean;
  maxTokens?: number;
  language?: Language;
  fetch?: typeof fetch;
};

function describeFailure(err: unknown, sdk: Sdk): ProviderFailure {
  // HTTP errors carry `{type:'error', error:{type, message}}`; a stream `error` event carries the same.
  return describeSdkFailure(
    err,
    sdk,
    (body) => (body as { error?: { type?: unknown; message?: unknown } }).error ?? {},
  );
}

/**
 * A `ModelProvider` over the official `@anthropic-ai/sdk`: streamed Messages with `tool_use` blocks
 * and `input_json_delta` pieces, tool results sent back in a user turn. The key is passed explicitly
 * so the SDK reads no `ANTHROPIC_*` credential or profile; it retries once on 429/5xx and logs nothing.
 *
 * @example
 *   const p = createAnthropicProvider({ id: 'anthropic', apiKey, model: 'claude-…', contextLimit: 200000, tools: true });
 */
export function createAnthropicProvider(cfg: AnthropicProviderConfig): ModelProvider {
  registerSecret(cfg.apiKey);
  const baseURL = cfg.baseURL || ANTHROPIC_BASE_URL;
  const ctx: ProviderErrorContext = {
    providerId: cfg.id,
    model: cfg.model,
    baseURL,
    apiKey: cfg.apiKey,
    apiKeyEnv: cfg.apiKeyEnv,
    language: cfg.language,
  };
  let client: Anthropic | undefined;
  const clientOf = (S: Sdk): Anthropic =>
    (client ??= new S.default({
      apiKey: cfg.apiKey,
      baseURL,
      maxRetries: 1,
      logLevel: 'off',
      openTelemetry: false,
      ...(cfg.fetch ? { fetch: cfg.fetch } : {}),
    }));

  async function* stream(
    messages: ChatMessage[],
    tools: ToolSpec[],
    signal?: AbortSignal,
  ): AsyncIterable<ProviderEvent> {
    const decoder = new AnthropicStreamDecoder();
    const body = buildAnthropicRequest(
      cfg.model,
      messages,
      cfg.tools ? tools : [],
      cfg.maxTokens ?? ANTHROPIC_DEFAULT_MAX_TOKENS,
    );
    const S = await loadSdk();
    try {
      const events = await clientOf(S).messages.create(body, { signal });
      for await (const event of events) yield* decoder.push(event);
    } catch (err) {
      throw providerErrorFrom(describeFailure(err, S), ctx, signal);
    }
    // The SDK ends an aborted stream quietly; the caller must still learn the turn is incomplete.
    if (signal?.aborted) throw providerErrorFrom({ type: 'abort' }, ctx, signal);
    yield* decoder.end();
  }

  return {
    id: cfg.id,
    kind: 'anthropic',
    model: cfg.model,
    supportsTools: cfg.tools,
    contextLimit: cfg.contextLimit,
    stream,
    prepare: () => loadSdk().then(() => undefined),
  };
}
