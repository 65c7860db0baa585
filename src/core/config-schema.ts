/**
 * The schema of `~/.cc-linker/config.toml`: every section, key and default (what each section is
 * for: docs/design.md#configuration). Keys stay snake_case as in the file, so the key a user sees
 * in an error message is the key they typed.
 *
 * The schema is plain data checked by `validateConfig` (config-validate.ts) rather than a schema
 * library: it is on the start-up path of every command, and `cc-linker list` must start fast.
 */

import {
  checkAgentCommand,
  checkAgentEnv,
  checkAgentEnvPass,
  checkAgentName,
  AGENT_TABLE_EXPECTED,
} from './check-agents.js';
import { checkCcexecCli } from './check-ccexec-cli.js';
import {
  apiRootCheck,
  dingtalkCardKeyCheck,
  dingtalkIdCheck,
  dingtalkSecretCheck,
  dingtalkStaffIdCheck,
  domainCheck,
  envNamesCheck,
  slackApiUrlCheck,
  slackTokenCheck,
  slackUserIdCheck,
  telegramTokenCheck,
  telegramUserIdCheck,
  telegramWebhookListenCheck,
  telegramWebhookSecretCheck,
  telegramWebhookUrlCheck,
} from './config-checks.js';
import type { LocalizedText } from './i18n.js';

export const permissionModes = ['default', 'acceptEdits', 'bypassPermissions', 'plan', 'dontAsk'] as const;
export type PermissionMode = (typeof permissionModes)[number];

export interface CcexecProviderConfig {
  kind: 'openai' | 'anthropic' | 'doubao' | 'openai-compatible';
  base_url: string;
  /** Name of the environment variable holding the key; the key itself never goes in the file. */
  api_key_env: string;
  model: string;
  /** Unset = the provider preset's context window. */
  context_limit?: number;
  /** Unset = the preset's default (OpenAI, Anthropic, Doubao call tools; most others start as plain chat). */
  tools?: boolean;
}

/**
 * One `[agents.<name>]` table: a built-in profile's overrides, or a whole new ACP agent (then
 * `command` is required). Merged with the built-in profile by agents/agent-profiles.ts.
 */
export interface AgentConfig {
  kind: 'acp';
  /** argv; a bare first word is looked up on PATH. Unset = the built-in profile's command. */
  command?: string[];
  /** Extra variables with their values (`~` expanded); never secrets. Added to the profile's. */
  env: Record<string, string>;
  /** Names of variables copied from cc-linker's own environment (how a key reaches the agent). */
  env_pass: string[];
}

