import path from 'node:path';
import type { DWClientDownStream } from 'dingtalk-stream';
import type { BridgeInbound, Channel, ChannelStatus } from '../../bridge/channel.js';
import type { InboundMessage } from '../../bridge/inbound-message.js';
import type { CardAction, Reply } from '../../bridge/reply-model.js';
import type { Config } from '../../core/config-schema.js';
import type { Language } from '../../core/i18n.js';
import { JsonLedger } from '../../core/json-ledger.js';
import type { Logger } from '../../core/logger.js';
import { redact, registerSecret } from '../../core/redact.js';
import { DingTalkApi } from './dingtalk-api.js';
import { dingtalkMessages } from './dingtalk-messages.js';
import { createDingTalkOutbox } from './dingtalk-outbox.js';
import { GatewayClient, type GatewayState } from './gateway-client.js';
import { convertRobotMessage } from './inbound-robot-message.js';
import { OptionStore, type StoredPrompts } from './option-store.js';
import { parseChoice } from './option-tap.js';
import { prepareDingTalkMessage } from './prepare-message.js';

export interface DingTalkChannelOptions {
  clientId: string;
  clientSecret: string;
  /** `dingtalk.api_base`, no trailing slash (tests: the fake DingTalk). */
  apiBase: string;
  /** `dingtalk.oapi_base`: the legacy host of media uploads (default `https://oapi.dingtalk.com`). */
  oapiBase?: string;
  lang: Language;
  logger: Logger;
  imagesDir: string;
  images: Config['images'];
  /** `~/.cc-linker/attachments` and `[files]`: files, audio and video the user sends. */
  attachmentsDir: string;
  files: Config['files'];
  /** `voice.enabled` (default on): voice messages DingTalk transcribed become the prompt. */
  voice?: Pick<Config['voice'], 'enabled'>;
  stream: Config['stream'];
  /** `dingtalk.card_template_id` / `card_template_key`; absent = replies are markdown messages. */
  card?: { templateId: string; key: string };
  /** `Paths.runtimeDir`: sent messages, offered options and handled choices kept across restarts. */
  runtimeDir?: string;
  /** Wait before reconnecting (default 1 s) and before retrying a 429/5xx call (default 1 s). */
  retryMs?: number;
  now?: () => Date;
}

export const DINGTALK_CHANNEL = 'dingtalk';
/** The robot-message topic of the Stream protocol. */
export const TOPIC_ROBOT = '/v1.0/im/bot/messages/get';
/** A click on no prompt (no request has an empty id): the bridge says who may click and that nothing waits. */
const NO_PROMPT: CardAction = { type: 'permission', requestId: '', nonce: '', decision: 'deny' };

/**
 * The DingTalk channel (docs/design.md#dingtalk): the Stream-mode robot over `dingtalk-stream`
 * (`GatewayClient`), the owner's single chat only (groups are ignored; who the owner is stays the
 * bridge's decision), replies as robot markdown messages. A CALLBACK is acked only once
 * `bridge.accept()` has persisted the message (or it was ignored), so a crash before that gets a
 * re-push, which the bridge drops by its id. `start()` never throws: refused credentials or an
 * outage show in `status()` and are retried.
 */
