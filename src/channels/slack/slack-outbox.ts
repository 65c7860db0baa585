import fs from 'node:fs/promises';
import type { ChannelOutbox } from '../../bridge/channel.js';
import type { ReplyTarget } from '../../bridge/inbound-message.js';
import type { JsonLedger } from '../../core/json-ledger.js';
import { actionBlocks, renderReply } from './render-blocks.js';
import { SlackApiError } from './slack-api-error.js';
import { markdownToMrkdwn } from './slack-mrkdwn.js';
import { openingMessage, slackReplyStream, type SlackStreamDeps } from './slack-stream.js';

/**
 * Longest text per plain message as the bridge splits long replies. Escaping (`&` → `&amp;`)
 * can make the rendering longer than the source; a chunk whose rendering is over the message
 * limit continues in a second message (`renderReply`), so this only keeps that rare.
 */
export const SLACK_MAX_TEXT_CHUNK = 8_000;

/** Slack takes files up to 1 GB. */
export const SLACK_MAX_FILE_BYTES = 1024 * 1024 * 1024;
/** A file's caption (its message) is cut here; the agent's caption is a line, not a report. */
const MAX_CAPTION_CHARS = 3_000;

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
 * as one conversation), updates by `chat.update`, streams through `slackReplyStream`. Each post
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
    /**
     * A checked file shared in the DM by `files.uploadV2` (an image shows as an image), its caption
     * as the file's message; once per delivery key (only the last step posts it, so an upload cut
     * short before it leaves nothing in the chat). The file is read once and its size checked again.
     */
    async sendFile(target, file, idempotencyKey) {
      const messageId = await once(idempotencyKey, async () => {
        const bytes = await fs.readFile(file.path);
        if (bytes.length === 0 || bytes.length > SLACK_MAX_FILE_BYTES)
          throw new SlackApiError('files.uploadV2', `file size ${bytes.length} not accepted`, d.lang);
        const caption = file.caption ? markdownToMrkdwn(file.caption.slice(0, MAX_CAPTION_CHARS)) : undefined;
        return d.api.upload(target.chatId, bytes, file.name, caption);
      });
      return { messageId };
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
      return slackReplyStream(messageId, d, buttons);
    },
    async notify(target, _cardMessageId, text, idempotencyKey) {
      const [message] = renderReply({ kind: 'text', text });
      if (message) await once(idempotencyKey, () => d.api.post(target.chatId, message));
    },
  };
}