/** The validated configuration. Paths are already `~`-expanded by `loadConfig`. */
export interface Config {
  general: {
    log_level: 'debug' | 'info' | 'warn' | 'error';
    log_path: string;
    claude_bin: string;
    language: 'zh' | 'en';
  };
  feishu_bot: {
    app_id: string;
    app_secret: string;
    owner_open_id: string;
    allow_auto_bind_owner: boolean;
    default_cwd: string;
    domain: string;
  };
  /** The Telegram bot (docs/design.md#telegram): long polling, the owner's private chat only. */
  telegram: {
    enabled: boolean;
    /** From @BotFather; a secret (it is part of every Bot API URL). */
    bot_token: string;
    /** The owner's numeric Telegram user id; empty = auto-bind (if allowed) or nobody. */
    owner_user_id: string;
    allow_auto_bind_owner: boolean;
    /** Bot API base URL without a trailing slash (tests: the fake server; or a self-hosted Bot API server). */
    api_root: string;
    /** The public HTTPS URL Telegram posts updates to; empty = long polling (docs/design.md#telegram). */
    webhook_url: string;
    /** `host:port` our own HTTP server binds for the webhook, behind the user's HTTPS reverse proxy or tunnel. */
    webhook_listen: string;
    /** Telegram's `secret_token` header value; empty = generated once and kept in the runtime folder. A secret. */
    webhook_secret: string;
  };
  /** The Slack app (docs/design.md#slack): Socket Mode, the owner's direct messages only. */
  slack: {
    enabled: boolean;
    /** The bot token (`xoxb-…`); a secret. */
    bot_token: string;
    /** The app-level token with `connections:write` (`xapp-…`), for Socket Mode; a secret. */
    app_token: string;
    /** The owner's Slack member id (`U…`); empty = auto-bind (if allowed) or nobody. */
    owner_user_id: string;
    allow_auto_bind_owner: boolean;
    /** Web API base URL ending in `/` (tests: the fake server). */
    api_url: string;
  };
  /** The DingTalk robot (docs/design.md#dingtalk): Stream mode, the owner's single chat only. */
  dingtalk: {
    enabled: boolean;
    /** The app's Client ID (AppKey); also the robot code. */
    client_id: string;
    /** The app's Client Secret (AppSecret); a secret. */
    client_secret: string;
    /** The owner's staffId (senderStaffId); empty = auto-bind (if allowed) or nobody. */
    owner_staff_id: string;
    allow_auto_bind_owner: boolean;
    /** OpenAPI base URL without a trailing slash; the Stream gateway is `<api_base>/v1.0/gateway/connections/open`. */
    api_base: string;
    /** The legacy host of `media/upload` (files the agent sends) without a trailing slash. */
    oapi_base: string;
    /** An AI card template of the app (empty = no card: replies are markdown messages). */
    card_template_id: string;
    /** The template's streamed markdown variable. */
    card_template_key: string;
  };
  runtime: {
    stale_timeout_ms: number;
    hard_timeout_ms: number;
    max_concurrent_sessions: number;
    idle_timeout_ms: number;
    session_lock_timeout_ms: number;
    /** How long a session's agent process is kept alive after its last turn, for the next message (0 = off). */
    warm_idle_ms: number;
    /** At most this many kept processes; the least recently used is ended first (0 = off). */
    max_warm: number;
    /** A turn cut by a crash or restart: resume it at once (`continue`) or ask the owner first (`ask`). */
    recovery: 'continue' | 'ask';
  };
  queue: {
    spool_dir: string;
    max_pending: number;
    worker_concurrency: number;
    done_retention_hours: number;
    done_max_files: number;
    failed_retention_days: number;
    failed_max_files: number;
    delivery_retention_days: number;
    list_snapshot_ttl_minutes: number;
  };
  cli_proxy: { port: number; host: string; timeout_ms: number; token: string };
  scanner: { max_file_size: number; incremental: boolean };
  sdk: { enabled: boolean; timeout_ms: number; permission_mode: PermissionMode; claude_executable: string };
  claude: {
    mode: 'auto' | 'sdk' | 'stream-json' | 'json';
    permission_mode: PermissionMode;
    allowed_tools: string[];
    disallowed_tools: string[];
    models: Record<string, string>;
    default_model: string;
    /** More environment variables Claude Code may see: exact names or `PREFIX_*`. */
    env_allow: string[];
  };
  stream: {
    enabled: boolean;
    throttle_ms: number;
    show_thinking: boolean;
    max_card_bytes: number;
    fallback_to_text: boolean;
    show_action_buttons: boolean;
    keep_processing_card: boolean;
  };
  images: { enabled: boolean; max_size_bytes: number; cleanup_max_age_hours: number };
  /**
   * Files: those the user sends (any type, downloaded under `Paths.attachmentsDir`) and those the
   * agent sends into the chat (`mcp__cc-linker__send_file`, docs/design.md#files-out).
   */
  files: { enabled: boolean; max_size_bytes: number; cleanup_max_age_hours: number; send_without_prompt: boolean };
  /**
   * Voice messages turned into text (docs/design.md#voice-in): `enabled = false` answers them "voice
   * is off"; longer than `max_seconds` is refused. `service` picks the speech-to-text: Feishu's, or an
   * OpenAI-compatible transcription endpoint (`api_base`, `api_key`, `model`); `auto` = Feishu's when
   * a Feishu app is set up, else the endpoint when it has a key.
   */
  voice: {
    enabled: boolean;
    max_seconds: number;
    service: 'auto' | 'feishu' | 'openai';
    api_base: string;
    api_key: string;
    model: string;
  };
  security: { allowed_roots: string[]; denied_roots: string[]; confirm_risky_actions: boolean };
  web: { enabled: boolean; host: string; port: number; token: string };
  /**
   * One short new message (on Feishu a reply to the card, so the phone rings) when a turn longer
   * than `after_s` ends or a prompt has waited `permission_after_s`; `enabled = false` = never.
   */
  notify: { enabled: boolean; after_s: number; permission_after_s: number };
  ccexec: {
    cli: string[];
    cwd: string;
    timeout_ms: number;
    default_provider: string;
    env_allow: string[];
    providers: Record<string, CcexecProviderConfig>;
  };
  /** The coding agents: which one `/new` uses, and each ACP agent's profile (`[agents.<name>]`). */
  agents: {
    /** `claude` (the native engine), a built-in ACP profile or a configured one. */
    default: string;
    /** Every `[agents.<name>]` table, by name. */
    profiles: Record<string, AgentConfig>;
  };
}

