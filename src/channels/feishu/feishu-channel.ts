import { sendFilesNotice } from '../../bridge/inbound-files/send-files-notice.js';
import path from 'node:path';
import type * as Lark from '@larksuiteoapi/node-sdk';
import type { AcceptResult, BridgeInbound, Channel, ChannelStatus } from '../../bridge/channel.js';
import type { InboundMessage } from '../../bridge/inbound-message.js';
import type { SpeechToText } from '../../bridge/voice/speech-to-text.js';
import type { Config } from '../../core/config-schema.js';
import type { Language } from '../../core/i18n.js';
import type { Logger } from '../../core/logger.js';
import { registerSecret } from '../../core/redact.js';
import type { RetryPolicy } from './call-feishu.js';
import { callbackAnswer, parseCardClick, type CardCallbackAnswer } from './card-action-event.js';
import { downloadFiles } from '../../bridge/inbound-files/download-files.js';
import { downloadImages } from '../../bridge/inbound-files/download-images.js';
import { safeNamePart } from '../../bridge/inbound-files/sanitize-file-name.js';
import { FEISHU_APP_ID_PATTERN } from './check-credentials.js';
import { FeishuApi } from './feishu-api.js';
import { httpWithTimeout, larkDomain, larkSdk } from './lark-sdk.js';
import { FeishuApiError } from './feishu-api-error.js';
import { feishuMessages } from './feishu-messages.js';
import { createFeishuOutbox } from './feishu-outbox.js';
import { createFeishuSpeechToText } from './feishu-speech-to-text.js';
import { transcribeVoiceMessage } from '../../bridge/voice/transcribe-voice-message.js';
import { convertMessageEvent } from './inbound-event.js';
import { sdkLogger } from './sdk-logger.js';
import { CardKitSwitch } from './stream-card.js';
import { StreamCardStore } from './stream-card-store.js';
import { createTokenCache } from './token-cache.js';

export interface FeishuChannelOptions {
  appId: string;
  appSecret: string;
  /** `feishu_bot.domain`: `feishu`, `lark` (international) or a base URL (tests: the fake server). */
  domain: 'feishu' | 'lark' | string;
  lang: Language;
  logger: Logger;
  /** Where user images are downloaded (`Paths.imagesDir`). */
  imagesDir: string;
  images: Config['images'];
  /** Where user files are downloaded, one folder per message (`Paths.attachmentsDir`). */
  attachmentsDir: string;
  files: Config['files'];
  /** Voice messages; default on, 300 s. */
  voice?: Pick<Config['voice'], 'enabled' | 'max_seconds'>;
  /**
   * What transcribes voice messages: absent = Feishu's own speech recognition; `null` = none is set
   * up (the user is told how to set one up); else that service (`voice.service = "openai"`).
   */
  speechToText?: SpeechToText | null;
  stream: Config['stream'];
  /** `Paths.runtimeDir`: keeps the CardKit card of each streamed reply across restarts; memory only when absent. */
  runtimeDir?: string;
  now?: () => Date;
  /** Tighter retry bounds (tests); defaults to `DEFAULT_RETRY_POLICY`. */
  retryPolicy?: Partial<RetryPolicy>;
  /** Per-request HTTP timeout, default 15 s. */
  requestTimeoutMs?: number;
  /** How long `start()` waits for the first connection before returning anyway, default 15 s. */
  connectTimeoutMs?: number;
}

/**
 * The Feishu channel; `prepare` downloads a message's images and files and transcribes its voice
 * at processing time. `speechToText` is Feishu's speech recognition, for other channels to reuse.
 */
export interface FeishuChannel extends Channel {
  prepare(message: InboundMessage): Promise<InboundMessage>;
  readonly speechToText: SpeechToText;
}

/** A card click must be answered within Feishu's 3 s; past this the answer is a toast and the card follows. */
const ACTION_DEADLINE_MS = 2_500;

