import type { CardButton, CardReply, CardSection, CardStatus, Reply } from '../../bridge/reply-model.js';
import type { Language } from '../../core/i18n.js';
import {
  answerFit,
  answerMarkdown,
  escapedFit,
  escapeMarkdown,
  jsonBytes,
  neutralizeTextMentions,
  quoteMarkdown,
} from './escape-markdown.js';
import { feishuMessages } from './feishu-messages.js';

/** Feishu rejects a card whose JSON is over 30 KB; the margin covers what we cannot measure exactly. */
export const CARD_MAX_BYTES = 30 * 1024 - 512;

/** A card as Feishu's JSON 2.0 schema describes it (`schema`, `config`, `header`, `body.elements`). */
export type CardJson = Record<string, unknown>;

/** Header colour per card status (Feishu `header.template`). */
export const HEADER_TEMPLATE: Readonly<Record<CardStatus, string>> = {
  processing: 'blue',
  streaming: 'wathet',
  complete: 'green',
  error: 'red',
  warning: 'orange',
  info: 'grey',
  stopped: 'grey',
};

export interface RenderCardOptions {
  lang: Language;
  /** Largest serialised card, default {@link CARD_MAX_BYTES}. */
  maxBytes?: number;
  /** Shown under a section that had to be cut, default "…(too long, truncated)". */
  truncationNote?: string;
  /** Merged into `config` (e.g. `{streaming_mode: false}`). */
  config?: Record<string, unknown>;
}

/** A rendered card and which sections were cut to fit (`keptChars` of the section's `text`). */
export interface RenderedCard {
  card: CardJson;
  truncated: Array<{ section: number; keptChars: number }>;
}

type TextSection = Extract<CardSection, { text: string }>;

function markdown(content: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { tag: 'markdown', content, ...extra };
}

/** Markdown of a grey note: `text` shown literally. */
export function noteMarkdown(text: string): string {
  return `<font color='grey'>${escapeMarkdown(text)}</font>`;
}

/** A grey, small line (footers, notes). */
function noteElement(text: string): Record<string, unknown> {
  return markdown(noteMarkdown(text), { text_size: 'notation' });
}

function sectionElement(section: CardSection): Record<string, unknown> | undefined {
  switch (section.type) {
    case 'markdown':
      return section.text.trim() === '' ? undefined : markdown(section.text);
    case 'plain':
      return section.text.trim() === '' ? undefined : markdown(escapeMarkdown(section.text));
    case 'answer':
      return section.text.trim() === '' ? undefined : markdown(answerMarkdown(section.text));
    case 'quote':
      return section.text.trim() === '' ? undefined : markdown(quoteMarkdown(section.text));
    case 'divider':
      return { tag: 'hr' };
    case 'fields':
      if (section.fields.length === 0) return undefined;
      return markdown(
        section.fields.map((f) => `**${escapeMarkdown(f.label)}**: ${escapeMarkdown(f.value)}`).join('\n'),
      );
  }
}

const BUTTON_TYPE: Readonly<Record<NonNullable<CardButton['style']>, string>> = {
  primary: 'primary_filled',
  danger: 'danger',
  default: 'default',
};

/**
 * JSON 2.0 has no action row: buttons sit in auto-width columns of a `flow` column set, so they
 * wrap on narrow screens. Each click comes back as `card.action.trigger` with `action.value` =
 * the button's `CardAction`, exactly as rendered here.
 */
export function buttonsElement(buttons: CardButton[]): Record<string, unknown> {
  return {
    tag: 'column_set',
    flex_mode: 'flow',
    horizontal_spacing: '8px',
    columns: buttons.map((b) => ({
      tag: 'column',
      width: 'auto',
      elements: [
        {
          tag: 'button',
          text: { tag: 'plain_text', content: b.label },
          type: BUTTON_TYPE[b.style ?? 'default'],
          behaviors: [{ type: 'callback', value: { ...b.action } }],
        },
      ],
    })),
  };
}

