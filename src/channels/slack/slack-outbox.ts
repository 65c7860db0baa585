import type { ChannelOutbox } from '../../bridge/channel.js';
import type { ReplyTarget } from '../../bridge/inbound-message.js';
import type { JsonLedger } from '../../core/json-ledger.js';
import { actionBlocks, renderReply } from './render-blocks.js';
import { openingMessage, SlackReplyStream, type SlackStreamDeps } from './slack-stream.js';

/**
 * Longest text per plain message as the bridge splits long replies. Escaping (`&` → `&amp;`)
 * can make the rendering longer than the source; a chunk whose rendering is over the message
 * limit continues in a second message (`renderReply`), so this only keeps that rare.
 */
export const SLACK_MAX_TEXT_CHUNK = 8_000;

export interface SlackOutboxDeps extends SlackStreamDeps {
  /**
   * Delivery key → sent message reference, written the moment Slack confirms a post. Slack has
   * no idempotency key, so this is what keeps a retried delivery from posting twice; the window
   * left is a crash between Slack's answer and this write (docs/design.md#slack).
   */
  sent: JsonLedger<string>;
}

/** The Slack outbox, plus the short message that makes the phone notify. */
export interface SlackOutbox extends ChannelOutbox {
  notify(target: ReplyTarget, cardMessageId: string, text: string, idempotencyKey: string): Promise<void>;
}

/**
 * The Slack `ChannelOutbox`: replies as Block Kit messages in the DM (not threaded: a DM reads
 * as one conversation), updates by `chat.update`, streams through `SlackReplyStream`. Each post
 * is recorded under its delivery key as soon as Slack confirms it and never repeated for that key.
 */
export function createSlackOutbox(d: SlackOutboxDeps): SlackOutbox {
  async function once(key: string, send: () => Promise<string>): Promise<string> {
    const known = await d.sent.get(key);
    if (known) return known;
    const ref = await send();
    await d.sent.set(key, ref);
    return ref;
  }
  return {
    maxTextChunk: SLACK_MAX_TEXT_CHUNK,
    async send(target, reply, idempotencyKey) {
      const parts = renderReply(reply);
      let first = '';
      for (const [i, part] of parts.entries()) {
        const ref = await once(i === 0 ? idempotencyKey : `${idempotencyKey}:${i}`, () =>
          d.api.post(target.chatId, part),
        );
        if (i === 0) first = ref;
      }
      return { messageId: first };
    },
    async update(messageId, reply) {
      const [message] = renderReply(reply);
      if (message) await d.api.update(messageId, message);
    },
    async openStream(target, idempotencyKey, options) {
      const buttons = actionBlocks(options?.buttons);
      const messageId =
        options?.existingMessageId ??
        (await once(idempotencyKey, () => d.api.post(target.chatId, openingMessage(d.lang, buttons))));
      return new SlackReplyStream(messageId, d, buttons);
    },
    async notify(target, _cardMessageId, text, idempotencyKey) {
      const [message] = renderReply({ kind: 'text', text });
      if (message) await once(idempotencyKey, () => d.api.post(target.chatId, message));
    },
  };
}
