import { z } from 'zod';

/**
 * The schema of `~/.cc-linker/config.toml`: every section, key and default of the design (seed
 * §5.2 and §4.6.8) plus this project's additions (`general.language`, `feishu_bot.domain`,
 * `claude.mode`, `claude.models`, `[web]`, `[ccexec]`). Keys stay snake_case as in the file, so the
 * key a user sees in an error message is the key they typed.
 */
const positiveInt = z.number().int().positive();
const nonNegativeInt = z.number().int().nonnegative();
const port = z.number().int().min(1).max(65535);

export const permissionModes = ['default', 'acceptEdits', 'bypassPermissions', 'plan', 'dontAsk'] as const;

export const generalSchema = z.object({
  log_level: z.enum(['debug', 'info', 'warn', 'error']).default('info'),
  /** Log file; the empty string means stderr. */
  log_path: z.string().default('~/.cc-linker/cc-linker.log'),
  /** The `claude` binary for the `json` / `stream-json` modes; empty = `claude` on PATH, else the SDK's bundled binary. */
  claude_bin: z.string().default(''),
  language: z.enum(['zh', 'en']).default('zh'),
});

export const feishuBotSchema = z.object({
  app_id: z.string().default(''),
  app_secret: z.string().default(''),
  owner_open_id: z.string().default(''),
  allow_auto_bind_owner: z.boolean().default(false),
  default_cwd: z.string().default(''),
  /** `feishu`, `lark` (international) or a base URL such as `http://127.0.0.1:8080`. */
  domain: z.string().refine((v) => v === 'feishu' || v === 'lark' || /^https?:\/\/[^\s]+$/.test(v), { message: 'expected "feishu", "lark" or a base URL starting with http:// or https://' }).default('feishu'),
});

export const runtimeSchema = z.object({
  stale_timeout_ms: positiveInt.default(300_000),
  hard_timeout_ms: positiveInt.default(1_800_000),
  max_concurrent_sessions: positiveInt.default(5),
  idle_timeout_ms: positiveInt.default(1_800_000),
  session_lock_timeout_ms: positiveInt.default(600_000),
});

export const queueSchema = z.object({
  spool_dir: z.string().default('~/.cc-linker/spool'),
  max_pending: positiveInt.default(100),
  worker_concurrency: positiveInt.default(5),
  done_retention_hours: nonNegativeInt.default(24),
  done_max_files: nonNegativeInt.default(1000),
  failed_retention_days: nonNegativeInt.default(7),
  failed_max_files: nonNegativeInt.default(200),
  delivery_retention_days: nonNegativeInt.default(7),
  list_snapshot_ttl_minutes: positiveInt.default(10),
});

export const cliProxySchema = z.object({
  port: port.default(9820),
  host: z.string().default('localhost'),
  timeout_ms: positiveInt.default(1_800_000),
  token: z.string().default(''),
});

export const scannerSchema = z.object({
  max_file_size: positiveInt.default(104_857_600),
  incremental: z.boolean().default(true),
});

export const sdkSchema = z.object({
  enabled: z.boolean().default(true),
  timeout_ms: positiveInt.default(600_000),
  permission_mode: z.enum(permissionModes).default('acceptEdits'),
  /** Empty = the Claude Code binary bundled with the Agent SDK. */
  claude_executable: z.string().default(''),
});

export const claudeSchema = z.object({
  /** `auto` = `sdk` when `sdk.enabled`, else `stream-json` when `stream.enabled`, else `json`. */
  mode: z.enum(['auto', 'sdk', 'stream-json', 'json']).default('auto'),
  permission_mode: z.enum(permissionModes).default('default'),
  allowed_tools: z.array(z.string()).default(['Read', 'Grep', 'Glob']),
  disallowed_tools: z.array(z.string()).default([]),
  /** Aliases for `/model`: `{ sonnet = "claude-sonnet-4-5" }`. */
  models: z.record(z.string(), z.string()).default({}),
  default_model: z.string().default(''),
});

export const streamSchema = z.object({
  enabled: z.boolean().default(true),
  throttle_ms: positiveInt.default(1500),
  show_thinking: z.boolean().default(true),
  max_card_bytes: positiveInt.default(25_000),
  fallback_to_text: z.boolean().default(true),
  show_action_buttons: z.boolean().default(true),
  keep_processing_card: z.boolean().default(false),
});

export const imagesSchema = z.object({
  enabled: z.boolean().default(true),
  max_size_bytes: positiveInt.default(10_485_760),
  cleanup_max_age_hours: positiveInt.default(24),
});

export const securitySchema = z.object({
  allowed_roots: z.array(z.string()).default(['~/Git', '~/Workspace']),
  denied_roots: z.array(z.string()).default(['~', '/', '~/Downloads', '~/Desktop']),
  confirm_risky_actions: z.boolean().default(true),
});

export const webSchema = z.object({
  enabled: z.boolean().default(true),
  host: z.string().default('127.0.0.1'),
  port: port.default(9820),
  /** Empty = a random token generated once and stored 0600 in `~/.cc-linker/web-token`. */
  token: z.string().default(''),
});

export const ccexecProviderSchema = z.object({
  kind: z.enum(['openai', 'anthropic', 'doubao', 'openai-compatible']),
  base_url: z.string().default(''),
  /** Name of the environment variable holding the key; the key itself never goes in the file. */
  api_key_env: z.string().default(''),
  model: z.string().default(''),
  /** Unset = the provider preset's context window. */
  context_limit: positiveInt.optional(),
  /** Unset = the preset's default (OpenAI, Anthropic, Doubao call tools; most others start as plain chat). */
  tools: z.boolean().optional(),
});

export const ccexecSchema = z.object({
  /** argv prefix of the ChainlessChain CLI, e.g. `["chainlesschain"]` or `["/usr/bin/node", "/x/bin/chainlesschain.js"]`. Never `cc`. */
  cli: z.array(z.string().min(1)).min(1).default(['chainlesschain']),
  cwd: z.string().default('~'),
  timeout_ms: positiveInt.default(30_000),
  default_provider: z.string().default(''),
  /** Extra environment variable names passed to the CLI (secrets are still filtered). */
  env_allow: z.array(z.string()).default([]),
  providers: z.record(z.string(), ccexecProviderSchema).default({}),
});

export const configSchema = z.object({
  general: generalSchema.default(generalSchema.parse({})),
  feishu_bot: feishuBotSchema.default(feishuBotSchema.parse({})),
  runtime: runtimeSchema.default(runtimeSchema.parse({})),
  queue: queueSchema.default(queueSchema.parse({})),
  cli_proxy: cliProxySchema.default(cliProxySchema.parse({})),
  scanner: scannerSchema.default(scannerSchema.parse({})),
  sdk: sdkSchema.default(sdkSchema.parse({})),
  claude: claudeSchema.default(claudeSchema.parse({})),
  stream: streamSchema.default(streamSchema.parse({})),
  images: imagesSchema.default(imagesSchema.parse({})),
  security: securitySchema.default(securitySchema.parse({})),
  web: webSchema.default(webSchema.parse({})),
  ccexec: ccexecSchema.default(ccexecSchema.parse({})),
});

/** The validated configuration, snake_case keys as in the TOML file. Paths are already `~`-expanded. */
export type Config = z.infer<typeof configSchema>;
export type CcexecProviderConfig = z.infer<typeof ccexecProviderSchema>;