export function createDingTalkChannel(
  opts: DingTalkChannelOptions,
): Channel & { prepare(m: InboundMessage): Promise<InboundMessage> } {
  registerSecret(opts.clientSecret);
  const log = opts.logger.child('dingtalk');
  const t = dingtalkMessages(opts.lang);
  const now = opts.now ?? (() => new Date());
  const api = new DingTalkApi({
    apiBase: opts.apiBase,
    ...(opts.oapiBase ? { oapiBase: opts.oapiBase } : {}),
    clientId: opts.clientId,
    clientSecret: opts.clientSecret,
    lang: opts.lang,
    ...(opts.retryMs !== undefined ? { retryDelayMs: opts.retryMs } : {}),
  });
  const file = (name: string) => (opts.runtimeDir ? path.join(opts.runtimeDir, name) : undefined);
  const options = new OptionStore(new JsonLedger<StoredPrompts>(file('dingtalk-options.json'), log, 200));
  const choices = new JsonLedger<string>(file('dingtalk-choices.json'), log, 2_000);
  const outbox = createDingTalkOutbox({
    api,
    lang: opts.lang,
    logger: log,
    stream: opts.stream,
    ...(opts.card ? { card: opts.card } : {}),
    options,
    sent: new JsonLedger<string>(file('dingtalk-sent.json'), log, 5_000),
  });
  let state: GatewayState = { state: 'stopped' };
  let client: GatewayClient | undefined;
  let stopping = false;

  /**
   * A choice — a number, or a tapped option's `<n> #<token>` — answering a prompt, handled once
   * per msgId. A tap on a prompt that is not open, or from a stranger (who was offered nothing), is
   * put to the bridge as a click on no prompt: it answers "not yours" or "expired", nothing runs.
   */
  async function onChoice(bridge: BridgeInbound, message: InboundMessage): Promise<boolean> {
    // A re-push of a choice already handled (its prompt is closed by now) is dropped here.
    if ((await choices.get(message.id)) !== undefined) return true;
    const parsed = parseChoice(message.text);
    const lookup = parsed && (await options.choice(message.userId, parsed));
    if (!lookup) return false;
    const target = { channel: DINGTALK_CHANNEL, userId: message.userId, chatId: message.chatId };
    const key = `${message.id}:choice`;
    try {
      let reply: Reply;
      if (lookup.kind === 'no-such-option') reply = { kind: 'text', text: t('noSuchOption', { n: lookup.n }) };
      else {
        const action = lookup.kind === 'option' ? lookup.action : NO_PROMPT;
        const result = await bridge.handleAction({ channel: DINGTALK_CHANNEL, userId: message.userId, action });
        reply = result.card ?? { kind: 'text', text: result.toast?.text ?? t('actionDone') };
      }
      await outbox.send(target, reply, key);
    } catch (err) {
      log.warn('choice failed', { err, messageId: message.id });
      await outbox.send(target, { kind: 'text', text: t('actionFailed') }, key).catch(() => {});
    }
    const token = lookup.kind === 'option' ? lookup.token : '';
    await choices.set(message.id, token);
    if (lookup.kind === 'option') await options.close(message.userId, token);
    return true;
  }

  /** True when the frame may be acked: handled, ignored, or the bridge has persisted it. */
  async function handle(bridge: BridgeInbound, frame: DWClientDownStream): Promise<boolean> {
    let data: unknown;
    try {
      data = JSON.parse(frame.data);
    } catch {
      log.warn('robot message not JSON; dropped', { frameId: frame.headers.messageId });
      return true;
    }
    const decision = convertRobotMessage(data, now());
    if (decision.kind === 'ignore') {
      log.debug('robot message ignored', { reason: decision.reason });
      return true;
    }
    const message = decision.message;
    if (message.images.length === 0 && (await onChoice(bridge, message))) return true;
    const result = await bridge.accept(message);
    return !(result.status === 'refused' && result.reason === 'shutting-down');
  }

  function onCallback(bridge: BridgeInbound, frame: DWClientDownStream): void {
    if (stopping) return;
    const current = client;
    void handle(bridge, frame).then(
      (ack) => {
        if (ack && !stopping) current?.socketCallBackResponse(frame.headers.messageId, {});
      },
      (err: unknown) => log.error('robot message not accepted; DingTalk pushes it again', { err }),
    );
  }

  return {
    id: DINGTALK_CHANNEL,
    outbox,

    async start(bridge) {
      stopping = false;
      client = new GatewayClient({
        clientId: opts.clientId,
        clientSecret: opts.clientSecret,
        gatewayUrl: `${opts.apiBase}/v1.0/gateway/connections/open`,
        topics: [TOPIC_ROBOT],
        ...(opts.retryMs !== undefined ? { retryMs: opts.retryMs } : {}),
        onCallback: (frame) => onCallback(bridge, frame),
        onState: (s) => {
          if (s.state !== state.state || s.detail !== state.detail)
            log.info('dingtalk state', { state: s.state, detail: s.detail });
          state = s;
        },
      });
      void client.connect();
    },

    async stop() {
      stopping = true;
      client?.disconnect();
      client = undefined;
    },

    status(): ChannelStatus {
      const detail = state.refused
        ? 'error: client id / secret refused by DingTalk'
        : state.detail
          ? `${state.state}: ${state.detail}`
          : state.state;
      return { connected: state.state === 'connected', detail: redact(detail) };
    },

    async notify(target, cardMessageId, text, idempotencyKey) {
      await outbox.notify(target, cardMessageId, text, idempotencyKey);
    },

    prepare(message) {
      const { imagesDir, images, attachmentsDir, files, lang } = opts;
      return prepareDingTalkMessage(message, {
        api,
        outbox,
        imagesDir,
        images,
        attachmentsDir,
        files,
        voice: opts.voice ?? { enabled: true },
        lang,
        logger: log,
      });
    },
  };
}