/** One key's type, default and constraints. */
export type FieldSpec =
  | { t: 'string'; d: string; check?: (v: string) => string | null }
  | { t: 'int'; d?: number; min: number; max?: number }
  | { t: 'bool'; d?: boolean }
  | { t: 'enum'; d: string; values: readonly string[] }
  | {
      t: 'strings';
      /** Unset = the key stays unset when absent (the caller supplies the default). */
      d?: string[];
      minItems?: number;
      /** Why the list is refused (in both languages when the reason needs explaining), or null. */
      check?: (v: readonly string[]) => string | LocalizedText | null;
    }
  | { t: 'map'; d: Record<string, string>; check?: (v: Readonly<Record<string, string>>) => LocalizedText | null }
  | { t: 'tables'; item: SectionSpec; required: readonly string[] }
  /**
   * The section's other keys, each a table of `item` (`[agents.codex]` next to `agents.default`),
   * gathered under this key of the validated config; `name` says why a table name is refused.
   */
  | { t: 'rest'; item: SectionSpec; name: (name: string) => LocalizedText | null; notTable: LocalizedText };
export type SectionSpec = Record<string, FieldSpec>;

const str = (d: string, check?: (v: string) => string | null): FieldSpec =>
  check ? { t: 'string', d, check } : { t: 'string', d };
const pos = (d?: number): FieldSpec => (d === undefined ? { t: 'int', min: 1 } : { t: 'int', d, min: 1 });
const nonNeg = (d: number): FieldSpec => ({ t: 'int', d, min: 0 });
const bool = (d?: boolean): FieldSpec => (d === undefined ? { t: 'bool' } : { t: 'bool', d });
const port = (d: number): FieldSpec => ({ t: 'int', d, min: 1, max: 65535 });
const oneOf = (values: readonly string[], d: string): FieldSpec => ({ t: 'enum', d, values });

