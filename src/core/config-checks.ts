/**
 * The checks of single config values (tokens, ids, URLs): each answers why a value is refused, or
 * null. `config-schema.ts` names them next to the keys they guard.
 */

/** `claude.env_allow`: variable names, or a prefix ending in `*` (never `*` alone: that would be everything). */
export const envNamesCheck = (v: readonly string[]) =>
  v.every((name) => /^[A-Za-z_][A-Za-z0-9_]*\*?$/.test(name))
    ? null
    : 'expected environment variable names or PREFIX_* patterns, e.g. ["JAVA_HOME", "MYTOOL_*"]';

export const telegramUserIdCheck = (v: string) =>
  v === '' || /^[1-9][0-9]{0,19}$/.test(v)
    ? null
    : 'expected the numeric Telegram user id (digits only), e.g. "123456789"';

/** `telegram.webhook_url`: Telegram posts only to HTTPS; empty = long polling. */
export const telegramWebhookUrlCheck = (v: string) =>
  v === '' || /^https:\/\/[^\s/?#]+(\/[^\s?#]*)?$/.test(v)
    ? null
    : 'expected the public https:// URL Telegram posts updates to (Telegram accepts only HTTPS), or "" for long polling';

/** `telegram.webhook_listen`: the host:port cc-linker's own HTTP server binds (behind the user's HTTPS proxy). */
export const telegramWebhookListenCheck = (v: string) => {
  const m = /^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+):([0-9]{1,5})$/.exec(v);
  return m && Number(m[2]) >= 1 && Number(m[2]) <= 65535
    ? null
    : 'expected host:port to listen on, e.g. "127.0.0.1:8443" (port 1-65535)';
};

/** `telegram.webhook_secret`: Telegram's `secret_token` alphabet, 1-256 characters; empty = one is generated. */
export const telegramWebhookSecretCheck = (v: string) =>
  v === '' || /^[A-Za-z0-9_-]{1,256}$/.test(v)
    ? null
    : 'expected 1-256 letters, digits, _ or - (what Telegram accepts as a secret token), or "" to have one generated';

export const telegramTokenCheck = (v: string) =>
  v === '' || /^[0-9]+:[A-Za-z0-9_-]{20,}$/.test(v)
    ? null
    : 'expected the bot token from @BotFather (digits, a colon, then letters, digits, _ or -)';

export const slackTokenCheck = (prefix: string, what: string) => (v: string) =>
  v === '' || new RegExp(`^${prefix}-[A-Za-z0-9-]{10,}$`).test(v)
    ? null
    : `expected the ${what} from the Slack app's settings (starts with "${prefix}-")`;

export const slackUserIdCheck = (v: string) =>
  v === '' || /^[UW][A-Z0-9]{2,30}$/.test(v) ? null : 'expected your Slack member id, e.g. "U012ABCDEF"';

export const slackApiUrlCheck = (v: string) =>
  /^https?:\/\/\S+\/$/.test(v) ? null : 'expected a base URL starting with http:// or https:// and ending in /';

export const dingtalkStaffIdCheck = (v: string) =>
  v === '' || /^[A-Za-z0-9_-]{1,64}$/.test(v)
    ? null
    : 'expected the DingTalk staffId (letters, digits, _ or -), e.g. "manager4521"';

/** The app's Client ID and an AI card template id: one token of letters, digits, `_`, `.` or `-` (nothing pasted around it). */
export const dingtalkIdCheck = (what: string) => (v: string) =>
  v === '' || /^[A-Za-z0-9_.-]{1,128}$/.test(v) ? null : `expected the ${what}: letters, digits, _, . or -`;

/** The Client Secret: printable ASCII without spaces (DingTalk's secrets are; a space means a paste went wrong). */
export const dingtalkSecretCheck = (v: string) =>
  v === '' || /^[\x21-\x7e]{1,256}$/.test(v)
    ? null
    : "expected the DingTalk app's Client Secret (printable ASCII, no spaces)";

export const dingtalkCardKeyCheck = (v: string) =>
  /^[A-Za-z_][A-Za-z0-9_]{0,63}$/.test(v) ? null : 'expected the card template variable name, e.g. "content"';

export const apiRootCheck = (v: string) =>
  /^https?:\/\/\S+$/.test(v) && !v.endsWith('/')
    ? null
    : 'expected a base URL starting with http:// or https:// and without a trailing slash';

export const domainCheck = (v: string) =>
  v === 'feishu' || v === 'lark' || /^https?:\/\/\S+$/.test(v)
    ? null
    : 'expected "feishu", "lark" or a base URL starting with http:// or https://';
