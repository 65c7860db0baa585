/**
 * What the fake checks in a message's `text` and `blocks` the way Slack does (the limits that
 * answer `msg_too_long` / `invalid_blocks`), and what the user would see: mrkdwn with its entities
 * decoded and `<url|label>` links shown as their label.
 */
export const MAX_TEXT = 40_000;
export const MAX_SECTION_TEXT = 3_000;
export const MAX_BLOCKS = 50;
/** Undocumented: Slack refuses blocks holding more than about 13,200 characters in all. */
export const MAX_BLOCKS_CHARS = 13_200;

export interface FakeButton {
  text: string;
  action_id: string;
  value?: string;
  block_id?: string;
  style?: string;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Slack mrkdwn: every `&` starts an entity and every `<` a link or mention; a `>` only opens a
 * quote at a line's start. Slack itself shows a stray one as best it can — the fake is stricter so
 * that a missing escape fails a test.
 */
export function mrkdwnProblem(text: string): string | undefined {
  if (/&(?!(?:amp|lt|gt);)/.test(text)) return 'unescaped &';
  const stripped = text.replace(/^>\s?/gm, '').replace(/<(?:https?:\/\/|mailto:|@|#|!)[^<>\s]*(?:\|[^<>]*)?>/g, '');
  if (/[<>]/.test(stripped)) return 'unescaped < or >';
  return undefined;
}

export function decodeMrkdwn(text: string): string {
  return text
    .replace(/<([^<>|]+)\|([^<>]*)>/g, '$2')
    .replace(/<([^<>]+)>/g, '$1')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

function textOf(v: unknown): string | undefined {
  return isObj(v) && typeof v.text === 'string' ? v.text : undefined;
}

/** The visible text of the blocks (sections, headers, context elements), one line per block. */
export function visibleOf(text: string, blocks: unknown[] | undefined): string {
  if (!blocks || blocks.length === 0) return decodeMrkdwn(text);
  const lines: string[] = [];
  for (const block of blocks.filter(isObj)) {
    const t = textOf(block.text);
    if (t !== undefined) lines.push(decodeMrkdwn(t));
    if (block.type === 'context' && Array.isArray(block.elements))
      lines.push(block.elements.map((e) => decodeMrkdwn(textOf(e) ?? '')).join(' '));
  }
  return lines.join('\n');
}

export function buttonsOf(blocks: unknown[] | undefined): FakeButton[] {
  const out: FakeButton[] = [];
  for (const block of (blocks ?? []).filter(isObj)) {
    if (block.type !== 'actions' || !Array.isArray(block.elements)) continue;
    for (const e of block.elements.filter(isObj))
      out.push({
        text: textOf(e.text) ?? '',
        action_id: String(e.action_id),
        ...(typeof e.value === 'string' ? { value: e.value } : {}),
        ...(typeof block.block_id === 'string' ? { block_id: block.block_id } : {}),
        ...(typeof e.style === 'string' ? { style: e.style } : {}),
      });
  }
  return out;
}

/** Slack's error code for a message it would refuse, or undefined when it takes it. */
export function messageProblem(text: string, blocks: unknown[] | undefined): string | undefined {
  if (text.length > MAX_TEXT) return 'msg_too_long';
  if (!blocks) return text.trim() === '' ? 'no_text' : mrkdwnProblem(text) && 'invalid_text';
  if (blocks.length > MAX_BLOCKS || !blocks.every(isObj)) return 'invalid_blocks';
  const ids = new Set<string>();
  let total = 0;
  for (const block of blocks.filter(isObj)) {
    const texts: string[] = [];
    const t = isObj(block.text) ? block.text : undefined;
    if (t && typeof t.text === 'string') {
      if (block.type === 'section' && t.text.length > MAX_SECTION_TEXT) return 'invalid_blocks';
      if (block.type === 'header' && (t.text.length > 150 || t.type !== 'plain_text')) return 'invalid_blocks';
      if (t.type === 'mrkdwn') texts.push(t.text);
      total += t.text.length;
    }
    if (Array.isArray(block.elements))
      for (const e of block.elements.filter(isObj)) {
        if (e.type === 'mrkdwn' && typeof e.text === 'string') texts.push(e.text);
        if (e.type !== 'button') continue;
        const label = textOf(e.text) ?? '';
        const id = String(e.action_id ?? '');
        const value = typeof e.value === 'string' ? e.value : '';
        if (label === '' || label.length > 75 || id === '' || id.length > 255 || value.length > 2000 || ids.has(id))
          return 'invalid_blocks';
        ids.add(id);
      }
    if (texts.some((s) => mrkdwnProblem(s))) return 'invalid_blocks';
  }
  return total > MAX_BLOCKS_CHARS ? 'msg_blocks_too_long' : undefined;
}
