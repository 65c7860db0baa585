import type { CcexecProviderConfig } from '../../core/config-schema.js';
import type { Language } from '../../core/i18n.js';
import { ANTHROPIC_BASE_URL, createAnthropicProvider } from './anthropic-provider.js';
import type { ModelProvider } from './canonical.js';
import { createOpenAIProvider, DOUBAO_BASE_URL, OPENAI_BASE_URL } from './openai-provider.js';
import { ProviderError } from './provider-error.js';

type Kind = CcexecProviderConfig['kind'];

/**
 * What cc-linker knows about one of the twelve well-known providers, so that a config table named after
 * it needs only `model` (and the key in the environment):
 *
 * ```toml
 * [ccexec.providers.deepseek]
 * kind = "openai-compatible"
 * model = "deepseek-chat"     # base_url and api_key_env = "DEEPSEEK_API_KEY" come from the preset
 * ```
 *
 * Whether tools are offered does not depend on the preset but on the kind and the table's `tools`
 * (`toolsModeOf`). `apiKeyEnv` empty means the server needs no key (a local Ollama).
 */
export type ProviderPreset = {
  label: string;
  kind: Kind;
  baseURL: string;
  apiKeyEnv: string;
  /** Other table names that select this preset. */
  aliases: readonly string[];
};

/** The twelve providers of the ChainlessChain app's own model list, keyed by the table name that selects them. */
export const knownProviderPresets: Readonly<Record<string, ProviderPreset>> = {
  openai: {
    label: 'OpenAI',
    kind: 'openai',
    baseURL: OPENAI_BASE_URL,
    apiKeyEnv: 'OPENAI_API_KEY',
    aliases: [],
  },
  anthropic: {
    label: 'Anthropic Claude',
    kind: 'anthropic',
    baseURL: ANTHROPIC_BASE_URL,
    apiKeyEnv: 'ANTHROPIC_API_KEY',
    aliases: ['claude'],
  },
  doubao: {
    label: '豆包 Doubao (Volcengine Ark)',
    kind: 'doubao',
    baseURL: DOUBAO_BASE_URL,
    apiKeyEnv: 'ARK_API_KEY',
    aliases: ['volcengine', 'ark'],
  },
  deepseek: {
    label: 'DeepSeek',
    kind: 'openai-compatible',
    baseURL: 'https://api.deepseek.com/v1',
    apiKeyEnv: 'DEEPSEEK_API_KEY',
    aliases: [],
  },
  qwen: {
    label: '通义千问 Qwen (DashScope)',
    kind: 'openai-compatible',
    baseURL: 'https://dashscope.aliyuncs.com/compatible-mode/v1',
    apiKeyEnv: 'DASHSCOPE_API_KEY',
    aliases: ['dashscope', 'tongyi'],
  },
  moonshot: {
    label: 'Moonshot Kimi',
    kind: 'openai-compatible',
    baseURL: 'https://api.moonshot.cn/v1',
    apiKeyEnv: 'MOONSHOT_API_KEY',
    aliases: ['kimi'],
  },
  zhipu: {
    label: '智谱 GLM',
    kind: 'openai-compatible',
    baseURL: 'https://open.bigmodel.cn/api/paas/v4',
    apiKeyEnv: 'ZHIPU_API_KEY',
    aliases: ['chatglm', 'glm', 'bigmodel'],
  },
  gemini: {
    label: 'Google Gemini (OpenAI-compatible)',
    kind: 'openai-compatible',
    baseURL: 'https://generativelanguage.googleapis.com/v1beta/openai',
    apiKeyEnv: 'GEMINI_API_KEY',
    aliases: [],
  },
  spark: {
    label: '讯飞星火 Spark',
    kind: 'openai-compatible',
    baseURL: 'https://spark-api-open.xf-yun.com/v1',
    apiKeyEnv: 'SPARK_API_KEY',
    aliases: ['xfyun', 'iflytek'],
  },
  ernie: {
    label: '文心 ERNIE (Qianfan)',
    kind: 'openai-compatible',
    baseURL: 'https://qianfan.baidubce.com/v2',
    apiKeyEnv: 'ERNIE_API_KEY',
    aliases: ['qianfan', 'wenxin'],
  },
  ollama: {
    label: 'Ollama (local)',
    kind: 'openai-compatible',
    baseURL: 'http://127.0.0.1:11434/v1',
    apiKeyEnv: '',
    aliases: [],
  },
  custom: {
    label: 'Custom OpenAI-compatible',
    kind: 'openai-compatible',
    baseURL: '',
    apiKeyEnv: '',
    aliases: [],
  },
};

const family = (kind: Kind): 'anthropic' | 'openai' => (kind === 'anthropic' ? 'anthropic' : 'openai');

/** The preset a table name selects (case-insensitive, aliases included), if any. */
export function findProviderPreset(id: string): ProviderPreset | undefined {
  const name = id.toLowerCase();
  return knownProviderPresets[name] ?? Object.values(knownProviderPresets).find((p) => p.aliases.includes(name));
}

/** A provider table as loaded, or as written by hand: every key but `kind` may be left out. */
export type ProviderConfigInput = Pick<CcexecProviderConfig, 'kind'> & Partial<Omit<CcexecProviderConfig, 'kind'>>;

