import { createHash } from 'node:crypto';
import type { ChannelOutbox } from '../../bridge/channel.js';
import type { ReplyTarget } from '../../bridge/inbound-message.js';
import type { Config } from '../../core/config-schema.js';
import type { Language } from '../../core/i18n.js';
import type { JsonLedger } from '../../core/json-ledger.js';
import type { Logger } from '../../core/logger.js';
import type { DingTalkApi } from './dingtalk-api.js';
import { DingTalkCardStream, FLOW, streamMarkdown } from './card-stream.js';
import { DingTalkReplyStream } from './dingtalk-stream.js';
import type { OptionStore } from './option-store.js';
import { sendReplyOpening } from './reply-opening.js';
import { DINGTALK_MAX_TEXT_CHUNK, renderMarkdown, titleOf } from './render-markdown.js';
import { sendDingTalkFile } from './send-dingtalk-file.js';

export interface DingTalkOutboxDeps {
  api: Pick<
    DingTalkApi,
    'sendMarkdown' | 'createCard' | 'streamCard' | 'updateCard' | 'uploadMedia' | 'sendFile' | 'sendImage'
  >;
  /** `dingtalk.card_template_id` and `card_template_key`: with a template, replies stream into an AI card. */
  card?: { templateId: string; key: string };
  lang: Language;
  logger: Logger;
  stream: Config['stream'];
  options: OptionStore;
  /**
   * Delivery key → sent message, written the moment DingTalk confirms a send. DingTalk has no
   * idempotency key, so this keeps a retried delivery from sending twice; the window left is a
   * crash between DingTalk's answer and this write (docs/design.md#dingtalk).
   */
  sent: JsonLedger<string>;
}

/** Our message id: `<staffId>/<processQueryKey>` (the user is needed to "update" it later). */
const messageRef = (userId: string, key: string) => `${userId}/${key}`;
const userOf = (messageId: string) => messageId.slice(0, messageId.indexOf('/'));

/** The DingTalk outbox, plus the short message that makes the phone notify. */
export interface DingTalkOutbox extends ChannelOutbox {
  notify(target: ReplyTarget, cardMessageId: string, text: string, idempotencyKey: string): Promise<void>;
}

/**
 * The DingTalk `ChannelOutbox` over robot markdown messages to one user (`batchSend`). Each send
 * is recorded under its delivery key as soon as DingTalk confirms it and never repeated for that
 * key. Robot messages cannot be edited: `update` sends the new card as a new message, once per
 * card content; a prompt's buttons become numbered options (`OptionStore`).
 */
export function createDingTalkOutbox(d: DingTalkOutboxDeps): DingTalkOutbox {
  async function sendOnce(userId: string, key: string, title: string, text: string): Promise<string> {
    const known = await d.sent.get(key);
    if (known) return known;
    const ref = messageRef(userId, await d.api.sendMarkdown(userId, title, text));
    await d.sent.set(key, ref);
    return ref;
  }

  async function sendReply(userId: string, key: string, reply: Parameters<typeof renderMarkdown>[0]) {
    const known = await d.sent.get(key);
    if (known) return known;
    // A prompt is offered before the send, so a tap the moment the message shows already counts.
    const actions = reply.kind === 'card' ? (reply.buttons ?? []).map((b) => b.action) : [];
    const prompt = await d.options.offer(userId, key, actions);
    const { title, text } = renderMarkdown(reply, d.lang, prompt);
    return sendOnce(userId, key, title, text);
  }

  /**
   * A reply streamed into an AI card. Its `outTrackId` derives from the delivery key, so a card
   * re-opened after a restart is the same card; creating it is recorded like any send — under
   * `<key>:card` when `<key>` is the "Queued" message the run took over (a markdown message, no
   * card), so that run gets its card too.
   */
  async function openCard(
    userId: string,
    key: string,
    card: { templateId: string; key: string },
    existing: string | undefined,
  ): Promise<DingTalkCardStream> {
    const cardOf = (ref: string | undefined) => (ref?.includes('/card:') ? ref : undefined);
    const first = await d.sent.get(key);
    const recordKey = first === undefined || cardOf(first) ? key : `${key}:card`;
    let messageId = cardOf(existing) ?? cardOf(first) ?? cardOf(await d.sent.get(`${key}:card`));
    const known = messageId?.split('/card:')[1];
    const outTrackId = known ?? `cc-${createHash('sha256').update(key).digest('hex').slice(0, 32)}`;
    if (!messageId) {
      const first = streamMarkdown(
        { phase: 'processing', text: '', thinking: '', toolCount: 0, elapsedMs: 0 },
        { lang: d.lang, showThinking: false },
      );
      await d.api.createCard(outTrackId, card.templateId, userId, { [card.key]: first, flowStatus: FLOW.processing });
      messageId = `${userId}/card:${outTrackId}`;
      await d.sent.set(recordKey, messageId);
    }
    return new DingTalkCardStream(messageId, outTrackId, {
      api: d.api,
      key: card.key,
      lang: d.lang,
      logger: d.logger,
      stream: d.stream,
      sendFinalOnce: async (title, text) => {
        await sendOnce(userId, `${key}:final`, title, text);
      },
    });
  }

  return {
    maxTextChunk: DINGTALK_MAX_TEXT_CHUNK,

    async send(target, reply, idempotencyKey) {
      return { messageId: await sendReply(target.userId, idempotencyKey, reply) };
    },

    /** A checked file: uploaded, then a file or picture message, once per key (`sendDingTalkFile`). */
    async sendFile(target, file, idempotencyKey) {
      return { messageId: await sendDingTalkFile(d, target.userId, file, idempotencyKey) };
    },

    async update(messageId, reply) {
      const userId = userOf(messageId);
      if (!userId) return;
      const { text } = renderMarkdown(reply, d.lang);
      const digest = createHash('sha256').update(text).digest('hex').slice(0, 16);
      await sendReply(userId, `update:${messageId}:${digest}`, reply);
    },

    async openStream(target, idempotencyKey, options) {
      if (d.card) return openCard(target.userId, idempotencyKey, d.card, options?.existingMessageId);
      const messageId = await sendReplyOpening(
        { lang: d.lang, options: d.options, sent: d.sent, sendOnce },
        target.userId,
        idempotencyKey,
        options,
      );
      return new DingTalkReplyStream(messageId, idempotencyKey, {
        lang: d.lang,
        fallbackToText: d.stream.fallback_to_text,
        sendOnce: (key, title, text) => sendOnce(target.userId, key, title, text),
      });
    },

    async notify(target, _cardMessageId, text, idempotencyKey) {
      const { text: body } = renderMarkdown({ kind: 'text', text }, d.lang);
      await sendOnce(target.userId, idempotencyKey, titleOf(text), body);
    },
  };
}
