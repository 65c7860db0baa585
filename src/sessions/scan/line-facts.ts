/**
 * What one parsed line of a Claude Code session file means for cc-linker. The rules follow what
 * the current Claude Code CLI writes:
 *
 * - `human`: a `user` line a person typed. Not one whose content is a `tool_result` block, not
 *   `isMeta` / `isCompactSummary` lines, not slash-command wrappers (`<command-name>`,
 *   `<command-message>`, `<local-command-stdout>` …), not a pure `<system-reminder>`, not
 *   "[Request interrupted by user…]". System reminders inside a prompt are cut out of its text.
 * - `assistant`: an `assistant` line. The CLI writes one line per content block and the lines of
 *   one API message share `message.id`, so consumers count messages by distinct id, not by line.
 * - `tool_result`: a `user` line carrying tool output.
 * - `title`: `summary` (older CLIs), `custom-title` (`/rename`), `ai-title` / `title` lines.
 * - `other`: everything else (`queue-operation`, `attachment`, `system`, `api-request*`,
 *   `cost-state`, unknown future types …): never a message.
 *
 * `sidechain` marks sub-agent lines (`isSidechain: true`); they are never counted or shown.
 */
export type LineKind = 'human' | 'assistant' | 'tool_result' | 'title' | 'other';

/** The facts of one line. Strings are '' / null when absent. */
export interface LineFacts {
  kind: LineKind;
  sidechain: boolean;
  timestamp: string | null;
  cwd: string | null;
  /** human: the prompt (reminders removed; `[image]` for image blocks); assistant: its text blocks. */
  text: string;
  /** assistant: `message.id` (or the line uuid when there is none). */
  messageId: string | null;
  /** assistant: `message.model`, except the CLI's `<synthetic>` placeholder. */
  model: string | null;
  /** title lines: the title; `titleRank` orders sources (custom 3 > ai/title 2 > summary 1). */
  title: string | null;
  titleRank: number;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

const WRAPPER_PREFIXES = [
  '<command-name>',
  '<command-message>',
  '<command-args>',
  '<local-command-stdout>',
  '<local-command-stderr>',
  '<local-command-caveat>',
  '[Request interrupted by user',
];
const REMINDER = /<system-reminder>[\s\S]*?(<\/system-reminder>|$)/g;

/** Title line types and their rank (a `/rename` beats an AI title, which beats an old summary). */
const TITLE_FIELDS = new Map<string, { fields: string[]; rank: number }>([
  ['custom-title', { fields: ['customTitle', 'title'], rank: 3 }],
  ['ai-title', { fields: ['aiTitle', 'title'], rank: 2 }],
  ['title', { fields: ['title'], rank: 2 }],
  ['summary', { fields: ['summary'], rank: 1 }],
]);

/**
 * Classifies one parsed JSONL value (anything `JSON.parse` returned). Never throws — whatever
 * the line's `type` is (`constructor`, `__proto__` …).
 *
 * Written as straight-line checks, the common types first: a cold scan runs it thousands of
 * times while V8 still interprets it, where every property read and call counts.
 */
export function lineFacts(value: unknown): LineFacts {
  const facts: LineFacts = {
    kind: 'other',
    sidechain: false,
    timestamp: null,
    cwd: null,
    text: '',
    messageId: null,
    model: null,
    title: null,
    titleRank: 0,
  };
  if (!isObj(value)) return facts;
  facts.sidechain = value.isSidechain === true;
  const { timestamp, cwd, type, message } = value;
  if (typeof timestamp === 'string') facts.timestamp = timestamp;
  if (typeof cwd === 'string') facts.cwd = cwd;
  if (type === 'user') {
    if (
      !isObj(message) ||
      value.isMeta === true ||
      value.isCompactSummary === true ||
      value.isVisibleInTranscriptOnly === true
    )
      return facts;
    const content = message.content;
    if (Array.isArray(content)) {
      for (let i = 0; i < content.length; i += 1) {
        const b: unknown = content[i];
        if (isObj(b) && b.type === 'tool_result') {
          facts.kind = 'tool_result';
          return facts;
        }
      }
    }
    const text = humanText(content);
    if (text === null) return facts;
    facts.kind = 'human';
    facts.text = text;
    return facts;
  }
  if (type === 'assistant') {
    if (!isObj(message)) return facts;
    facts.kind = 'assistant';
    const { id, model } = message;
    facts.messageId = typeof id === 'string' ? id : str(value.uuid);
    facts.model = typeof model === 'string' && model !== '<synthetic>' ? model : null;
    facts.text = blocksText(message.content);
    return facts;
  }
  const titleSpec = typeof type === 'string' ? TITLE_FIELDS.get(type) : undefined;
  if (titleSpec) {
    for (const f of titleSpec.fields) {
      const t = str(value[f]);
      if (t && t.trim()) {
        facts.kind = 'title';
        facts.title = t.trim();
        facts.titleRank = titleSpec.rank;
        break;
      }
    }
  }
  return facts;
}

/**
 * The text a person typed, or null when the content is not a human prompt (a slash-command
 * wrapper, a bare system reminder, an interruption notice, or empty).
 */
export function humanText(content: unknown): string | null {
  let raw: string;
  let images = 0;
  if (typeof content === 'string') raw = content;
  else if (Array.isArray(content)) {
    const parts: string[] = [];
    for (const b of content) {
      if (!isObj(b)) continue;
      if (b.type === 'text' && typeof b.text === 'string') parts.push(b.text);
      else if (b.type === 'image') images += 1;
    }
    raw = parts.join('\n');
  } else return null;
  const trimmed = raw.trimStart();
  const first = trimmed.charCodeAt(0); // every wrapper starts with `<` or `[`
  if ((first === 0x3c || first === 0x5b) && WRAPPER_PREFIXES.some((p) => trimmed.startsWith(p))) return null;
  const text = (raw.includes('<system-reminder>') ? raw.replace(REMINDER, '') : raw).trim();
  if (text.length > 0) return images > 0 ? `${text} ${'[image]'.repeat(images)}` : text;
  return images > 0 ? '[image]'.repeat(images) : null;
}

/** The `text` blocks of an assistant message content, joined by newlines (usually one: no join). */
export function blocksText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  let text: string | null = null;
  let parts: string[] | null = null;
  for (let i = 0; i < content.length; i += 1) {
    const b: unknown = content[i];
    if (!isObj(b) || b.type !== 'text' || typeof b.text !== 'string') continue;
    if (text === null) text = b.text;
    else (parts ??= [text]).push(b.text);
  }
  return parts ? parts.join('\n') : (text ?? '');
}