export const CONFIG_SPEC: Record<keyof Config, SectionSpec> = {
  general: {
    log_level: oneOf(['debug', 'info', 'warn', 'error'], 'info'),
    log_path: str('~/.cc-linker/cc-linker.log'),
    claude_bin: str(''),
    language: oneOf(['zh', 'en'], 'zh'),
  },
  feishu_bot: {
    app_id: str(''),
    app_secret: str(''),
    owner_open_id: str(''),
    allow_auto_bind_owner: bool(false),
    default_cwd: str(''),
    domain: str('feishu', domainCheck),
  },
  telegram: {
    enabled: bool(false),
    bot_token: str('', telegramTokenCheck),
    owner_user_id: str('', telegramUserIdCheck),
    allow_auto_bind_owner: bool(false),
    api_root: str('https://api.telegram.org', apiRootCheck),
    webhook_url: str('', telegramWebhookUrlCheck),
    webhook_listen: str('127.0.0.1:8443', telegramWebhookListenCheck),
    webhook_secret: str('', telegramWebhookSecretCheck),
  },
  slack: {
    enabled: bool(false),
    bot_token: str('', slackTokenCheck('xoxb', 'bot token')),
    app_token: str('', slackTokenCheck('xapp', 'app-level token')),
    owner_user_id: str('', slackUserIdCheck),
    allow_auto_bind_owner: bool(false),
    api_url: str('https://slack.com/api/', slackApiUrlCheck),
  },
  dingtalk: {
    enabled: bool(false),
    client_id: str('', dingtalkIdCheck(`DingTalk app's Client ID (e.g. "dingxxxxxxxxxxxxxxxx")`)),
    client_secret: str('', dingtalkSecretCheck),
    owner_staff_id: str('', dingtalkStaffIdCheck),
    allow_auto_bind_owner: bool(false),
    api_base: str('https://api.dingtalk.com', apiRootCheck),
    oapi_base: str('https://oapi.dingtalk.com', apiRootCheck),
    card_template_id: str('', dingtalkIdCheck('AI card template id')),
    card_template_key: str('content', dingtalkCardKeyCheck),
  },
  runtime: {
    stale_timeout_ms: pos(300_000),
    hard_timeout_ms: pos(1_800_000),
    max_concurrent_sessions: pos(5),
    idle_timeout_ms: pos(1_800_000),
    session_lock_timeout_ms: pos(600_000),
    warm_idle_ms: nonNeg(600_000),
    max_warm: nonNeg(3),
    recovery: oneOf(['continue', 'ask'], 'continue'),
  },
  queue: {
    spool_dir: str('~/.cc-linker/spool'),
    max_pending: pos(100),
    worker_concurrency: pos(5),
    done_retention_hours: nonNeg(24),
    done_max_files: nonNeg(1000),
    failed_retention_days: nonNeg(7),
    failed_max_files: nonNeg(200),
    delivery_retention_days: nonNeg(7),
    list_snapshot_ttl_minutes: pos(10),
  },
  cli_proxy: { port: port(9820), host: str('localhost'), timeout_ms: pos(1_800_000), token: str('') },
  scanner: { max_file_size: pos(104_857_600), incremental: bool(true) },
  sdk: {
    enabled: bool(true),
    timeout_ms: pos(600_000),
    permission_mode: oneOf(permissionModes, 'acceptEdits'),
    claude_executable: str(''),
  },
  claude: {
    mode: oneOf(['auto', 'sdk', 'stream-json', 'json'], 'auto'),
    permission_mode: oneOf(permissionModes, 'default'),
    allowed_tools: { t: 'strings', d: ['Read', 'Grep', 'Glob'] },
    disallowed_tools: { t: 'strings', d: [] },
    models: { t: 'map', d: {} },
    default_model: str(''),
    env_allow: { t: 'strings', d: [], check: envNamesCheck },
  },
  stream: {
    enabled: bool(true),
    throttle_ms: pos(1500),
    show_thinking: bool(true),
    max_card_bytes: pos(25_000),
    fallback_to_text: bool(true),
    show_action_buttons: bool(true),
    keep_processing_card: bool(false),
  },
  images: { enabled: bool(true), max_size_bytes: pos(10_485_760), cleanup_max_age_hours: pos(24) },
  files: {
    enabled: bool(true),
    max_size_bytes: pos(31_457_280),
    cleanup_max_age_hours: pos(24),
    send_without_prompt: bool(true),
  },
  voice: {
    enabled: bool(true),
    max_seconds: pos(300),
    service: oneOf(['auto', 'feishu', 'openai'], 'auto'),
    api_base: str('https://api.openai.com/v1', apiRootCheck),
    api_key: str(''),
    model: str('whisper-1'),
  },
  security: {
    allowed_roots: { t: 'strings', d: ['~/Git', '~/Workspace'] },
    denied_roots: { t: 'strings', d: ['~', '/', '~/Downloads', '~/Desktop'] },
    confirm_risky_actions: bool(true),
  },
  web: { enabled: bool(true), host: str('127.0.0.1'), port: port(9820), token: str('') },
  notify: { enabled: bool(true), after_s: nonNeg(60), permission_after_s: pos(30) },
  ccexec: {
    cli: { t: 'strings', d: ['chainlesschain'], minItems: 1, check: checkCcexecCli },
    cwd: str('~'),
    timeout_ms: pos(30_000),
    default_provider: str(''),
    env_allow: { t: 'strings', d: [] },
    providers: {
      t: 'tables',
      required: ['kind'],
      item: {
        kind: oneOf(['openai', 'anthropic', 'doubao', 'openai-compatible'], 'openai'),
        base_url: str(''),
        api_key_env: str(''),
        model: str(''),
        context_limit: pos(),
        tools: bool(),
      },
    },
  },
  agents: {
    default: str('claude'),
    profiles: {
      t: 'rest',
      name: checkAgentName,
      notTable: AGENT_TABLE_EXPECTED,
      item: {
        kind: oneOf(['acp'], 'acp'),
        command: { t: 'strings', minItems: 1, check: checkAgentCommand },
        env: { t: 'map', d: {}, check: checkAgentEnv },
        env_pass: { t: 'strings', d: [], check: checkAgentEnvPass },
      },
    },
  },
};
