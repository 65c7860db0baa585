import type { StreamState } from '../../bridge/channel.js';
import { EditedReplyStream } from '../../bridge/edited-reply-stream.js';
import { streamStatusParts } from '../../bridge/stream-status.js';
import type { Config } from '../../core/config-schema.js';
import type { Language } from '../../core/i18n.js';
import type { Logger } from '../../core/logger.js';
import { cardHtml, keyboardOf, TELEGRAM_MAX_TEXT, type BindButton, type InlineKeyboard } from './render-reply.js';
import { escapeHtml, fitChars, markdownToHtml, visibleLength } from './telegram-html.js';
import type { TelegramApi } from './telegram-api.js';
import { TelegramApiError } from './telegram-api-error.js';
import { telegramMessages } from './telegram-messages.js';

/** Telegram allows about one edit per second per chat; never edit faster than this. */
export const MIN_EDIT_GAP_MS = 1_000;
const MAX_THINKING_CHARS = 1_000;

export interface TelegramStreamDeps {
  api: TelegramApi;
  lang: Language;
  logger: Logger;
  stream: Config['stream'];
  bind: BindButton;
}

const cap = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, max)}…`);

/**
 * A stream state in text form, the same parts as the Feishu streaming card: the thinking as a
 * quote, the answer so far (cut with a note once over Telegram's limit) and the heartbeat line
 * (elapsed time, the tool running, the plan, tools used). `shownChars` = characters of the
 * answer shown.
 */
export function streamHtml(
  state: StreamState,
  o: { lang: Language; showThinking: boolean },
): { html: string; shownChars: number } {
  const t = telegramMessages(o.lang);
  const status = streamStatusParts(state, o.lang);
  const statusLine = `<i>${escapeHtml(status.join(' · '))}</i>`;
  const thinking = state.thinking.trim();
  const quote =
    o.showThinking && thinking !== ''
      ? `<blockquote>${escapeHtml(cap(thinking, MAX_THINKING_CHARS))}</blockquote>`
      : '';
  let answer = state.text === '' ? escapeHtml(t('waiting')) : markdownToHtml(state.text);
  let shownChars = state.text.length;
  const budget = TELEGRAM_MAX_TEXT - visibleLength(quote + statusLine) - 8;
  if (state.text !== '' && state.text.length > budget) {
    const note = t('streamCapped');
    shownChars = fitChars(state.text, budget - note.length - 2);
    answer = `${markdownToHtml(state.text.slice(0, shownChars))}\n\n<i>${escapeHtml(note)}</i>`;
  }
  return { html: [quote, answer, statusLine].filter((p) => p !== '').join('\n\n'), shownChars };
}

/**
 * One reply streaming into one Telegram message by `editMessageText` (the shared
 * `EditedReplyStream`: throttled, unchanged edits skipped, the final edit retried while Telegram
 * fails). A "not modified" answer counts as done; a refusal (4xx; 429s are waited out by
 * auto-retry) is not retried.
 */
export function telegramReplyStream(
  messageId: string,
  d: TelegramStreamDeps,
  keyboard?: InlineKeyboard,
): EditedReplyStream<{ html: string; keyboard?: InlineKeyboard }> {
  return new EditedReplyStream(
    messageId,
    {
      view: (state) => {
        const v = streamHtml(state, { lang: d.lang, showThinking: d.stream.show_thinking });
        return { payload: { html: v.html, ...(keyboard ? { keyboard } : {}) }, key: v.html, shownChars: v.shownChars };
      },
      final: async (card, fullText) => {
        const { html, kept } = cardHtml(card, { text: fullText, note: telegramMessages(d.lang)('continuedBelow') });
        const buttons = await keyboardOf(card.buttons, d.bind);
        return { payload: { html, ...(buttons ? { keyboard: buttons } : {}) }, kept };
      },
      edit: (p) => d.api.edit(messageId, p.html, p.keyboard),
      retryable: (err) => {
        const code = err instanceof TelegramApiError ? err.errorCode : 0;
        return !(code >= 400 && code < 500);
      },
    },
    { stream: d.stream, logger: d.logger, minGapMs: MIN_EDIT_GAP_MS },
  );
}

/** The first text of a new streamed message (before any state arrives). */
export function openingHtml(lang: Language): string {
  return streamHtml(
    { phase: 'processing', text: '', thinking: '', toolCount: 0, elapsedMs: 0 },
    { lang, showThinking: false },
  ).html;
}