/**
 * Whether a provider offers the `cc_exec` tool: `on` (`tools = true`, or an OpenAI, Doubao or Anthropic
 * table that leaves it unset — their tool calling is implemented and tested), `off` (`tools = false`:
 * plain chat with the anti-hallucination guard), or `auto` (an `openai-compatible` table that leaves it
 * unset: tools are tried, and a server that refuses them gets plain chat instead; see
 * docs/design.md, "Tools on OpenAI-compatible servers").
 *
 * @example toolsModeOf({ kind: 'openai-compatible' }) // 'auto'
 */
export function toolsModeOf(cfg: Pick<ProviderConfigInput, 'kind' | 'tools'>): 'on' | 'off' | 'auto' {
  if (cfg.tools !== undefined) return cfg.tools ? 'on' : 'off';
  return cfg.kind === 'openai-compatible' ? 'auto' : 'on';
}

const DEFAULT_KEY_ENV: Record<Kind, string> = {
  openai: 'OPENAI_API_KEY',
  anthropic: 'ANTHROPIC_API_KEY',
  doubao: 'ARK_API_KEY',
  'openai-compatible': '',
};
const DEFAULT_CONTEXT_LIMIT = 128_000;
/** Sent to a server that needs no key; the OpenAI client refuses to start without one. */
const NO_KEY = 'none';
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The preset a table's name selects, when it speaks the same protocol family. */
function presetFor(id: string, cfg: Pick<ProviderConfigInput, 'kind'>): ProviderPreset | undefined {
  const found = findProviderPreset(id);
  return found && family(found.kind) === family(cfg.kind) ? found : undefined;
}

/**
 * The name of the environment variable that holds `[ccexec.providers.<id>]`'s key: `api_key_env`,
 * else the preset's, else the kind's (`OPENAI_API_KEY`, `ARK_API_KEY`, `ANTHROPIC_API_KEY`); empty
 * when the server needs no key. Only the name: reading it is `createProvider`'s job.
 *
 * @example providerKeyEnv('deepseek', { kind: 'openai-compatible' }) // 'DEEPSEEK_API_KEY'
 */
export function providerKeyEnv(id: string, cfg: Pick<ProviderConfigInput, 'kind' | 'api_key_env'>): string {
  return cfg.api_key_env?.trim() || presetFor(id, cfg)?.apiKeyEnv || DEFAULT_KEY_ENV[cfg.kind];
}

/**
 * Builds the `ModelProvider` for `[ccexec.providers.<id>]`. Unset keys fall back to the preset the
 * table name selects (same protocol family only), then to the kind's default: base URL (OpenAI's,
 * Doubao's Ark, Anthropic's; `openai-compatible` needs one), key variable, tool switch.
 * The key is read from `env[api_key_env]` and goes nowhere but the SDK client; errors name the
 * variable, never a value — not even when `api_key_env` holds a key pasted by mistake.
 *
 * Throws `ProviderError` `missing_key` (variable unset or empty) or `config` (no model, no base URL,
 * `api_key_env` not a variable name).
 *
 * @example createProvider('doubao', { kind: 'doubao', model: 'ep-2025…' }, process.env)
 */
export function createProvider(
  id: string,
  cfg: ProviderConfigInput,
  env: NodeJS.ProcessEnv,
  opts: { fetch?: typeof fetch; language?: Language; maxTokens?: number } = {},
): ModelProvider {
  const language = opts.language;
  const configError = (zh: string, en: string): ProviderError =>
    new ProviderError('config', { providerId: id, model: cfg.model, language, detail: language === 'en' ? en : zh });
  const preset = presetFor(id, cfg);

  const model = cfg.model?.trim() ?? '';
  if (model === '') throw configError('缺少 model', 'model is not set');
  const apiKeyEnv = providerKeyEnv(id, cfg);
  if (apiKeyEnv !== '' && !ENV_NAME.test(apiKeyEnv)) {
    throw configError(
      'api_key_env 必须是环境变量的名字（例如 DEEPSEEK_API_KEY），不能是 key 本身',
      'api_key_env must be the name of an environment variable (such as DEEPSEEK_API_KEY), not the key itself',
    );
  }
  const apiKey = apiKeyEnv === '' ? NO_KEY : (env[apiKeyEnv]?.trim() ?? '');
  if (apiKey === '') throw new ProviderError('missing_key', { providerId: id, model, envVar: apiKeyEnv, language });

  const baseURL = cfg.base_url?.trim() || preset?.baseURL || '';
  if (baseURL === '' && cfg.kind === 'openai-compatible')
    throw configError('openai-compatible 类型必须设置 base_url', 'an openai-compatible provider needs base_url');
  const common = {
    id,
    model,
    apiKey,
    apiKeyEnv,
    language,
    contextLimit: cfg.context_limit ?? DEFAULT_CONTEXT_LIMIT,
    tools: toolsModeOf(cfg) !== 'off',
    ...(baseURL !== '' ? { baseURL } : {}),
    ...(opts.fetch ? { fetch: opts.fetch } : {}),
  };
  if (cfg.kind === 'anthropic')
    return createAnthropicProvider({ ...common, ...(opts.maxTokens ? { maxTokens: opts.maxTokens } : {}) });
  return createOpenAIProvider({ ...common, kind: cfg.kind, toolsAuto: toolsModeOf(cfg) === 'auto' });
}