/**
 * The Feishu/Lark channel: the official SDK's long connection (`WSClient` +
 * `EventDispatcher`) for inbound events and `Client` for everything outbound.
 *
 * Inbound handlers only convert and hand over, inside Feishu's 3-second window: a private-chat
 * `text` / `image` / `file` / `post` / `audio` message goes to `bridge.accept()` (the SDK acks when that settles, so a
 * message is acked only once persisted); a group message is ignored; another type gets a short
 * "not supported yet" reply; a button click goes to `bridge.handleAction()` and its toast and
 * replacement card travel back in the ack.
 *
 * @example
 *   const feishu = createFeishuChannel({ appId, appSecret, domain: 'feishu', lang: 'zh', logger,
 *     imagesDir: paths.imagesDir, images: config.images, attachmentsDir: paths.attachmentsDir, files: config.files,
 *     stream: config.stream, runtimeDir: paths.runtimeDir });
 *   bridge.addChannel(feishu); await feishu.start(bridge);
 *
 * Throws `FeishuApiError` (op `credentials`) for a malformed app id or an empty secret, and from
 * `start()` when Feishu refuses the credentials (op `long-connection`).
 */
export function createFeishuChannel(opts: FeishuChannelOptions): FeishuChannel {
  // The SDK's WSClient silently does nothing for an app id of another shape.
  if (!FEISHU_APP_ID_PATTERN.test(opts.appId) || opts.appSecret === '') {
    const msg = 'feishu_bot.app_id (cli_ + 16 hex digits) and feishu_bot.app_secret are required';
    throw new FeishuApiError('credentials', { kind: 'rejected', msg }, 0, opts.lang);
  }
  registerSecret(opts.appSecret);
  const log = opts.logger.child('feishu');
  const t = feishuMessages(opts.lang);
  const now = opts.now ?? (() => new Date());
  const sdk = larkSdk();
  const domain = larkDomain(opts.domain);
  const larkLogger = sdkLogger(log);
  const httpInstance = httpWithTimeout(opts.requestTimeoutMs ?? 15_000);
  const tokenCache = createTokenCache();
  const client = new sdk.Client({
    appId: opts.appId,
    appSecret: opts.appSecret,
    domain,
    cache: tokenCache,
    httpInstance,
    logger: larkLogger,
    loggerLevel: sdk.LoggerLevel.error,
  });
  const api = new FeishuApi({
    client,
    logger: log,
    lang: opts.lang,
    refreshToken: () => tokenCache.clear(),
    ...(opts.retryPolicy ? { policy: opts.retryPolicy } : {}),
  });
  const speechToText = createFeishuSpeechToText(api, opts.lang);
  const store = new StreamCardStore(
    opts.runtimeDir ? path.join(opts.runtimeDir, 'feishu-stream-cards.json') : undefined,
    log,
  );
  const outbox = createFeishuOutbox({
    api,
    store,
    cardkit: new CardKitSwitch(),
    lang: opts.lang,
    logger: log,
    stream: opts.stream,
  });

  let ws: Lark.WSClient | undefined;
  let stopped = false;

  /**
   * Converts and hands over one message. Throwing makes the SDK ack with code 500, so Feishu pushes
   * the event again later: used when nothing was persisted (accept failed, or we are shutting down).
   */
  async function onMessage(bridge: BridgeInbound, data: unknown): Promise<void> {
    if (stopped) throw new Error('feishu channel is stopping; Feishu will push this event again');
    const decision = convertMessageEvent(data, now());
    if (decision.kind === 'ignore') {
      log.debug('message ignored', { reason: decision.reason });
      return;
    }
    const message = decision.message;
    // Unsupported types go to the bridge too: it answers the owner "not supported yet" and a
    // stranger the same refusal as any other message (the owner check is the bridge's).
    if (decision.kind === 'unsupported') message.unsupportedType = decision.messageType;
    let result: AcceptResult;
    try {
      result = await bridge.accept(message);
    } catch (err) {
      log.error('accept failed', { err, messageId: message.id });
      throw err;
    }
    if (result.status === 'refused' && result.reason === 'shutting-down') {
      throw new Error('bridge is shutting down; Feishu will push this event again');
    }
  }

  async function onCardAction(bridge: BridgeInbound, data: unknown): Promise<CardCallbackAnswer> {
    const click = parseCardClick(data);
    if (!click?.action || stopped) return { toast: { type: 'error', content: t('actionInvalid') } };
    const messageId = click.messageId;
    const work = bridge.handleAction({
      channel: 'feishu',
      userId: click.userId,
      action: click.action,
      ...(messageId ? { messageId } : {}),
    });
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((resolve) => {
      timer = setTimeout(() => resolve('late'), ACTION_DEADLINE_MS);
    });
    try {
      const result = await Promise.race([work, late]);
      if (result !== 'late') return callbackAnswer(result, opts.lang);
    } catch (err) {
      log.warn('card action failed', { err });
      return { toast: { type: 'error', content: t('actionFailed') } };
    } finally {
      clearTimeout(timer);
    }
    work
      .then((r) => (r.card && messageId ? outbox.update(messageId, r.card) : undefined))
      .catch((err: unknown) => log.warn('late card action result could not be shown', { err }));
    return { toast: { type: 'info', content: t('actionPending') } };
  }

  return {
    id: 'feishu',
    outbox,
    speechToText,

    async start(bridge) {
      stopped = false;
      const dispatcher = new sdk.EventDispatcher({ logger: larkLogger, loggerLevel: sdk.LoggerLevel.error }).register<{
        'card.action.trigger': (data: unknown) => Promise<CardCallbackAnswer>;
      }>({
        'im.message.receive_v1': (data: unknown) => onMessage(bridge, data),
        'card.action.trigger': (data: unknown) => onCardAction(bridge, data),
      });
      let settle: (err?: Error) => void = () => undefined;
      const firstConnect = new Promise<void>((resolve, reject) => {
        settle = (err) => (err ? reject(err) : resolve());
      });
      ws = new sdk.WSClient({
        appId: opts.appId,
        appSecret: opts.appSecret,
        domain,
        httpInstance,
        logger: larkLogger,
        loggerLevel: sdk.LoggerLevel.error,
        onReady: () => {
          log.info('long connection ready');
          settle();
        },
        onError: (err) =>
          settle(new FeishuApiError('long-connection', { kind: 'rejected', msg: err.message }, 1, opts.lang)),
        onReconnecting: () => log.warn('long connection lost, reconnecting'),
        onReconnected: () => log.info('long connection re-established'),
      });
      await ws.start({ eventDispatcher: dispatcher });
      let timer: NodeJS.Timeout | undefined;
      try {
        await Promise.race([
          firstConnect,
          new Promise<void>((resolve) => (timer = setTimeout(resolve, opts.connectTimeoutMs ?? 15_000))),
        ]);
      } catch (err) {
        ws.close({ force: true });
        ws = undefined;
        throw err;
      } finally {
        clearTimeout(timer);
      }
    },

    async stop() {
      stopped = true;
      ws?.close({ force: true });
      ws = undefined;
    },

    status(): ChannelStatus {
      if (!ws) return { connected: false, detail: 'stopped' };
      const s = ws.getConnectionStatus();
      return {
        connected: s.state === 'connected',
        detail: s.reconnectAttempts > 0 ? `${s.state} (attempt ${s.reconnectAttempts})` : s.state,
      };
    },

    notify(target, cardMessageId, text, idempotencyKey) {
      return outbox.notify(target, cardMessageId, text, idempotencyKey);
    },

    async prepare(message) {
      const withImages = await downloadImages(message, {
        open: (key) => api.downloadImage(message.platformMessageId, key),
        // Named after the message and the key: a retry overwrites its own copy, nothing else.
        baseName: (key) => `${safeNamePart(message.platformMessageId)}_${safeNamePart(key)}`,
        imagesDir: opts.imagesDir,
        images: opts.images,
        lang: opts.lang,
        logger: log,
      });
      const { message: withFiles, notice } = await downloadFiles(withImages, {
        download: (messageId, key) => api.downloadFile(messageId, key),
        attachmentsDir: opts.attachmentsDir,
        files: opts.files,
        lang: opts.lang,
        logger: log,
      });
      const prepared = await transcribeVoiceMessage(withFiles, {
        download: (messageId, key) => api.downloadFile(messageId, key),
        stt: opts.speechToText === undefined ? speechToText : (opts.speechToText ?? undefined),
        voice: opts.voice ?? { enabled: true, max_seconds: 300 },
        maxBytes: opts.files.max_size_bytes,
        lang: opts.lang,
        logger: log,
      });
      await sendFilesNotice(outbox, message, notice, log, true);
      return prepared;
    },
  };
}
