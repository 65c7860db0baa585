/**
 * A byte-level first look at one JSONL line, so the scanner only runs `JSON.parse` on the few
 * lines whose content it needs (human prompts, titles) and not on the bulk of a session file
 * (tool output, attachments, `api-request*` blobs, prompt snapshots — often 90 % of the bytes).
 *
 * It relies on one property of JSON: inside a string every `"` is escaped, so an unescaped byte
 * sequence such as `"type":"user"` can only be structure, never text someone typed. It looks only
 * at the first and last `WINDOW` bytes of a long line, where Claude Code puts the envelope keys
 * (`type`, `isSidechain`, `message.id`, `message.model`, `cwd`). Whenever a look is inconclusive it
 * answers `parse`, so a wrong guess costs time, never a wrong result — except that a timestamp or
 * cwd buried in the middle of a long line is not seen (the neighbouring lines carry them too).
 */
export type Probe =
  /** Needs `JSON.parse` (a human-prompt candidate, a title line, or an unclear line). */
  | { kind: 'parse' }
  /** Not JSON: does not start with `{` and end with `}`. */
  | { kind: 'invalid' }
  /** Known not to be a message (tool result, attachment, queue-operation, …). */
  | { kind: 'skip'; timestamp: string | null }
  /** An assistant line whose envelope was read from the bytes. */
  | { kind: 'assistant'; timestamp: string | null; sidechain: boolean; messageId: string; model: string | null; mayHaveText: boolean };

/** Bytes looked at from each end of a line. */
export const WINDOW = 2048;

const b = (s: string): Buffer => Buffer.from(s, 'latin1');
const TYPE_FIRST = b('{"type":"');
const USER = b('"type":"user"');
const ASSISTANT = b('"type":"assistant"');
const TOOL_RESULT = b('"tool_result"');
const SIDECHAIN_TRUE = b('"isSidechain":true');
const MESSAGE_OPEN = b('"message":{');
const ID = b('"id":"');
const MODEL = b('"model":"');
const TEXT_BLOCK = b('"type":"text"');
const TIMESTAMP = b('"timestamp":"');
const CWD = b('"cwd":"');

/** Top-level types, written first by the CLI, that may be a message or a title: always parsed. */
const PARSE_TYPES = new Set(['user', 'assistant', 'summary', 'custom-title', 'ai-title', 'title']);

/** Probes `line[start, end)`. `truncated` lines (middle missing) are judged from their ends only. */
export function probeLine(buf: Buffer, start: number, end: number): Probe {
  const len = end - start;
  if (len < 2 || buf[start] !== 0x7b || buf[end - 1] !== 0x7d) return { kind: 'invalid' };
  const short = len <= 2 * WINDOW;
  const head = buf.subarray(start, short ? end : start + WINDOW);
  const tail = short ? null : buf.subarray(end - WINDOW, end);

  if (startsWith(head, TYPE_FIRST)) {
    const type = readString(head, TYPE_FIRST.length, 64);
    if (type === null || PARSE_TYPES.has(type)) return { kind: 'parse' };
    return { kind: 'skip', timestamp: findTimestamp(head, tail) };
  }
  const isUser = head.indexOf(USER) >= 0 || (tail !== null && tail.indexOf(USER) >= 0);
  const isAssistant = head.indexOf(ASSISTANT) >= 0 || (tail !== null && tail.indexOf(ASSISTANT) >= 0);
  if (isUser && isAssistant) return { kind: 'parse' };
  if (isUser) {
    if (head.indexOf(TOOL_RESULT) >= 0) return { kind: 'skip', timestamp: findTimestamp(head, tail) };
    return { kind: 'parse' };
  }
  if (!isAssistant) return { kind: 'skip', timestamp: findTimestamp(head, tail) };

  const mo = head.indexOf(MESSAGE_OPEN);
  if (mo < 0) return { kind: 'parse' };
  const idAt = head.indexOf(ID, mo);
  const messageId = idAt < 0 ? null : readString(head, idAt + ID.length, 200);
  if (messageId === null || messageId.startsWith('toolu_')) return { kind: 'parse' };
  const modelAt = head.indexOf(MODEL, mo);
  const model = modelAt < 0 ? null : readString(head, modelAt + MODEL.length, 200);
  const whole = buf.subarray(start, end);
  return {
    kind: 'assistant',
    timestamp: findTimestamp(tail ?? head, null, true),
    sidechain: head.indexOf(SIDECHAIN_TRUE) >= 0,
    messageId,
    model: model && model !== '<synthetic>' ? model : null,
    mayHaveText: whole.indexOf(TEXT_BLOCK) >= 0,
  };
}

/** The `cwd` string of a line, read from its two ends; null when not seen there. */
export function probeCwd(buf: Buffer, start: number, end: number): string | null {
  const len = end - start;
  const windows = len <= 2 * WINDOW ? [buf.subarray(start, end)] : [buf.subarray(end - WINDOW, end), buf.subarray(start, start + WINDOW)];
  for (const w of windows) {
    const at = w.lastIndexOf(CWD);
    if (at >= 0) {
      const cwd = readString(w, at + CWD.length, 4096);
      if (cwd) return cwd;
    }
  }
  return null;
}

/**
 * The first ISO timestamp of `first` (or, with `fromEnd`, the last), else of `second`. Only
 * values shaped like `2026-05-05T…` are accepted.
 */
function findTimestamp(first: Buffer, second: Buffer | null, fromEnd = false): string | null {
  for (const w of second ? [first, second] : [first]) {
    const at = fromEnd ? w.lastIndexOf(TIMESTAMP) : w.indexOf(TIMESTAMP);
    if (at < 0) continue;
    const value = readString(w, at + TIMESTAMP.length, 40);
    if (value !== null && /^\d{4}-\d{2}-\d{2}T/.test(value)) return value;
  }
  return null;
}

function startsWith(w: Buffer, prefix: Buffer): boolean {
  if (w.length < prefix.length) return false;
  for (let i = 0; i < prefix.length; i += 1) if (w[i] !== prefix[i]) return false;
  return true;
}

/**
 * Reads a JSON string value starting just after its opening quote; null when it does not end
 * within `max` bytes (or the window). Escapes are decoded by `JSON.parse`.
 */
function readString(w: Buffer, from: number, max: number): string | null {
  const limit = Math.min(w.length, from + max);
  let escaped = false;
  for (let i = from; i < limit; i += 1) {
    const c = w[i];
    if (c === 0x5c) {
      escaped = true;
      i += 1;
    } else if (c === 0x22) {
      if (!escaped) return w.toString('utf8', from, i);
      try {
        return JSON.parse(`"${w.toString('utf8', from, i)}"`) as string;
      } catch {
        return null;
      }
    }
  }
  return null;
}