function build(
  reply: CardReply,
  sections: CardSection[],
  notes: Map<number, string>,
  config: Record<string, unknown>,
): CardJson {
  const elements: Record<string, unknown>[] = [];
  sections.forEach((section, i) => {
    const el = sectionElement(section);
    if (el) elements.push(el);
    const note = notes.get(i);
    if (note !== undefined) elements.push(noteElement(note));
  });
  if (reply.buttons && reply.buttons.length > 0) elements.push(buttonsElement(reply.buttons));
  if (reply.footer && reply.footer.trim() !== '') elements.push(noteElement(reply.footer));
  return {
    schema: '2.0',
    config: { update_multi: true, ...config },
    ...(reply.title.trim() === ''
      ? {}
      : { header: { title: { tag: 'plain_text', content: reply.title }, template: HEADER_TEMPLATE[reply.status] } }),
    body: { elements },
  };
}

/** Characters of a section's text that fit in `budget` JSON bytes once rendered. */
function fitSection(section: TextSection, budget: number): number {
  if (budget <= 0) return 0;
  if (section.type === 'plain') return escapedFit(section.text, budget, 'plain');
  if (section.type === 'quote') return escapedFit(section.text, budget, 'quote');
  if (section.type === 'answer') return answerFit(section.text, budget);
  // The bridge's own markdown: cut on a code point, measured as serialised.
  let used = 0;
  let chars = 0;
  for (const ch of section.text) {
    used += jsonBytes(ch);
    if (used > budget) break;
    chars += ch.length;
  }
  return chars;
}

function renderedBytes(section: CardSection): number {
  const el = sectionElement(section);
  return el && typeof el.content === 'string' ? jsonBytes(el.content) : 0;
}

/**
 * Renders a channel-neutral card as Feishu card JSON 2.0: header colour by status, `markdown`
 * sections as they are (the bridge's own markup), `plain` / `quote` / `fields` escaped so user
 * and Claude text cannot break or spoof the card, buttons as callback buttons, the footer as a grey
 * note. A card over `maxBytes` has its largest text sections cut, each followed by a note.
 */
export function renderCard(reply: CardReply, opts: RenderCardOptions): RenderedCard {
  const max = opts.maxBytes ?? CARD_MAX_BYTES;
  const note = opts.truncationNote ?? feishuMessages(opts.lang)('truncated');
  const sections = [...reply.sections];
  const notes = new Map<number, string>();
  const truncated: RenderedCard['truncated'] = [];
  for (;;) {
    const card = build(reply, sections, notes, opts.config ?? {});
    const bytes = Buffer.byteLength(JSON.stringify(card), 'utf8');
    if (bytes <= max) return { card, truncated };
    let target = -1;
    let largest = 0;
    sections.forEach((s, i) => {
      const size =
        s.type === 'markdown' || s.type === 'plain' || s.type === 'answer' || s.type === 'quote' ? renderedBytes(s) : 0;
      if (size > largest && !notes.has(i)) {
        largest = size;
        target = i;
      }
    });
    const section = sections[target];
    if (!section || !('text' in section)) return { card, truncated };
    const noteCost = notes.has(target) ? 0 : Buffer.byteLength(JSON.stringify(noteElement(note)), 'utf8') + 1;
    const kept = fitSection(section, max - (bytes - largest) - noteCost);
    sections[target] = { ...section, text: section.text.slice(0, kept) };
    notes.set(target, note);
    truncated.push({ section: target, keptChars: kept });
  }
}

/** A text reply shown where only a card fits (a click's replacement, a card update). */
export function asCardReply(reply: Reply): CardReply {
  return reply.kind === 'card'
    ? reply
    : { kind: 'card', title: '', status: 'info', sections: [{ type: 'plain', text: reply.text }] };
}

/** A card as plain text (title, then each section), for when the card itself cannot be shown. */
export function cardPlainText(card: CardReply): string {
  const lines = card.title.trim() === '' ? [] : [card.title];
  for (const s of card.sections) {
    if (s.type === 'fields') lines.push(...s.fields.map((f) => `${f.label}: ${f.value}`));
    else if (s.type !== 'divider' && s.text.trim() !== '') lines.push(s.text);
  }
  if (card.footer) lines.push(card.footer);
  return lines.join('\n');
}

/** `msg_type` and `content` (a JSON string) of an outgoing message for `reply`. */
export function renderMessage(reply: Reply, lang: Language): { msgType: 'text' | 'interactive'; content: string } {
  if (reply.kind === 'text')
    return { msgType: 'text', content: JSON.stringify({ text: neutralizeTextMentions(reply.text) }) };
  return { msgType: 'interactive', content: JSON.stringify(renderCard(reply, { lang }).card) };
}
