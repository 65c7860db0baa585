import type { ReplyStream, StreamState } from '../../bridge/channel.js';
import { streamStatusParts } from '../../bridge/stream-status.js';
import type { CardReply } from '../../bridge/reply-model.js';
import { CoalescingThrottle } from '../../core/coalescing-throttle.js';
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
/** Consecutive failed edits after which the stream stops editing and the rest goes out as text. */
export const MAX_CONSECUTIVE_FAILURES = 3;
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
 * One reply streaming into one Telegram message by `editMessageText`, at most one edit per
 * `max(stream.throttle_ms, MIN_EDIT_GAP_MS)` through the shared coalescing throttle (intermediate
 * states are skipped, the last one always shown). Edits that change nothing are not sent; a
 * "not modified" answer counts as done. After {@link MAX_CONSECUTIVE_FAILURES} failed edits it
 * stops editing; `finish()` then returns what the message does not show as `overflow`.
 */
export class TelegramReplyStream implements ReplyStream {
  private state: StreamState | undefined;
  private shown = { html: '', text: '' };
  private failures = 0;
  private degraded = false;
  private finished = false;
  private readonly interval: number;
  private readonly throttle: CoalescingThrottle;

  constructor(
    readonly messageId: string,
    private readonly d: TelegramStreamDeps,
    private readonly keyboard?: InlineKeyboard,
  ) {
    this.interval = Math.max(d.stream.throttle_ms, MIN_EDIT_GAP_MS);
    this.throttle = new CoalescingThrottle(() => this.flush(), this.interval);
  }

  update(state: StreamState): void {
    if (this.finished || this.degraded) return;
    this.state = state;
    this.throttle.request();
  }

  async finish(final: CardReply, fullText: string): Promise<{ overflow: string }> {
    if (this.finished) return { overflow: '' };
    this.finished = true;
    await this.throttle.stop();
    const note = telegramMessages(this.d.lang)('continuedBelow');
    const { html, kept } = cardHtml(final, { text: fullText, note });
    try {
      await this.finalEdit(html, await keyboardOf(final.buttons, this.d.bind));
      return { overflow: this.d.stream.fallback_to_text ? fullText.slice(kept).replace(/^\n+/, '') : '' };
    } catch (err) {
      this.d.logger.warn('final message edit failed; the rest goes out as text', { messageId: this.messageId, err });
      if (fullText === '')
        return {
          overflow: final.sections
            .map((s) => ('text' in s ? s.text : ''))
            .filter(Boolean)
            .join('\n\n'),
        };
      const rest = fullText.startsWith(this.shown.text) ? fullText.slice(this.shown.text.length) : fullText;
      return { overflow: rest.replace(/^\n+/, '') };
    }
  }

  /**
   * The final edit, tried up to {@link MAX_CONSECUTIVE_FAILURES} times {@link MIN_EDIT_GAP_MS}
   * apart when Telegram failed (5xx) or did not answer: an edit is idempotent, and one passing
   * failure would otherwise leave the message "⏳ Thinking…" with a live Stop button while the
   * answer goes out as text. A refusal (4xx; 429s are waited out by auto-retry) is not retried.
   */
  private async finalEdit(html: string, keyboard: InlineKeyboard | undefined): Promise<void> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await this.d.api.edit(this.messageId, html, keyboard);
      } catch (err) {
        const code = err instanceof TelegramApiError ? err.errorCode : 0;
        if (attempt >= MAX_CONSECUTIVE_FAILURES || (code >= 400 && code < 500)) throw err;
        this.d.logger.warn('final message edit failed; retrying', { messageId: this.messageId, attempt, err });
        await new Promise((resolve) => setTimeout(resolve, MIN_EDIT_GAP_MS));
      }
    }
  }

  private async flush(): Promise<void> {
    const state = this.state;
    if (!state || this.degraded || this.finished) return;
    const view = streamHtml(state, { lang: this.d.lang, showThinking: this.d.stream.show_thinking });
    if (view.html === this.shown.html) return;
    try {
      await this.d.api.edit(this.messageId, view.html, this.keyboard);
      this.shown = { html: view.html, text: state.text.slice(0, view.shownChars) };
      this.failures = 0;
      this.throttle.setInterval(this.interval);
    } catch (err) {
      this.failures += 1;
      this.d.logger.warn('stream message edit failed', { messageId: this.messageId, failures: this.failures, err });
      if (this.failures >= MAX_CONSECUTIVE_FAILURES) {
        this.degraded = true;
        return;
      }
      this.throttle.setInterval(Math.max(this.interval, 3_000));
      this.throttle.request();
    }
  }
}

/** The first text of a new streamed message (before any state arrives). */
export function openingHtml(lang: Language): string {
  return streamHtml(
    { phase: 'processing', text: '', thinking: '', toolCount: 0, elapsedMs: 0 },
    { lang, showThinking: false },
  ).html;
}
