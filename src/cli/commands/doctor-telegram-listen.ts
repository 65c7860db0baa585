import type { Config } from '../../core/config-schema.js';
import type { Language } from '../../core/i18n.js';
import { telegramWebhook } from '../start/telegram-webhook-for-daemon.js';
import type { DoctorCheck } from './doctor-check.js';

/**
 * `doctor`'s look at `telegram.webhook_listen` in webhook mode: a warning when it is not loopback
 * (`channels/telegram/webhook-listen-exposure.ts`: plain HTTP open to the network); nothing on
 * loopback, which is the default. The address is split as `start` splits it.
 */
export async function webhookListenCheck(telegram: Config['telegram'], lang: Language): Promise<DoctorCheck[]> {
  const hook = telegramWebhook(telegram);
  if (!('webhook' in hook)) return [];
  const { webhookListenExposure } = await import('../../channels/telegram/webhook-listen-exposure.js');
  const exposed = webhookListenExposure(hook.webhook.listen, lang);
  return exposed ? [{ name: 'telegram-webhook-listen', level: 'warn', text: `Telegram: ${exposed}` }] : [];
}
