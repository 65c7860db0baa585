import type { CardButton, CardReply, CardSection, Reply } from '../../bridge/reply-model.js';
import {
  escapeMrkdwn,
  fitMrkdwn,
  markdownToMrkdwnBlocks,
  plainToMrkdwnBlocks,
  renderedLength,
} from './slack-mrkdwn.js';

/**
 * Most characters of section text in one message. Slack documents 3,000 per section and 50
 * blocks, but refuses a message whose blocks hold more than about 13,000 characters in all
 * (`msg_blocks_too_long`, undocumented); this stays under it.
 */
export const MAX_MESSAGE_CHARS = 12_000;
/** Blocks per message: Slack's limit is 50; room is kept for the title, footer and buttons. */
const MAX_SECTIONS = 44;
/** A button's `value` holds the whole `CardAction` as JSON (Slack allows 2,000 characters). */
const MAX_VALUE_CHARS = 2_000;
/** The notification text of a message with blocks (what a phone shows), kept short. */
const MAX_FALLBACK_CHARS = 300;

export type Block = Record<string, unknown>;

/** A reply as one Slack message: blocks and the plain `text` Slack shows in notifications. */
export interface SlackMessage {
  text: string;
  blocks: Block[];
}

export const section = (text: string): Block => ({ type: 'section', text: { type: 'mrkdwn', text } });
/** A small grey line of plain text (escaped here, cut before escaping so no entity is split). */
export const context = (plain: string): Block => ({
  type: 'context',
  elements: [{ type: 'mrkdwn', text: escapeMrkdwn(plain.slice(0, 1_500)) }],
});

/**
 * Plain text as quote sections: escaped, cut into texts of 1,400 characters so that the `> ` put
 * before every line still keeps each under a section's 3,000.
 */
export function quoteSections(plain: string): Block[] {
  return plainToMrkdwnBlocks(plain, 1_400).map((b) => section(b.replace(/^/gm, '> ')));
}

function sectionTexts(s: CardSection): string[] | Block {
  switch (s.type) {
    case 'markdown':
    case 'answer':
      return markdownToMrkdwnBlocks(s.text);
    case 'plain':
      return plainToMrkdwnBlocks(s.text);
    case 'quote':
      return plainToMrkdwnBlocks(s.text, 1_400).map((b) => b.replace(/^/gm, '> '));
    case 'divider':
      return { type: 'divider' };
    case 'fields':
      return plainToMrkdwnBlocks(s.fields.map((f) => `${f.label}: ${f.value}`).join('\n')).map((b) =>
        b.replace(/^([^:\n]+):/gm, '*$1*:'),
      );
  }
}

/**
 * Buttons as actions blocks (25 to a block), each carrying its `CardAction` as JSON in `value`:
 * Slack hands the value back only for a click on our own message, and whether the click is the
 * owner's and the prompt still pending stays the bridge's decision (its nonces). A button whose
 * action does not fit the value is left out.
 */
export function actionBlocks(buttons: CardButton[] | undefined): Block[] {
  const elements: Block[] = [];
  for (const [i, b] of (buttons ?? []).entries()) {
    const value = JSON.stringify(b.action);
    if (value.length > MAX_VALUE_CHARS) continue;
    elements.push({
      type: 'button',
      action_id: `cc-${i}`,
      text: { type: 'plain_text', text: b.label.slice(0, 75) || '…' },
      value,
      ...(b.style === 'primary' || b.style === 'danger' ? { style: b.style } : {}),
    });
  }
  const out: Block[] = [];
  for (let i = 0; i < elements.length; i += 25) out.push({ type: 'actions', elements: elements.slice(i, i + 25) });
  return out;
}

/** The plain notification text: the first characters, without mrkdwn. */
export function fallbackText(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return escapeMrkdwn(flat.length <= MAX_FALLBACK_CHARS ? flat || '…' : `${flat.slice(0, MAX_FALLBACK_CHARS)}…`);
}

