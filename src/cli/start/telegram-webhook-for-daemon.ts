import type { Config } from '../../core/config-schema.js';

/**
 * The Telegram channel's `webhook` option from `[telegram]`: none while `webhook_url` is empty
 * (long polling, the default); otherwise the URL, `webhook_listen` split into host and port
 * (already checked by the config; `[::1]:8443` loses its brackets) and the configured secret
 * (empty = the channel generates and keeps one). docs/design.md#telegram.
 */
export function telegramWebhook(
  telegram: Pick<Config['telegram'], 'webhook_url' | 'webhook_listen' | 'webhook_secret'>,
): { webhook: { url: string; listen: { host: string; port: number }; secret: string } } | Record<string, never> {
  if (telegram.webhook_url === '') return {};
  const at = telegram.webhook_listen.lastIndexOf(':');
  const host = telegram.webhook_listen.slice(0, at).replace(/^\[(.*)\]$/, '$1');
  const port = Number(telegram.webhook_listen.slice(at + 1));
  return { webhook: { url: telegram.webhook_url, listen: { host, port }, secret: telegram.webhook_secret } };
}
