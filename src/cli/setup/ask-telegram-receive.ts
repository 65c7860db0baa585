import type { Config } from '../../core/config-schema.js';
import type { ChatAppOption } from './chat-app.js';
import { schemaAccepts, type SetupFlags } from './setup-answers.js';
import type { SetupSession } from './setup-session.js';
import { telegramReceiveMessages } from './telegram-receive-messages.js';

/** The variables that answer these questions (the same ones `loadConfig` applies). */
export const RECEIVE_ENV = {
  url: 'CC_LINKER_TELEGRAM_WEBHOOK_URL',
  listen: 'CC_LINKER_TELEGRAM_WEBHOOK_LISTEN',
} as const;

/** How the bot receives messages: `url` '' = long polling, else the webhook Telegram posts to. */
export interface TelegramReceive {
  url: string;
  /** Where cc-linker's own HTTP server listens in webhook mode (kept as it was for polling). */
  listen: string;
}

const tr = (s: SetupSession) => telegramReceiveMessages(s.lang);
const flag = (flags: SetupFlags, key: string): string | undefined => {
  const v = flags.chatFlags?.[key];
  return typeof v === 'string' ? v : undefined;
};

type Parsed<T> = { value: T } | { problem: string };

/** `1` / `2`, or the mode named (`polling`, `webhook`, `长轮询`); true = webhook. */
function parseMode(s: SetupSession, text: string): Parsed<boolean> {
  const a = text.trim().toLowerCase();
  if (['1', 'polling', 'poll', 'long polling', '长轮询', '轮询'].includes(a)) return { value: false };
  if (['2', 'webhook'].includes(a)) return { value: true };
  return { problem: tr(s)('invalidMode') };
}

/** A webhook URL by the rule the file is read with (`telegram.webhook_url`), with the reason when refused. */
function parseUrl(s: SetupSession, text: string, emptyMeansPolling: boolean): Parsed<string> {
  const t = tr(s);
  if (text === '') return emptyMeansPolling ? { value: '' } : { problem: t('urlRequired') };
  if (schemaAccepts('telegram', 'webhook_url', text)) return { value: text };
  return { problem: t(/^http:\/\//i.test(text) ? 'urlNotHttps' : 'invalidUrl') };
}

/** A listen address by the rule the file is read with (`telegram.webhook_listen`). */
function parseListen(s: SetupSession, text: string): Parsed<string> {
  return text !== '' && schemaAccepts('telegram', 'webhook_listen', text)
    ? { value: text }
    : { problem: tr(s)('invalidListen') };
}

/**
 * Asks how the bot receives messages. In the full wizard: long polling or a webhook, the current
 * choice (the file's, or CC_LINKER_TELEGRAM_WEBHOOK_URL) as the default; only for a webhook, its
 * public https URL (refused with the reason and asked again) and the local listen address.
 * Otherwise `--telegram-webhook-url` (`""` = long polling) and `--telegram-webhook-listen`, else
 * their variables, else the file answer. The secret is never asked: empty, it is generated at the
 * first start (docs/design.md, Telegram webhook).
 */
export async function askTelegramReceive(
  s: SetupSession,
  flags: SetupFlags,
  current: Config['telegram'],
): Promise<TelegramReceive> {
  const t = tr(s);
  const url = (webhookDefault: string) =>
    s.question<string>({
      flag: '--telegram-webhook-url',
      given: flag(flags, 'telegramWebhookUrl'),
      env: RECEIVE_ENV.url,
      current: webhookDefault,
      show: (v) => v,
      ask: { text: t('askUrl') },
      required: s.full,
      cleared: '',
      parse: async (text) => parseUrl(s, text, !s.full),
    });
  const listen = () =>
    s.question<string>({
      flag: '--telegram-webhook-listen',
      given: flag(flags, 'telegramWebhookListen'),
      env: RECEIVE_ENV.listen,
      current: current.webhook_listen,
      show: (v) => v,
      ask: { text: t('askListen') },
      required: true,
      parse: async (text) => parseListen(s, text),
    });

  if (!s.full) return { url: await url(current.webhook_url), listen: await listen() };
  s.note(t('intro'));
  const envUrl = s.env[RECEIVE_ENV.url]?.trim() || undefined;
  const webhook = await s.question<boolean>({
    flag: '--telegram-webhook-url',
    current: (envUrl ?? current.webhook_url) !== '',
    show: (v) => (v ? `2 = ${t('webhook')}` : `1 = ${t('polling')}`),
    ask: { text: t('askMode') },
    required: true,
    parse: async (text) => parseMode(s, text),
  });
  if (!webhook) return { url: '', listen: current.webhook_listen };
  return { url: await url(current.webhook_url), listen: await listen() };
}

/**
 * One line on the webhook Telegram has registered for the bot now (`getWebhookInfo` during the
 * token check; undefined = not asked or no answer), against the choice: polling deletes it at start,
 * another URL replaces it. Nothing when none is registered.
 */
export function sayRegisteredWebhook(s: SetupSession, registered: string | undefined, chosen: string): void {
  if (!registered) return;
  const t = tr(s);
  if (chosen === '') s.note(t('registeredPolling', { url: registered }));
  else if (chosen === registered) s.note(t('registeredSame'));
  else s.note(t('registeredOther', { url: registered }));
}

/** The summary row: long polling, or the webhook and where it is received. */
export function receiveSummary(s: SetupSession, config: Config): [string, string] {
  const t = tr(s);
  const { webhook_url: url, webhook_listen: listen } = config.telegram;
  return [t('sumReceive'), url === '' ? t('sumPolling') : t('sumWebhook', { url, listen })];
}

/** What to do after writing a webhook config (nothing for long polling). */
export function receiveNextSteps(s: SetupSession, config: Config): string[] {
  const { webhook_url: url, webhook_listen: listen } = config.telegram;
  return url === '' ? [] : [tr(s)('nextWebhook', { url, listen })];
}

/** The `--telegram-webhook-*` options. */
export const RECEIVE_OPTIONS: ChatAppOption[] = [
  {
    key: 'telegramWebhookUrl',
    answer: true,
    flags: '--telegram-webhook-url <url>',
    description: `receive Telegram messages by webhook at this public https:// URL; "" = long polling, the default (env ${RECEIVE_ENV.url})`,
  },
  {
    key: 'telegramWebhookListen',
    answer: true,
    flags: '--telegram-webhook-listen <host:port>',
    description: `where cc-linker listens for the webhook behind your HTTPS proxy (default 127.0.0.1:8443; env ${RECEIVE_ENV.listen})`,
  },
];