/** Keeps the blocks within the message limits; what is dropped is marked with `…`. */
function capBlocks(blocks: Block[]): Block[] {
  const out: Block[] = [];
  let chars = 0;
  for (const b of blocks) {
    const t = (b.text as { text?: string } | undefined)?.text ?? '';
    if (out.length >= MAX_SECTIONS || chars + t.length > MAX_MESSAGE_CHARS) {
      out.push(section('…'));
      break;
    }
    out.push(b);
    chars += t.length;
  }
  return out;
}

/**
 * A card as one message: the title in bold, the sections, the footer as a context line, the
 * buttons. The section whose text is `answer.text` (Claude's answer) is cut to what fits
 * {@link MAX_MESSAGE_CHARS} with `answer.note` under it; `kept` says how many of its characters
 * are shown. Any other over-long part is cut with `…`.
 */
export function cardBlocks(card: CardReply, answer?: { text: string; note: string }): SlackMessage & { kept: number } {
  const index =
    answer && answer.text !== ''
      ? card.sections.findIndex((s) => (s.type === 'plain' || s.type === 'answer') && s.text === answer.text)
      : -1;
  const parts = card.sections.map((s, i) => (i === index ? [] : sectionTexts(s)));
  const fixed = parts.reduce<number>((n, p) => n + (Array.isArray(p) ? p.reduce((m, t) => m + t.length, 0) : 0), 0);
  let kept = answer?.text.length ?? 0;
  if (index >= 0 && answer) {
    const budget = MAX_MESSAGE_CHARS - fixed - card.title.length - 200;
    const plain = card.sections[index]?.type === 'plain';
    const length = plain ? escapeMrkdwn(answer.text).length : renderedLength(answer.text);
    kept = length <= budget ? answer.text.length : fitMrkdwn(answer.text, budget - answer.note.length - 10);
    const shown = answer.text.slice(0, kept);
    const texts = plain ? plainToMrkdwnBlocks(shown) : markdownToMrkdwnBlocks(shown);
    parts[index] = kept < answer.text.length ? [...texts, `_${escapeMrkdwn(answer.note)}_`] : texts;
  }
  const body = parts.flatMap((p) => (Array.isArray(p) ? p.map(section) : [p]));
  const blocks = capBlocks([section(`*${escapeMrkdwn(card.title.slice(0, 500))}*`), ...body]);
  if (card.footer) blocks.push(context(card.footer));
  blocks.push(...actionBlocks(card.buttons));
  const first = card.sections.find((s) => 'text' in s && s.text.trim() !== '');
  return { text: fallbackText(`${card.title} ${first && 'text' in first ? first.text : ''}`), blocks, kept };
}

/**
 * A `Reply` as Slack messages: a card is one; a text reply (Claude's or the bridge's markdown) is
 * one unless its escaped rendering is over {@link MAX_MESSAGE_CHARS} — then it continues in the
 * next messages, cut between blocks, so nothing is dropped.
 */
export function renderReply(reply: Reply): SlackMessage[] {
  if (reply.kind === 'card') {
    const { text, blocks } = cardBlocks(reply);
    return [{ text, blocks }];
  }
  const texts = markdownToMrkdwnBlocks(reply.text);
  const out: SlackMessage[] = [];
  let blocks: Block[] = [];
  let chars = 0;
  for (const t of texts.length > 0 ? texts : [escapeMrkdwn(reply.text.trim() || '…')]) {
    if (blocks.length > 0 && (chars + t.length > MAX_MESSAGE_CHARS || blocks.length >= MAX_SECTIONS)) {
      out.push({ text: fallbackText(reply.text), blocks });
      blocks = [];
      chars = 0;
    }
    blocks.push(section(t));
    chars += t.length;
  }
  out.push({ text: fallbackText(reply.text), blocks });
  return out;
}
