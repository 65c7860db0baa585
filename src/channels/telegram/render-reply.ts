import type { CardButton, CardReply, CardSection, Reply } from '../../bridge/reply-model.js';
import { escapeHtml, fitChars, markdownToHtml, visibleLength } from './telegram-html.js';

/** Telegram's limit on one message's text, counted after entity parsing. */
export const TELEGRAM_MAX_TEXT = 4096;

export interface InlineKeyboard {
  inline_keyboard: Array<Array<{ text: string; callback_data: string }>>;
}

/** A reply as one Telegram message: HTML text and its inline keyboard (absent = none). */
export interface RenderedMessage {
  html: string;
  keyboard?: InlineKeyboard;
}

/** Gives a button its `callback_data` (see `ButtonStore`). */
export type BindButton = (button: CardButton) => Promise<string>;

function sectionHtml(section: CardSection): string | undefined {
  switch (section.type) {
    case 'markdown':
    case 'answer':
      return section.text.trim() === '' ? undefined : markdownToHtml(section.text);
    case 'plain':
      return section.text.trim() === '' ? undefined : escapeHtml(section.text);
    case 'quote':
      return section.text.trim() === '' ? undefined : `<blockquote>${escapeHtml(section.text)}</blockquote>`;
    case 'divider':
      return '──────────';
    case 'fields':
      if (section.fields.length === 0) return undefined;
      return section.fields.map((f) => `<b>${escapeHtml(f.label)}</b>: ${escapeHtml(f.value)}`).join('\n');
  }
}

/** Buttons three to a row, in order. */
export async function keyboardOf(
  buttons: CardButton[] | undefined,
  bind: BindButton,
): Promise<InlineKeyboard | undefined> {
  if (!buttons || buttons.length === 0) return undefined;
  const rows: InlineKeyboard['inline_keyboard'] = [];
  for (const [i, button] of buttons.entries()) {
    if (i % 3 === 0) rows.push([]);
    rows[rows.length - 1]?.push({ text: button.label.slice(0, 64), callback_data: await bind(button) });
  }
  return { inline_keyboard: rows };
}

/**
 * A card as one message: the title in bold, the sections, the footer in italics. The section
 * whose text is `answer.text` (Claude's answer) is cut to what fits `TELEGRAM_MAX_TEXT` with
 * `answer.note` under it, and `kept` says how many of its characters are shown; any other
 * section over the limit is cut the same way.
 */
export function cardHtml(card: CardReply, answer?: { text: string; note: string }): { html: string; kept: number } {
  const head = `<b>${escapeHtml(card.title)}</b>`;
  const foot = card.footer ? `<i>${escapeHtml(card.footer)}</i>` : undefined;
  const index =
    answer && answer.text !== ''
      ? card.sections.findIndex((s) => (s.type === 'plain' || s.type === 'answer') && s.text === answer.text)
      : -1;
  const parts = card.sections.map((s, i) => (i === index ? '' : (sectionHtml(s) ?? '')));
  const fixed = [head, ...parts, foot ?? ''].filter((p) => p !== '');
  const fixedLength = visibleLength(fixed.join('\n\n')) + 2 * fixed.length;
  let kept = answer?.text.length ?? 0;
  if (index >= 0 && answer) {
    const budget = TELEGRAM_MAX_TEXT - fixedLength;
    kept = answer.text.length <= budget ? answer.text.length : fitChars(answer.text, budget - answer.note.length - 2);
    const section = card.sections[index];
    const shown = answer.text.slice(0, kept);
    const body = section?.type === 'plain' ? escapeHtml(shown) : markdownToHtml(shown);
    parts[index] = kept < answer.text.length ? `${body}\n\n<i>${escapeHtml(answer.note)}</i>` : body;
  }
  let html = [head, ...parts.filter((p) => p !== ''), ...(foot ? [foot] : [])].join('\n\n');
  // Another section (a long tool input, a listing) over the limit: its text is cut as plain text.
  if (visibleLength(html) > TELEGRAM_MAX_TEXT) {
    const plain = html
      .replace(/<[^>]*>/g, '')
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&quot;/g, '"')
      .replace(/&amp;/g, '&');
    html = escapeHtml(plain.slice(0, fitChars(plain, TELEGRAM_MAX_TEXT - 2)));
  }
  return { html, kept };
}

/** A `Reply` as one message (a text reply is Claude's or the bridge's markdown). */
export async function renderReply(reply: Reply, bind: BindButton): Promise<RenderedMessage> {
  if (reply.kind === 'text') {
    const html = markdownToHtml(reply.text);
    return { html: html.trim() === '' ? escapeHtml(reply.text || '…') : html };
  }
  const keyboard = await keyboardOf(reply.buttons, bind);
  return { html: cardHtml(reply).html, ...(keyboard ? { keyboard } : {}) };
}
