import type OpenAI from 'openai';

type Sdk = typeof import('openai');
let sdk: Promise<Sdk> | undefined;
/** The SDK is loaded when a chat first streams, not at start-up (an idle bridge never needs it). */
const loadSdk = (): Promise<Sdk> => (sdk ??= import('openai'));
import type { Language } from '../../core/i18n.js';
import { registerSecret } from '../../core/redact.js';
import type { ChatMessage, ModelProvider, ProviderEvent, ToolSpec } from './canonical.js';
import { buildOpenAIRequest, OpenAIStreamDecoder } from './openai-wire.js';
import {
  ProviderError,
  providerErrorFrom,
  type ProviderErrorContext,
  type ProviderFailure,
  describeSdkFailure,
} from './provider-error.js';

/** OpenAI's own endpoint, used when an `openai` provider names no `base_url`. */
export const OPENAI_BASE_URL = 'https://api.openai.com/v1';
/** Volcengine Ark (mainland China); BytePlus international is `https://ark.ap-southeast.bytepluses.com/api/v3`. */
export const DOUBAO_BASE_URL = 'https://ark.cn-beijing.volces.com/api/v3';

/**
 * One OpenAI-protocol provider. `kind` picks the default endpoint (`openai`, `doubao`); an
 * `openai-compatible` provider must name its `baseURL`. `apiKeyEnv` only names the variable in error
 * messages. `fetch` lets tests (and proxies) replace the transport.
 */
export type OpenAIProviderConfig = {
  id: string;
  kind: 'openai' | 'doubao' | 'openai-compatible';
  baseURL?: string;
  apiKey: string;
  apiKeyEnv?: string;
  model: string;
  contextLimit: number;
  tools: boolean;
  /** Tools are tried, not required (`tools` unset for an `openai-compatible` provider): see `ModelProvider.toolsAuto`. */
  toolsAuto?: boolean;
  language?: Language;
  fetch?: typeof fetch;
};

function describeFailure(err: unknown, sdk: Sdk): ProviderFailure {
  return describeSdkFailure(err, sdk, (body) => {
    const b = body as { message?: unknown; type?: unknown; code?: unknown };
    return { message: b.message, type: typeof b.type === 'string' ? b.type : b.code };
  });
}

/**
 * A `ModelProvider` over the official `openai` client (v6): OpenAI, Doubao / Volcengine Ark and any
 * OpenAI-compatible server (DeepSeek, Qwen, Moonshot, Zhipu, Gemini, Ollama …). Streams
 * chat.completions with usage, retries once on 429/5xx (the SDK's own backoff), and never lets
 * the SDK read `OPENAI_*` variables or log to stdout (the terminal `ask` prints its answer there).
 *
 * @example
 *   const p = createOpenAIProvider({ id: 'doubao', kind: 'doubao', apiKey, model: 'ep-…', contextLimit: 128000, tools: true });
 *   for await (const ev of p.stream(messages, [ccExecTool], signal)) …
 */
export function createOpenAIProvider(cfg: OpenAIProviderConfig): ModelProvider {
  registerSecret(cfg.apiKey);
  const baseURL =
    cfg.baseURL || (cfg.kind === 'doubao' ? DOUBAO_BASE_URL : cfg.kind === 'openai' ? OPENAI_BASE_URL : '');
  const ctx: ProviderErrorContext = {
    providerId: cfg.id,
    model: cfg.model,
    baseURL,
    apiKey: cfg.apiKey,
    apiKeyEnv: cfg.apiKeyEnv,
    language: cfg.language,
  };
  if (baseURL === '') {
    const detail =
      cfg.language === 'en'
        ? 'an openai-compatible provider needs base_url'
        : 'openai-compatible 类型必须设置 base_url';
    throw new ProviderError('config', { providerId: cfg.id, model: cfg.model, language: cfg.language, detail });
  }
  let client: OpenAI | undefined;
  const clientOf = (S: Sdk): OpenAI =>
    (client ??= new S.default({
      apiKey: cfg.apiKey,
      baseURL,
      maxRetries: 1,
      organization: null,
      project: null,
      webhookSecret: null,
      logLevel: 'off',
      ...(cfg.fetch ? { fetch: cfg.fetch } : {}),
    }));

  async function* stream(
    messages: ChatMessage[],
    tools: ToolSpec[],
    signal?: AbortSignal,
  ): AsyncIterable<ProviderEvent> {
    const decoder = new OpenAIStreamDecoder();
    const offered = cfg.tools ? tools : [];
    const body = buildOpenAIRequest(cfg.model, messages, offered);
    const S = await loadSdk();
    try {
      const chunks = await clientOf(S).chat.completions.create(body, { signal });
      for await (const chunk of chunks) yield* decoder.push(chunk);
    } catch (err) {
      throw providerErrorFrom(describeFailure(err, S), { ...ctx, toolsSent: offered.length > 0 }, signal);
    }
    // The SDK ends an aborted stream quietly; the caller must still learn the turn is incomplete.
    if (signal?.aborted) throw providerErrorFrom({ type: 'abort' }, ctx, signal);
    yield* decoder.end();
  }

  return {
    id: cfg.id,
    kind: cfg.kind,
    model: cfg.model,
    supportsTools: cfg.tools,
    toolsAuto: cfg.tools && cfg.toolsAuto === true,
    contextLimit: cfg.contextLimit,
    stream,
    prepare: () => loadSdk().then(() => undefined),
  };
}
