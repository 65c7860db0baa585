import { sendFilesNotice } from '../../bridge/inbound-files/send-files-notice.js';
import path from 'node:path';
import { webApi, type App } from '@slack/bolt';
import type { BridgeInbound, Channel, ChannelStatus } from '../../bridge/channel.js';
import type { InboundMessage } from '../../bridge/inbound-message.js';
import type { CardAction } from '../../bridge/reply-model.js';
import type { Config } from '../../core/config-schema.js';
import type { Language } from '../../core/i18n.js';
import { JsonLedger } from '../../core/json-ledger.js';
import type { Logger } from '../../core/logger.js';
import { redact, registerSecret } from '../../core/redact.js';
import { RetryLater } from './ack-after-receiver.js';
import { downloadFiles } from '../../bridge/inbound-files/download-files.js';
import { downloadImages } from '../../bridge/inbound-files/download-images.js';
import { fetchDownload } from '../../bridge/inbound-files/fetch-download.js';
import { TooLarge } from '../../bridge/inbound-files/save-stream.js';
import { keepClipAsFile } from '../../bridge/voice/keep-clip-as-file.js';
import type { SpeechToText } from '../../bridge/voice/speech-to-text.js';
import { transcribeVoiceMessage } from '../../bridge/voice/transcribe-voice-message.js';
import { convertEvent, messageRef } from './inbound-event.js';
import { SlackApi } from './slack-api.js';
import { escapeMrkdwn } from './slack-mrkdwn.js';
import { SlackConnection, slackLogger, type BotIdentity, type ConnectionState } from './slack-connection.js';
import { createSlackOutbox } from './slack-outbox.js';
import { listenForSlashCommand } from './slash-command-listener.js';

export interface SlackChannelOptions {
  botToken: string;
  appToken: string;
  /** `slack.api_url`, ending in `/` (tests: the fake Slack). */
  apiUrl: string;
  lang: Language;
  logger: Logger;
  imagesDir: string;
  images: Config['images'];
  /** `~/.cc-linker/attachments`: files other than images, each message in a folder of its own. */
  attachmentsDir: string;
  files: Config['files'];
  stream: Config['stream'];
  /** `Paths.runtimeDir`: sent messages kept across restarts; memory only when absent. */
  runtimeDir?: string;
  /** Web API retries (429s wait out `Retry-After`; default 5, tests fewer). */
  retries?: number;
  /** Wait after a failed connect (default 3 s) and Socket Mode's ping timeout (default 5 s); tests shorten both. */
  backoffMs?: number;
  clientPingTimeoutMs?: number;
  now?: () => Date;
  /** Audio clips (default on, 300 s), transcribed by `speechToText`; a clip it cannot take is kept as a file. */
  voice?: Pick<Config['voice'], 'enabled' | 'max_seconds'>;
  speechToText?: SpeechToText;
}

export const SLACK_CHANNEL = 'slack';

