/**
 * Environment variables that override `config.toml`, each named `CC_LINKER_` + the key's section
 * and name in upper case (a few shortened). They win over the file. Each entry names the config key it sets and how to parse it,
 * so a bad value can be reported as "CC_LINKER_X=abc: expected an integer".
 */
export type EnvValueKind = 'string' | 'int' | 'bool' | 'list';

export interface EnvOverride {
  readonly env: string;
  readonly key: string;
  readonly kind: EnvValueKind;
}

export const ENV_OVERRIDES: readonly EnvOverride[] = [
  { env: 'CC_LINKER_LOG_LEVEL', key: 'general.log_level', kind: 'string' },
  { env: 'CC_LINKER_LOG_PATH', key: 'general.log_path', kind: 'string' },
  { env: 'CC_LINKER_LANGUAGE', key: 'general.language', kind: 'string' },
  { env: 'CC_LINKER_FEISHU_APP_ID', key: 'feishu_bot.app_id', kind: 'string' },
  { env: 'CC_LINKER_FEISHU_APP_SECRET', key: 'feishu_bot.app_secret', kind: 'string' },
  { env: 'CC_LINKER_FEISHU_OWNER_OPEN_ID', key: 'feishu_bot.owner_open_id', kind: 'string' },
  { env: 'CC_LINKER_FEISHU_DEFAULT_CWD', key: 'feishu_bot.default_cwd', kind: 'string' },
  { env: 'CC_LINKER_FEISHU_DOMAIN', key: 'feishu_bot.domain', kind: 'string' },
  { env: 'CC_LINKER_TELEGRAM_BOT_TOKEN', key: 'telegram.bot_token', kind: 'string' },
  { env: 'CC_LINKER_TELEGRAM_OWNER_USER_ID', key: 'telegram.owner_user_id', kind: 'string' },
  { env: 'CC_LINKER_TELEGRAM_WEBHOOK_URL', key: 'telegram.webhook_url', kind: 'string' },
  { env: 'CC_LINKER_TELEGRAM_WEBHOOK_LISTEN', key: 'telegram.webhook_listen', kind: 'string' },
  { env: 'CC_LINKER_TELEGRAM_WEBHOOK_SECRET', key: 'telegram.webhook_secret', kind: 'string' },
  { env: 'CC_LINKER_SLACK_BOT_TOKEN', key: 'slack.bot_token', kind: 'string' },
  { env: 'CC_LINKER_SLACK_APP_TOKEN', key: 'slack.app_token', kind: 'string' },
  { env: 'CC_LINKER_SLACK_OWNER_USER_ID', key: 'slack.owner_user_id', kind: 'string' },
  { env: 'CC_LINKER_DINGTALK_CLIENT_ID', key: 'dingtalk.client_id', kind: 'string' },
  { env: 'CC_LINKER_DINGTALK_CLIENT_SECRET', key: 'dingtalk.client_secret', kind: 'string' },
  { env: 'CC_LINKER_DINGTALK_OWNER_STAFF_ID', key: 'dingtalk.owner_staff_id', kind: 'string' },
  { env: 'CC_LINKER_MAX_CONCURRENT_SESSIONS', key: 'runtime.max_concurrent_sessions', kind: 'int' },
  { env: 'CC_LINKER_SESSION_LOCK_TIMEOUT_MS', key: 'runtime.session_lock_timeout_ms', kind: 'int' },
  { env: 'CC_LINKER_WARM_IDLE_MS', key: 'runtime.warm_idle_ms', kind: 'int' },
  { env: 'CC_LINKER_MAX_WARM', key: 'runtime.max_warm', kind: 'int' },
  { env: 'CC_LINKER_SDK_ENABLED', key: 'sdk.enabled', kind: 'bool' },
  { env: 'CC_LINKER_SDK_PERMISSION_MODE', key: 'sdk.permission_mode', kind: 'string' },
  { env: 'CC_LINKER_SDK_TIMEOUT_MS', key: 'sdk.timeout_ms', kind: 'int' },
  { env: 'CC_LINKER_SDK_CLAUDE_EXECUTABLE', key: 'sdk.claude_executable', kind: 'string' },
  { env: 'CC_LINKER_STREAM_ENABLED', key: 'stream.enabled', kind: 'bool' },
  { env: 'CC_LINKER_STREAM_THROTTLE_MS', key: 'stream.throttle_ms', kind: 'int' },
  { env: 'CC_LINKER_STREAM_SHOW_THINKING', key: 'stream.show_thinking', kind: 'bool' },
  { env: 'CC_LINKER_STREAM_MAX_CARD_BYTES', key: 'stream.max_card_bytes', kind: 'int' },
  { env: 'CC_LINKER_STREAM_FALLBACK_TO_TEXT', key: 'stream.fallback_to_text', kind: 'bool' },
  { env: 'CC_LINKER_CLAUDE_PERMISSION_MODE', key: 'claude.permission_mode', kind: 'string' },
  { env: 'CC_LINKER_CLAUDE_ALLOWED_TOOLS', key: 'claude.allowed_tools', kind: 'list' },
  { env: 'CC_LINKER_CLAUDE_DISALLOWED_TOOLS', key: 'claude.disallowed_tools', kind: 'list' },
  { env: 'CC_LINKER_CLAUDE_ENV_ALLOW', key: 'claude.env_allow', kind: 'list' },
  { env: 'CC_LINKER_IMAGES_ENABLED', key: 'images.enabled', kind: 'bool' },
  { env: 'CC_LINKER_IMAGES_MAX_SIZE', key: 'images.max_size_bytes', kind: 'int' },
  { env: 'CC_LINKER_IMAGES_CLEANUP_HOURS', key: 'images.cleanup_max_age_hours', kind: 'int' },
  { env: 'CC_LINKER_FILES_ENABLED', key: 'files.enabled', kind: 'bool' },
  { env: 'CC_LINKER_FILES_MAX_SIZE', key: 'files.max_size_bytes', kind: 'int' },
  { env: 'CC_LINKER_FILES_CLEANUP_HOURS', key: 'files.cleanup_max_age_hours', kind: 'int' },
  { env: 'CC_LINKER_VOICE_ENABLED', key: 'voice.enabled', kind: 'bool' },
  { env: 'CC_LINKER_VOICE_MAX_SECONDS', key: 'voice.max_seconds', kind: 'int' },
  { env: 'CC_LINKER_VOICE_API_KEY', key: 'voice.api_key', kind: 'string' },
  { env: 'CC_LINKER_WEB_PORT', key: 'web.port', kind: 'int' },
  { env: 'CC_LINKER_WEB_HOST', key: 'web.host', kind: 'string' },
  { env: 'CC_LINKER_NOTIFY_ENABLED', key: 'notify.enabled', kind: 'bool' },
  { env: 'CC_LINKER_NOTIFY_AFTER_S', key: 'notify.after_s', kind: 'int' },
  { env: 'CC_LINKER_AGENTS_DEFAULT', key: 'agents.default', kind: 'string' },
];

/** Parses one override's raw text; returns `{ error }` with what was expected when it cannot. */
export function parseEnvValue(kind: EnvValueKind, raw: string): { value: unknown } | { error: string } {
  const text = raw.trim();
  switch (kind) {
    case 'string':
      return { value: text };
    case 'int':
      return /^-?\d+$/.test(text) ? { value: Number.parseInt(text, 10) } : { error: 'expected an integer' };
    case 'bool':
      if (/^(1|true|yes|on)$/i.test(text)) return { value: true };
      if (/^(0|false|no|off)$/i.test(text)) return { value: false };
      return { error: 'expected true or false' };
    case 'list':
      return {
        value:
          text.length === 0
            ? []
            : text
                .split(',')
                .map((s) => s.trim())
                .filter((s) => s.length > 0),
      };
  }
}
