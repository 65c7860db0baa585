import type { ChannelOutbox } from '../../bridge/channel.js';
import type { ReplyTarget } from '../../bridge/inbound-message.js';
import type { FeishuTarget } from './feishu-api.js';
import { asCardReply, renderCard, renderMessage } from './render-card.js';
import { sendFileMessage } from './send-file-message.js';
import { openStreamCard, type StreamCardDeps } from './stream-card.js';

/**
 * Longest text per plain message. Feishu accepts up to 150 KB of text per message, but a few
 * thousand characters is what still reads well on a phone; longer replies are split by the bridge
 * at paragraph boundaries.
 */
export const FEISHU_MAX_TEXT_CHUNK = 4_000;

function feishuTarget(target: ReplyTarget): FeishuTarget {
  return {
    userId: target.userId,
    ...(target.chatId ? { chatId: target.chatId } : {}),
    ...(target.replyTo ? { replyTo: target.replyTo } : {}),
  };
}

/** The Feishu outbox, plus the reply that makes the phone notify about a card. */
export interface FeishuOutbox extends ChannelOutbox {
  /**
   * Sends `text` as a reply to the card `cardMessageId` (`im.v1.message.reply`, the key as
   * Feishu's `uuid`): a new message notifies the phone where a card update does not. Falls back to
   * a new message when Feishu refuses the reply (the card was recalled).
   */
  notify(target: ReplyTarget, cardMessageId: string, text: string, idempotencyKey: string): Promise<void>;
}

/**
 * The Feishu `ChannelOutbox`: text replies as `text` messages, cards as JSON 2.0 `interactive`
 * messages, files the agent sends as uploaded `image` / `file` messages (`send-file-message.ts`), card updates by message patch (or CardKit full update for a streamed card entity),
 * streams through `openStreamCard`. Every call goes through `FeishuApi` (one retry policy, the
 * delivery's idempotency key as Feishu's `uuid`).
 */
export function createFeishuOutbox(d: StreamCardDeps): FeishuOutbox {
  return {
    maxTextChunk: FEISHU_MAX_TEXT_CHUNK,
    async send(target, reply, idempotencyKey) {
      const { msgType, content } = renderMessage(reply, d.lang);
      const sent = await d.api.send(feishuTarget(target), msgType, content, idempotencyKey);
      return { messageId: sent.messageId };
    },
    sendFile(target, file, idempotencyKey) {
      const caption = file.caption ? renderMessage({ kind: 'text', text: file.caption }, d.lang).content : undefined;
      return sendFileMessage(d.api, feishuTarget(target), file, idempotencyKey, caption);
    },
    async update(messageId, reply) {
      const card = renderCard(asCardReply(reply), { lang: d.lang, config: { streaming_mode: false } }).card;
      const record = await d.store.byMessageId(messageId);
      if (record) await d.api.cardUpdate(record.cardId, card, d.store.nextSequence(record));
      else await d.api.patch(messageId, JSON.stringify(card));
    },
    openStream(target, idempotencyKey, options) {
      return openStreamCard(d, feishuTarget(target), idempotencyKey, options ?? {});
    },
    async notify(target, cardMessageId, text, idempotencyKey) {
      const { msgType, content } = renderMessage({ kind: 'text', text }, d.lang);
      await d.api.send({ ...feishuTarget(target), replyTo: cardMessageId }, msgType, content, idempotencyKey);
    },
  };
}
