import fs from 'node:fs/promises';
import type { ChannelOutbox } from '../../bridge/channel.js';
import type { ReplyTarget } from '../../bridge/inbound-message.js';
import type { JsonLedger } from '../../core/json-ledger.js';
import { parseMessageRef } from './telegram-api.js';
import { toTelegramError } from './telegram-api-error.js';
import { keyboardOf, renderReply } from './render-reply.js';
import { openingHtml, telegramReplyStream, type TelegramStreamDeps } from './telegram-stream.js';

/**
 * Longest text per plain message as the bridge splits long replies: under Telegram's 4096 so that
 * the rendered HTML, whose visible text is never longer than its source, always fits.
 */
export const TELEGRAM_MAX_TEXT_CHUNK = 4_000;

/** Bot API upload limits: photos up to 10 MB (larger images go as documents), documents up to 50 MB. */
export const TELEGRAM_MAX_PHOTO_BYTES = 10 * 1024 * 1024;
export const TELEGRAM_MAX_DOCUMENT_BYTES = 50 * 1024 * 1024;

export interface TelegramOutboxDeps extends TelegramStreamDeps {
  /**
   * Delivery key → sent message reference, written the moment Telegram confirms a send. Telegram
   * has no idempotency key, so this is what keeps a retried delivery from sending twice; the window
   * left is a crash between Telegram's answer and this write (docs/design.md#telegram).
   */
  sent: JsonLedger<string>;
}

function chatOf(target: ReplyTarget): number {
  return Number(target.chatId || target.userId);
}

function replyToOf(target: ReplyTarget): number | undefined {
  return target.replyTo ? parseMessageRef(target.replyTo)?.messageId : undefined;
}

/** The Telegram outbox, plus the short message that makes the phone notify. */
export interface TelegramOutbox extends ChannelOutbox {
  notify(target: ReplyTarget, cardMessageId: string, text: string, idempotencyKey: string): Promise<void>;
}

/**
 * The Telegram `ChannelOutbox`: replies as HTML messages with inline keyboards, updates by
 * `editMessageText`, streams through `telegramReplyStream`. Each send is recorded under its
 * delivery key as soon as Telegram confirms it and never repeated for that key.
 */
export function createTelegramOutbox(d: TelegramOutboxDeps): TelegramOutbox {
  const bind = d.bind;
  async function once(key: string, send: () => Promise<string>): Promise<string> {
    const known = await d.sent.get(key);
    if (known) return known;
    const ref = await send();
    await d.sent.set(key, ref);
    return ref;
  }
  return {
    maxTextChunk: TELEGRAM_MAX_TEXT_CHUNK,
    async send(target, reply, idempotencyKey) {
      const messageId = await once(idempotencyKey, async () => {
        const { html, keyboard } = await renderReply(reply, bind);
        const replyTo = replyToOf(target);
        return d.api.send(chatOf(target), html, { ...(keyboard ? { keyboard } : {}), ...(replyTo ? { replyTo } : {}) });
      });
      return { messageId };
    },
    /**
     * A checked file: an image up to 10 MB as a photo, anything else as a document; the caption
     * follows as a text message replying to it (`<key>:caption`). The file is read once and its
     * size checked again (it may have changed since the check).
     */
    async sendFile(target, file, idempotencyKey) {
      const messageId = await once(idempotencyKey, async () => {
        const bytes = await fs.readFile(file.path);
        if (bytes.length === 0 || bytes.length > TELEGRAM_MAX_DOCUMENT_BYTES)
          throw toTelegramError(
            'sendDocument',
            { error_code: 400, description: `file size ${bytes.length} not accepted` },
            d.lang,
          );
        const photo = file.image && bytes.length <= TELEGRAM_MAX_PHOTO_BYTES;
        const replyTo = replyToOf(target);
        return d.api.sendFile(chatOf(target), bytes, { name: file.name, photo, ...(replyTo ? { replyTo } : {}) });
      });
      if (file.caption) {
        const caption = file.caption;
        await once(`${idempotencyKey}:caption`, async () => {
          const { html } = await renderReply({ kind: 'text', text: caption }, bind);
          return d.api.send(chatOf(target), html, { replyTo: parseMessageRef(messageId)?.messageId ?? 0 });
        });
      }
      return { messageId };
    },
    async update(messageId, reply) {
      const { html, keyboard } = await renderReply(reply, bind);
      await d.api.edit(messageId, html, keyboard);
    },
    async openStream(target, idempotencyKey, options) {
      const keyboard = await keyboardOf(options?.buttons, bind);
      const messageId =
        options?.existingMessageId ??
        (await once(idempotencyKey, () =>
          d.api.send(chatOf(target), openingHtml(d.lang), {
            ...(keyboard ? { keyboard } : {}),
            ...(replyToOf(target) ? { replyTo: replyToOf(target) } : {}),
          }),
        ));
      return telegramReplyStream(messageId, d, keyboard);
    },
    async notify(target, cardMessageId, text, idempotencyKey) {
      const card = parseMessageRef(cardMessageId);
      await once(idempotencyKey, async () => {
        const { html } = await renderReply({ kind: 'text', text }, bind);
        return d.api.send(chatOf(target), html, card ? { replyTo: card.messageId } : {});
      });
    },
  };
}
