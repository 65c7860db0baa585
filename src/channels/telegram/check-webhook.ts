import { Bot } from 'grammy';
import { toTelegramError } from './telegram-api-error.js';

/** What `getWebhookInfo` said: where Telegram delivers, how much waits, and its last failure. */
export type WebhookCheck =
  { ok: true; url: string; pending: number; lastError?: { message: string; at: Date } } | { ok: false; detail: string };

/**
 * Asks Telegram (`getWebhookInfo` at `apiRoot`) where it delivers the bot's updates, within
 * `timeoutMs` (used by `doctor` in webhook mode): the URL registered ('' = none), the updates
 * waiting, and the last delivery error Telegram saw (its own words, e.g. "Connection refused").
 * `detail` is built from Telegram's code and description, never the URL (it holds the token).
 */
export async function checkWebhook(token: string, apiRoot: string, timeoutMs = 5_000): Promise<WebhookCheck> {
  const bot = new Bot(token, { client: { apiRoot, timeoutSeconds: Math.ceil(timeoutMs / 1000) } });
  try {
    const info = await bot.api.getWebhookInfo();
    const failed =
      info.last_error_message && info.last_error_date
        ? { lastError: { message: info.last_error_message, at: new Date(info.last_error_date * 1000) } }
        : {};
    return { ok: true, url: info.url ?? '', pending: info.pending_update_count, ...failed };
  } catch (err) {
    return { ok: false, detail: toTelegramError('getWebhookInfo', err, 'en').description };
  }
}
