import { InputFile, type Api } from 'grammy';
import type { Language } from '../../core/i18n.js';
import type { InlineKeyboard } from './render-reply.js';
import { isNotModified, toTelegramError } from './telegram-api-error.js';

/** A message as we address it: `<chat id>:<message id>` (an edit needs both). */
export function messageRef(chatId: number | string, messageId: number): string {
  return `${chatId}:${messageId}`;
}

export function parseMessageRef(ref: string): { chatId: number; messageId: number } | undefined {
  const m = /^(-?\d+):(\d+)$/.exec(ref);
  return m ? { chatId: Number(m[1]), messageId: Number(m[2]) } : undefined;
}

/**
 * The Bot API calls the channel makes, through grammY's `Api` (with the auto-retry transformer
 * for 429s installed by the channel); every failure becomes a `TelegramApiError` without the URL.
 */
export class TelegramApi {
  constructor(
    private readonly api: Api,
    private readonly lang: Language,
  ) {}

  /** Sends one HTML message; resolves once Telegram has confirmed it, with its reference. */
  async send(chatId: number, html: string, o: { keyboard?: InlineKeyboard; replyTo?: number } = {}): Promise<string> {
    try {
      const sent = await this.api.sendMessage(chatId, html, {
        parse_mode: 'HTML',
        link_preview_options: { is_disabled: true },
        ...(o.keyboard ? { reply_markup: o.keyboard } : {}),
        ...(o.replyTo ? { reply_parameters: { message_id: o.replyTo, allow_sending_without_reply: true } } : {}),
      });
      return messageRef(chatId, sent.message_id);
    } catch (err) {
      throw toTelegramError('sendMessage', err, this.lang);
    }
  }

  /**
   * Replaces a message's text and keyboard (no `keyboard` = the keyboard is removed). Telegram's
   * "message is not modified" (the same text and keyboard again) counts as done.
   */
  async edit(ref: string, html: string, keyboard?: InlineKeyboard): Promise<void> {
    const target = parseMessageRef(ref);
    if (!target)
      throw toTelegramError('editMessageText', { error_code: 400, description: 'bad message reference' }, this.lang);
    try {
      await this.api.editMessageText(target.chatId, target.messageId, html, {
        parse_mode: 'HTML',
        link_preview_options: { is_disabled: true },
        ...(keyboard ? { reply_markup: keyboard } : {}),
      });
    } catch (err) {
      const e = toTelegramError('editMessageText', err, this.lang);
      if (!isNotModified(e)) throw e;
    }
  }

  /**
   * Uploads `bytes` as a photo (`sendPhoto`) or a document (`sendDocument`, named `name`), as one
   * multipart request; resolves with the message reference once Telegram confirmed it.
   */
  async sendFile(
    chatId: number,
    bytes: Buffer,
    o: { name: string; photo: boolean; replyTo?: number },
  ): Promise<string> {
    const reply = o.replyTo ? { reply_parameters: { message_id: o.replyTo, allow_sending_without_reply: true } } : {};
    const file = new InputFile(bytes, o.name);
    try {
      const sent = o.photo
        ? await this.api.sendPhoto(chatId, file, reply)
        : await this.api.sendDocument(chatId, file, reply);
      return messageRef(chatId, sent.message_id);
    } catch (err) {
      throw toTelegramError(o.photo ? 'sendPhoto' : 'sendDocument', err, this.lang);
    }
  }

  /** Ends the button's spinner; a late or repeated answer is Telegram's to refuse, never ours to fail on. */
  async answerCallback(id: string, text?: string): Promise<void> {
    try {
      await this.api.answerCallbackQuery(id, text ? { text: text.slice(0, 200) } : {});
    } catch (err) {
      throw toTelegramError('answerCallbackQuery', err, this.lang);
    }
  }

  /** The `file_path` of a file to download from `{api_root}/file/bot<token>/<file_path>`. */
  async filePath(fileId: string): Promise<{ path: string; size?: number }> {
    try {
      const file = await this.api.getFile(fileId);
      if (!file.file_path) throw new Error('no file_path');
      return { path: file.file_path, ...(file.file_size !== undefined ? { size: file.file_size } : {}) };
    } catch (err) {
      throw toTelegramError('getFile', err, this.lang);
    }
  }
}
