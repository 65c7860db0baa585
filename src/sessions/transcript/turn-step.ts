import { humanText } from '../scan/line-facts.js';

/** What one line of a session file means for the turn it belongs to. */
export type TurnStep =
  /** A prompt someone (or cc-linker) sent; `text` is the raw content, as written. */
  | { kind: 'prompt'; text: string }
  /**
   * One assistant line from the model. The CLI writes one line per content block, every line of
   * an API message carrying the message's `id` and its `stop_reason`; `endsTurn` is true when
   * that is `end_turn` or `stop_sequence`.
   */
  | { kind: 'assistant'; id: string; text: string; thinking: string; toolUses: number; endsTurn: boolean }
  /** Tool output handed back to the model: the turn goes on. */
  | { kind: 'tool_result' }
  /** "[Request interrupted by user…]": the turn was stopped. */
  | { kind: 'interrupted' };

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Stop reasons that end a turn. `tool_use` (and `null` on a partial line) do not. */
const TURN_ENDS = new Set(['end_turn', 'stop_sequence']);
/** The model name Claude Code gives messages it writes itself (placeholders, API error notices). */
const SYNTHETIC = '<synthetic>';

/**
 * The raw text of a user message's content: the string itself (CLI modes), or its text blocks
 * joined by newlines (SDK mode writes one block) — images and tool results left out. Null when
 * there is no text at all.
 */
export function promptTextOf(content: unknown): string | null {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return null;
  const parts: string[] = [];
  for (const b of content) if (isObj(b) && b.type === 'text' && typeof b.text === 'string') parts.push(b.text);
  return parts.length > 0 ? parts.join('\n') : null;
}

/**
 * Classifies one parsed line for `findTurn`; null for everything that does not move a turn on
 * (attachments, system and bookkeeping lines, meta and slash-command lines, Claude Code's own
 * `<synthetic>` messages). Sub-agent lines are the caller's to skip.
 */
export function turnStep(value: Obj): TurnStep | null {
  const message = value.message;
  if (!isObj(message)) return null;
  if (value.type === 'user') {
    if (value.isMeta === true || value.isCompactSummary === true) return null;
    const content = message.content;
    if (Array.isArray(content) && content.some((b) => isObj(b) && b.type === 'tool_result'))
      return { kind: 'tool_result' };
    const text = promptTextOf(content);
    if (text === null) return null;
    if (text.trimStart().startsWith('[Request interrupted by user')) return { kind: 'interrupted' };
    return humanText(content) === null ? null : { kind: 'prompt', text };
  }
  if (value.type !== 'assistant' || message.model === SYNTHETIC) return null;
  const id = typeof message.id === 'string' ? message.id : typeof value.uuid === 'string' ? value.uuid : '';
  const texts: string[] = [];
  const thinking: string[] = [];
  let toolUses = 0;
  const blocks = Array.isArray(message.content) ? message.content : [];
  if (typeof message.content === 'string') texts.push(message.content);
  for (const b of blocks) {
    if (!isObj(b)) continue;
    if (b.type === 'text' && typeof b.text === 'string') texts.push(b.text);
    else if (b.type === 'thinking' && typeof b.thinking === 'string') thinking.push(b.thinking);
    else if (b.type === 'tool_use' || b.type === 'server_tool_use') toolUses += 1;
  }
  const stop = message.stop_reason;
  return {
    kind: 'assistant',
    id,
    text: texts.join('\n'),
    thinking: thinking.join('\n'),
    toolUses,
    endsTurn: typeof stop === 'string' && TURN_ENDS.has(stop),
  };
}