/** The CardAction a button carries as JSON in its `value`, or undefined for anything else. */
function actionOf(value: unknown): CardAction | undefined {
  if (typeof value !== 'string') return undefined;
  try {
    const a = JSON.parse(value) as CardAction;
    return typeof a === 'object' && a !== null && typeof a.type === 'string' ? a : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The Slack channel (docs/design.md#slack): Bolt in Socket Mode (no public address), the owner's
 * direct messages only (who the owner is stays the bridge's decision), replies as Block Kit
 * messages streamed by `chat.update`, buttons as Block Kit buttons. An event is acknowledged only
 * once the bridge accepted it. `start()` never throws: a bad token or an outage shows in `status()`.
 */
export function createSlackChannel(
  opts: SlackChannelOptions,
): Channel & { prepare(m: InboundMessage): Promise<InboundMessage> } {
  registerSecret(opts.botToken);
  registerSecret(opts.appToken);
  const log = opts.logger.child('slack');
  const now = opts.now ?? (() => new Date());
  const retries = opts.retries ?? 5;
  const retryConfig = { retries, factor: 2, minTimeout: 500, maxTimeout: 30_000 };
  const client = new webApi.WebClient(opts.botToken, {
    slackApiUrl: opts.apiUrl,
    retryConfig,
    timeout: 30_000,
    logger: slackLogger(log),
  });
  const api = new SlackApi(client, opts.lang);
  const file = (name: string) => (opts.runtimeDir ? path.join(opts.runtimeDir, name) : undefined);
  const outbox = createSlackOutbox({
    api,
    lang: opts.lang,
    logger: log,
    stream: opts.stream,
    sent: new JsonLedger<string>(file('slack-sent.json'), log, 5_000),
  });
  let state: ConnectionState = { state: 'stopped' };
  let connection: SlackConnection | undefined;
  let stopping = false;

  function listen(bridge: BridgeInbound, app: App, me: BotIdentity): void {
    app.event('message', async ({ event }) => {
      const decision = convertEvent(event, me.userId, now());
      if (decision.kind === 'ignore') {
        log.debug('event ignored', { reason: decision.reason });
        return;
      }
      if (stopping) throw new RetryLater();
      let result;
      try {
        result = await bridge.accept(decision.message);
      } catch (err) {
        log.error('accept failed; Slack sends the event again', { err, messageId: decision.message.id });
        throw new RetryLater();
      }
      if (result.status === 'refused' && result.reason === 'shutting-down') throw new RetryLater();
    });
    listenForSlashCommand(app, { api, bridge, lang: opts.lang, logger: log, now, stopping: () => stopping });
    app.action(/.*/, async ({ ack, body }) => {
      await ack();
      if (body.type !== 'block_actions') return;
      const action = actionOf(body.actions[0] && 'value' in body.actions[0] ? body.actions[0].value : undefined);
      const channel = body.container?.channel_id ?? body.channel?.id;
      const ts = body.container?.message_ts ?? body.message?.ts;
      if (!action) return log.debug('click without an action of ours');
      try {
        const result = await bridge.handleAction({
          channel: SLACK_CHANNEL,
          userId: body.user.id,
          action,
          ...(channel && ts ? { messageId: messageRef(String(channel), String(ts)) } : {}),
        });
        if (result.card && channel && ts) await outbox.update(messageRef(String(channel), String(ts)), result.card);
        // Slack has no toast: a warning or an error (a stale button, not yours) is shown to the clicker only.
        const toast = result.toast;
        if (toast && (toast.type === 'warning' || toast.type === 'error') && channel)
          await api.ephemeral(String(channel), body.user.id, escapeMrkdwn(toast.text));
      } catch (err) {
        log.warn('button click failed', { err });
      }
    });
  }

  return {
    id: SLACK_CHANNEL,
    outbox,

    async start(bridge) {
      stopping = false;
      connection = new SlackConnection({
        botToken: opts.botToken,
        appToken: opts.appToken,
        apiUrl: opts.apiUrl,
        lang: opts.lang,
        logger: log,
        retryConfig,
        ...(opts.backoffMs !== undefined ? { backoffMs: opts.backoffMs } : {}),
        ...(opts.clientPingTimeoutMs !== undefined ? { clientPingTimeoutMs: opts.clientPingTimeoutMs } : {}),
        listen: (app, me) => listen(bridge, app, me),
        onState: (s) => {
          if (s.state !== state.state) log.info('slack state', { state: s.state, detail: s.detail });
          state = s;
        },
      });
      connection.start();
    },

    async stop() {
      stopping = true;
      await connection?.stop();
      connection = undefined;
    },

    status(): ChannelStatus {
      // Connected: the bot's @name; otherwise the state, with the error when there is one.
      const detail =
        state.state === 'connected'
          ? (state.detail ?? state.state)
          : state.detail
            ? `${state.state}: ${state.detail}`
            : state.state;
      return { connected: state.state === 'connected', detail: redact(detail) };
    },

    async notify(target, cardMessageId, text, idempotencyKey) {
      await outbox.notify(target, cardMessageId, text, idempotencyKey);
    },

    async prepare(message) {
      // A file's private URL gets the bot token only on Slack's file host or the Web API's own origin.
      const allowed = ['https://files.slack.com', new URL(opts.apiUrl).origin];
      const open = async (url: string) => {
        if (!allowed.includes(new URL(url).origin)) throw new Error('file URL outside Slack');
        return fetchDownload(url, { headers: { authorization: `Bearer ${opts.botToken}` }, redirect: 'error' });
      };
      const voice = {
        stt: opts.speechToText,
        voice: opts.voice ?? { enabled: true, max_seconds: 300 },
        lang: opts.lang,
      };
      const withClip = keepClipAsFile(message, voice);
      const withImages = await downloadImages(withClip, {
        open,
        requireImageBytes: true,
        imagesDir: opts.imagesDir,
        images: opts.images,
        lang: opts.lang,
        logger: log,
      });
      // Slack announces each file's size: one over the limit is refused before a byte is fetched.
      const announced = new Map((withClip.files ?? []).map((f) => [f.key, f.size]));
      const { message: prepared, notice } = await downloadFiles(withImages, {
        download: async (_messageId, key) => {
          if ((announced.get(key) ?? 0) > opts.files.max_size_bytes) throw new TooLarge();
          return open(key);
        },
        attachmentsDir: opts.attachmentsDir,
        files: opts.files,
        lang: opts.lang,
        logger: log,
      });
      const heard = await transcribeVoiceMessage(prepared, {
        ...voice,
        download: (_messageId, key) => open(key),
        maxBytes: opts.files.max_size_bytes,
        logger: log,
      });
      await sendFilesNotice(outbox, message, notice, log);
      return heard;
    },
  };
}
