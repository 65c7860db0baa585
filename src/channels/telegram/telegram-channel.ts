import { sendFilesNotice } from '../../bridge/inbound-files/send-files-notice.js';
import path from 'node:path';
import { autoRetry } from '@grammyjs/auto-retry';
import { Bot } from 'grammy';
import type { BridgeInbound, Channel, ChannelStatus } from '../../bridge/channel.js';
import type { InboundMessage } from '../../bridge/inbound-message.js';
import type { SpeechToText } from '../../bridge/voice/speech-to-text.js';
import { transcribeVoiceMessage } from '../../bridge/voice/transcribe-voice-message.js';
import type { CardAction } from '../../bridge/reply-model.js';
import type { Config } from '../../core/config-schema.js';
import type { Language } from '../../core/i18n.js';
import type { Logger } from '../../core/logger.js';
import { redact, registerSecret } from '../../core/redact.js';
import { ButtonStore } from './button-store.js';
import { downloadFiles } from '../../bridge/inbound-files/download-files.js';
import { downloadImages } from '../../bridge/inbound-files/download-images.js';
import { convertUpdate } from './inbound-update.js';
import { JsonLedger } from '../../core/json-ledger.js';
import { openTelegramFile, type TelegramFiles } from './open-telegram-file.js';
import { UpdatePoller, type HandleResult, type PollState } from './poll-updates.js';
import { TelegramApi } from './telegram-api.js';
import { telegramMessages } from './telegram-messages.js';
import { createTelegramOutbox } from './telegram-outbox.js';
import { webhookSecret } from './webhook-secret.js';
import { WebhookUpdates } from './webhook-updates.js';

export interface TelegramChannelOptions {
  botToken: string;
  /** `telegram.api_root`, no trailing slash (tests: the fake Bot API). */
  apiRoot: string;
  lang: Language;
  logger: Logger;
  imagesDir: string;
  images: Config['images'];
  /** `~/.cc-linker/attachments`: documents, audio and video files, each message in a folder of its own. */
  attachmentsDir: string;
  files: Config['files'];
  stream: Config['stream'];
  /** Voice notes (default on, 300 s), transcribed by `speechToText`; none = the user is told how to set one up. */
  voice?: Pick<Config['voice'], 'enabled' | 'max_seconds'>;
  speechToText?: SpeechToText;
  /** `Paths.runtimeDir`: buttons and sent messages kept across restarts; memory only when absent. */
  runtimeDir?: string;
  /** Long-poll seconds (default 30) and the wait after a failure (default 3 s); tests shorten both. */
  pollTimeoutSeconds?: number;
  backoffMs?: number;
  /**
   * Webhook mode instead of long polling (`telegram.webhook_url` set): the public HTTPS URL, where
   * our server listens, and the configured secret (empty = generated and kept in `runtimeDir`).
   */
  webhook?: { url: string; listen: { host: string; port: number }; secret: string };
  /** 429 handling: retries and the longest `retry_after` waited for (defaults 5 and 60 s). */
  maxRetryAttempts?: number;
  maxRetryDelaySeconds?: number;
  now?: () => Date;
}

export const TELEGRAM_CHANNEL = 'telegram';

/**
 * The Telegram channel (docs/design.md#telegram): grammY's `Api` against the Bot API, long polling
 * driven by `UpdatePoller` or, with `webhook`, our own server (`WebhookUpdates`) — either way an
 * update is confirmed only once the bridge accepted it — the
 * owner's private chat only (groups are ignored; who the owner is stays the bridge's decision),
 * replies as HTML messages, streamed by editing one message, buttons as inline keyboards.
 * `start()` never throws: a bad token or an outage shows in `status()` and is retried.
 */
