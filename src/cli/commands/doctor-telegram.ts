import { redact } from '../../core/redact.js';
import type { CliContext } from '../context/cli-context.js';
import { commandMessages } from './command-messages.js';
import type { DoctorCheck } from './doctor-check.js';
import { webhookListenCheck } from './doctor-telegram-listen.js';

/**
 * `doctor`'s checks of the Telegram channel, when `telegram.enabled`: a token and an owner set,
 * then one `getMe` (the bot's name; refused fails, unreachable warns — the daemon keeps retrying).
 * In webhook mode also one `getWebhookInfo`: is our URL registered, and did Telegram's last
 * delivery to it fail (a reverse proxy that does not reach `webhook_listen` shows here first), and
 * a warning when `webhook_listen` is not loopback (plain HTTP open to the network).
 * No token or webhook secret is ever printed.
 */
export async function telegramChecks(ctx: CliContext): Promise<DoctorCheck[]> {
  const c = ctx.config.telegram;
  if (!c.enabled) return [];
  const t = commandMessages(ctx.lang);
  const token = c.bot_token !== '';
  const owner = c.owner_user_id !== '' || c.allow_auto_bind_owner;
  const checks: DoctorCheck[] = [
    {
      name: 'telegram',
      level: token && owner ? 'ok' : 'warn',
      text: t(!token ? 'doctorTelegramNoToken' : owner ? 'doctorTelegram' : 'doctorTelegramNoOwner'),
    },
  ];
  checks.push(...(await webhookListenCheck(c, ctx.lang)));
  if (!token) return checks;
  const { checkBotToken } = await import('../../channels/telegram/check-token.js');
  const r = await checkBotToken(c.bot_token, c.api_root);
  checks.push({
    name: 'telegram-token',
    level: r.ok ? 'ok' : r.refused ? 'fail' : 'warn',
    text: redact(
      r.ok
        ? t('doctorTelegramBot', { bot: r.username })
        : t(r.refused ? 'doctorTelegramRefused' : 'doctorTelegramUnreachable', { detail: r.detail }),
    ),
  });
  if (!r.ok || c.webhook_url === '') return checks;
  const { checkWebhook } = await import('../../channels/telegram/check-webhook.js');
  const w = await checkWebhook(c.bot_token, c.api_root);
  const shown = { url: c.webhook_url, listen: c.webhook_listen };
  const check: DoctorCheck = !w.ok
    ? { name: 'telegram-webhook', level: 'warn', text: t('doctorTelegramUnreachable', { detail: w.detail }) }
    : w.url !== c.webhook_url
      ? { name: 'telegram-webhook', level: 'warn', text: t('doctorTelegramWebhookNotSet', shown) }
      : w.lastError
        ? {
            name: 'telegram-webhook',
            level: 'warn',
            text: t('doctorTelegramWebhookError', {
              ...shown,
              error: w.lastError.message,
              at: w.lastError.at.toISOString(),
            }),
          }
        : { name: 'telegram-webhook', level: 'ok', text: t('doctorTelegramWebhook', { ...shown, pending: w.pending }) };
  checks.push({ ...check, text: redact(check.text) });
  return checks;
}
