import { Bot } from 'grammy';
import { toTelegramError } from './telegram-api-error.js';

/** What `getMe` said about a bot token. */
export type TokenCheck = { ok: true; username: string } | { ok: false; refused: boolean; detail: string };

/**
 * Asks Telegram (`getMe` at `apiRoot`) whether `token` is a bot token it accepts, within
 * `timeoutMs` (used by `doctor`). `refused` = Telegram answered no (401/404); otherwise it could
 * not be asked. `detail` is built from Telegram's code and description, never the URL (it holds the token).
 */
export async function checkBotToken(token: string, apiRoot: string, timeoutMs = 5_000): Promise<TokenCheck> {
  const bot = new Bot(token, { client: { apiRoot, timeoutSeconds: Math.ceil(timeoutMs / 1000) } });
  try {
    const me = await bot.api.getMe();
    return { ok: true, username: me.username };
  } catch (err) {
    const e = toTelegramError('getMe', err, 'en');
    return { ok: false, refused: e.errorCode === 401 || e.errorCode === 404, detail: e.description };
  }
}