export function createTelegramChannel(opts: TelegramChannelOptions): Channel & {
  prepare(m: InboundMessage): Promise<InboundMessage>;
  webhookAddress(): { host: string; port: number } | undefined;
} {
  registerSecret(opts.botToken);
  const log = opts.logger.child('telegram');
  const t = telegramMessages(opts.lang);
  const now = opts.now ?? (() => new Date());
  const bot = new Bot(opts.botToken, {
    client: { apiRoot: opts.apiRoot, timeoutSeconds: (opts.pollTimeoutSeconds ?? 30) + 15 },
  });
  bot.api.config.use(
    autoRetry({
      maxRetryAttempts: opts.maxRetryAttempts ?? 5,
      maxDelaySeconds: opts.maxRetryDelaySeconds ?? 60,
      rethrowHttpErrors: true,
      rethrowInternalServerErrors: true,
    }),
  );
  const api = new TelegramApi(bot.api, opts.lang);
  const file = (name: string) => (opts.runtimeDir ? path.join(opts.runtimeDir, name) : undefined);
  const buttons = new ButtonStore(new JsonLedger<CardAction>(file('telegram-buttons.json'), log, 2_000));
  const outbox = createTelegramOutbox({
    api,
    lang: opts.lang,
    logger: log,
    stream: opts.stream,
    bind: (button) => buttons.bind(button.action),
    sent: new JsonLedger<string>(file('telegram-sent.json'), log, 5_000),
  });
  let poll: PollState = { state: 'stopped' };
  let poller: UpdatePoller | WebhookUpdates | undefined;
  let stopping = false;
  let botUsername = '';

  async function onMessage(bridge: BridgeInbound, message: InboundMessage): Promise<HandleResult> {
    if (stopping) return 'retry';
    try {
      const result = await bridge.accept(message);
      if (result.status === 'refused' && result.reason === 'shutting-down') return 'retry';
      return 'done';
    } catch (err) {
      log.error('accept failed; Telegram delivers the message again', { err, messageId: message.id });
      return 'retry';
    }
  }

  async function onClick(
    bridge: BridgeInbound,
    click: { queryId: string; userId: string; data?: string; messageId?: string },
  ): Promise<void> {
    const answer = (text: string) =>
      api.answerCallback(click.queryId, text).catch((err: unknown) => log.warn('callback answer failed', { err }));
    const action = await buttons.resolve(click.data);
    if (!action) return answer(t('actionInvalid'));
    try {
      const result = await bridge.handleAction({
        channel: TELEGRAM_CHANNEL,
        userId: click.userId,
        action,
        ...(click.messageId ? { messageId: click.messageId } : {}),
      });
      await answer(result.toast?.text ?? t('actionDone'));
      if (result.card && click.messageId) await outbox.update(click.messageId, result.card);
    } catch (err) {
      log.warn('button click failed', { err });
      await answer(t('actionFailed'));
    }
  }

  return {
    id: TELEGRAM_CHANNEL,
    outbox,

    async start(bridge) {
      stopping = false;
      const source = {
        api: bot.api,
        lang: opts.lang,
        logger: log,
        ...(opts.backoffMs !== undefined ? { backoffMs: opts.backoffMs } : {}),
        onMe: (me: { username: string }) => (botUsername = me.username),
        onState: (s: PollState) => {
          if (s.state !== poll.state) log.info('telegram state', { state: s.state, detail: s.detail });
          poll = s.state === 'connected' && !s.detail ? { ...s, detail: poll.detail } : s;
        },
        handle: async (update: { update_id: number } & Record<string, unknown>): Promise<HandleResult> => {
          const decision = convertUpdate(update, botUsername, now());
          if (decision.kind === 'message') return onMessage(bridge, decision.message);
          if (decision.kind === 'click') await onClick(bridge, decision);
          else log.debug('update ignored', { reason: decision.reason });
          return 'done';
        },
      };
      if (opts.webhook) {
        let secret: string;
        try {
          secret = await webhookSecret(opts.webhook.secret, opts.runtimeDir);
        } catch (err) {
          log.error('the webhook secret could not be read or kept', { err });
          poll = { state: 'error', detail: redact(String((err as Error).message)) };
          return;
        }
        poller = new WebhookUpdates({ ...source, url: opts.webhook.url, listen: opts.webhook.listen, secret });
      } else {
        poller = new UpdatePoller({
          ...source,
          ...(opts.pollTimeoutSeconds !== undefined ? { timeoutSeconds: opts.pollTimeoutSeconds } : {}),
        });
      }
      poller.start();
    },

    /** Webhook mode: where the server listens once started (tests bind port 0). */
    webhookAddress: () => (poller instanceof WebhookUpdates ? poller.address() : undefined),

    async stop() {
      stopping = true;
      await poller?.stop();
      poller = undefined;
    },

    status(): ChannelStatus {
      // Connected: the bot's @username; otherwise the state, with the error when there is one.
      const detail =
        poll.state === 'connected'
          ? (poll.detail ?? poll.state)
          : poll.detail
            ? `${poll.state}: ${poll.detail}`
            : poll.state;
      return { connected: poll.state === 'connected', detail: redact(detail) };
    },

    async notify(target, cardMessageId, text, idempotencyKey) {
      await outbox.notify(target, cardMessageId, text, idempotencyKey);
    },

    async prepare(message) {
      const source: TelegramFiles = {
        filePath: (id) => api.filePath(id),
        fileUrl: (p) => `${opts.apiRoot}/file/bot${opts.botToken}/${p}`,
        lang: opts.lang,
      };
      const withPhotos = await downloadImages(message, {
        open: (id) => openTelegramFile(source, id, opts.images.max_size_bytes),
        imagesDir: opts.imagesDir,
        images: opts.images,
        lang: opts.lang,
        logger: log,
      });
      const announced = new Map((message.files ?? []).map((f) => [f.key, f.size]));
      const { message: withFiles, notice } = await downloadFiles(withPhotos, {
        download: (_messageId, key) => openTelegramFile(source, key, opts.files.max_size_bytes, announced.get(key)),
        attachmentsDir: opts.attachmentsDir,
        files: opts.files,
        lang: opts.lang,
        logger: log,
      });
      const prepared = await transcribeVoiceMessage(withFiles, {
        download: (_messageId, key) => openTelegramFile(source, key, opts.files.max_size_bytes),
        stt: opts.speechToText,
        voice: opts.voice ?? { enabled: true, max_seconds: 300 },
        maxBytes: opts.files.max_size_bytes,
        lang: opts.lang,
        logger: log,
      });
      await sendFilesNotice(outbox, message, notice, log);
      return prepared;
    },
  };
}
