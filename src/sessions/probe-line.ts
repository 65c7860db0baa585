import { utf8 } from './buffer-text.js';
import { BytePattern } from './byte-pattern.js';
import { WasmLineProbe } from './wasm-line-probe.js';

/**
 * A byte-level first look at one JSONL line, so the scanner only runs `JSON.parse` on the few
 * lines whose content it needs and cannot read from the bytes (titles, prompts of unusual shapes)
 * and not on the bulk of a session file (tool output, attachments, `api-request*` blobs, prompt
 * snapshots — often 90 % of the bytes). Typed prompts and one-block answers in the CLI's own
 * shape are read from their bytes (`human`, and `textStart` of an `assistant` line).
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
  /** An assistant line whose envelope was read from the bytes (`answer`: a one-text-block content's text, when read too). */
  | {
      kind: 'assistant';
      timestamp: string | null;
      sidechain: boolean;
      messageId: string;
      model: string | null;
      mayHaveText: boolean;
      answer: string | null;
    }
  /** A typed prompt as the CLI writes it, its text read from the bytes (see `prompt`). */
  | { kind: 'human'; timestamp: string | null; sidechain: boolean; text: string };

/** Bytes looked at from each end of a line. */
export const WINDOW = 2048;

const TYPE_FIRST = new BytePattern('{"type":"');
const TYPE_KEY = new BytePattern('"type":"');
const USER = new BytePattern('user"');
const ASSISTANT = new BytePattern('assistant"');
const TEXT = new BytePattern('text"');
/** Title line types (see `PARSE_TYPE_NAMES`), looked for when `type` is not the first key. */
const TITLES = ['summary', 'custom-title', 'ai-title', 'title'].map((t) => new BytePattern(`${t}"`));
const TOOL_RESULT = new BytePattern('"tool_result"');
const SIDECHAIN_TRUE = new BytePattern('"isSidechain":true');
const SIDECHAIN_KEY = new BytePattern('"isSidechain":');
const TRUE = new BytePattern('true');
const TOOLU = new BytePattern('toolu_');
/** The CLI's placeholder model, with the closing quote (a whole value). */
const SYNTHETIC = new BytePattern('<synthetic>"');
const MESSAGE_OPEN = new BytePattern('"message":{');
const ID = new BytePattern('"id":"');
const MODEL = new BytePattern('"model":"');
const TEXT_BLOCK = new BytePattern('"type":"text"');
const TIMESTAMP = new BytePattern('"timestamp":"');
const PROMPT_OPEN = new BytePattern('"message":{"role":"user","content":"');
const MESSAGE_KEY = new BytePattern('"message":');
const META_KEYS = ['"isMeta":', '"isCompactSummary":', '"isVisibleInTranscriptOnly":'].map((k) => new BytePattern(k));
const REMINDER_TAG = new BytePattern('<system-reminder>');
const CONTENT_KEY = new BytePattern('"content":');
const TEXT_CONTENT = new BytePattern('"content":[{"type":"text","text":"');
const CWD_KEY = Buffer.from('"cwd":"');

/** Top-level types, written first by the CLI, that may be a message or a title: always parsed. */
const PARSE_TYPE_NAMES = new Set(['user', 'assistant', 'summary', 'custom-title', 'ai-title', 'title']);
const PARSE_TYPES = [...PARSE_TYPE_NAMES].map((t) => new BytePattern(`${t}"`));

/**
 * The result of `probeInto`, one object reused for every line (the scanner probes tens of
 * thousands of lines per second; no allocation per line). A plain timestamp (ASCII, no escape) is
 * given as a byte range of the line's buffer so the caller can compare it without making a string;
 * any other accepted spelling comes decoded in `timestamp`.
 */
export class LineProbe {
  kind: Probe['kind'] = 'invalid';
  /** The plain timestamp value is `buf[tsStart, tsEnd)`; -1 when there is none or it is in `timestamp`. */
  tsStart = -1;
  tsEnd = -1;
  /** A timestamp that needed decoding (escapes, non-ASCII), else null. */
  timestamp: string | null = null;
  /**
   * The plain timestamp was already compared with the file's newest one by the WebAssembly probe
   * (see `WasmLineProbe.beginFile`); the JavaScript probe never sets it.
   */
  tsInNewest = false;
  sidechain = false;
  /** A plain (ASCII, unescaped) `message.id` is `buf[idStart, idEnd)`; else idStart is -1 and it is in `messageId`. */
  idStart = -1;
  idEnd = -1;
  messageId = '';
  /** A plain `message.model` is `buf[modelStart, modelEnd)`; else modelStart is -1 and it is in `model` (null: none). */
  modelStart = -1;
  modelEnd = -1;
  model: string | null = null;
  mayHaveText = false;
  /**
   * The text of a `human` line, or of an `assistant` line whose content is one text block (-1
   * otherwise), is the JSON string `buf[textStart, textEnd)` (between its quotes); escaped: holds escapes.
   */
  textStart = -1;
  textEnd = -1;
  textEscaped = false;

  /** A `human` line's prompt, decoded and trimmed (as `lineFacts` gives it). */
  textOf(buf: Buffer): string {
    return decodeText(buf, this.textStart, this.textEnd, this.textEscaped).trim();
  }

  /** The timestamp as a string, whichever way it was found. */
  timestampOf(buf: Buffer): string | null {
    return this.tsStart >= 0 ? buf.toString('latin1', this.tsStart, this.tsEnd) : this.timestamp;
  }

  /** An assistant line's `message.id`, whichever way it was found. */
  messageIdOf(buf: Buffer): string {
    return this.idStart >= 0 ? buf.toString('latin1', this.idStart, this.idEnd) : this.messageId;
  }

  /** An assistant line's model (null: none, or the CLI's `<synthetic>`), whichever way it was found. */
  modelOf(buf: Buffer): string | null {
    return this.modelStart >= 0 ? buf.toString('latin1', this.modelStart, this.modelEnd) : this.model;
  }
}

/** The JSON string whose characters (between its quotes) are `buf[start, end)`; `escaped`: it holds escapes. */
export function decodeText(buf: Buffer, start: number, end: number, escaped: boolean): string {
  return escaped ? (JSON.parse(utf8(buf, start - 1, end + 1)) as string) : utf8(buf, start, end);
}

/**
 * Probes `line[start, end)` into `out` and returns it. `truncated` lines (middle missing) are
 * judged from their ends only.
 *
 * Every line of every session passes through here. A line in the WebAssembly probe's buffer (the
 * scanner reads into it, see `WasmLineProbe`) is probed there — the same answers, compiled from the
 * first line on; any other line, and one whose values need decoding, is probed here in JavaScript.
 */
export function probeInto(out: LineProbe, buf: Buffer, start: number, end: number): LineProbe {
  const wasm = WasmLineProbe.loaded();
  if (wasm !== null && buf === wasm.buffer && wasm.probeInto(out, start, end)) return out;
  return probeInJs(out, buf, start, end);
}

/**
 * `probeInto` in JavaScript, for any buffer and any line. Written for speed: windows are ranges of
 * `buf` (no copies), each window is searched once for `"type":"` and the values after the hits are
 * compared in place (not one search per type), and strings are made only of returned values.
 */
export function probeInJs(out: LineProbe, buf: Buffer, start: number, end: number): LineProbe {
  out.tsStart = -1;
  out.timestamp = null;
  out.tsInNewest = false;
  const len = end - start;
  if (len < 2 || buf[start] !== 0x7b || buf[end - 1] !== 0x7d) return kind(out, 'invalid');
  const short = len <= 2 * WINDOW;
  const headEnd = short ? end : start + WINDOW;
  const tailStart = short ? -1 : end - WINDOW;

  if (TYPE_FIRST.isAt(buf, start, headEnd)) {
    const from = start + TYPE_FIRST.length;
    const close = plainStringEnd(buf, from, Math.min(headEnd, from + 64));
    if (close < 0) {
      // Escaped, not ASCII or unterminated: decode it the slow way.
      const type = readString(buf, from, Math.min(headEnd, from + 64));
      if (type === null || PARSE_TYPE_NAMES.has(type)) return kind(out, 'parse');
    } else if (USER.length === close + 1 - from && USER.isAt(buf, from, headEnd))
      return prompt(out, buf, start, end, short);
    else if (PARSE_TYPES.some((t) => t.length === close + 1 - from && t.isAt(buf, from, headEnd)))
      return kind(out, 'parse');
    return skip(out, buf, start, headEnd, tailStart, end);
  }
  const types = typeHits(buf, start, headEnd, short) | (short ? 0 : typeHits(buf, tailStart, end, false));
  if ((types & HIT_TITLE) !== 0) return kind(out, 'parse');
  const isUser = (types & HIT_USER) !== 0;
  const isAssistant = (types & HIT_ASSISTANT) !== 0;
  if (isUser && isAssistant) return kind(out, 'parse');
  if (isUser)
    return TOOL_RESULT.indexIn(buf, start, headEnd) >= 0
      ? skip(out, buf, start, headEnd, tailStart, end)
      : prompt(out, buf, start, end, short);
  if (!isAssistant) return skip(out, buf, start, headEnd, tailStart, end);

  const mo = MESSAGE_OPEN.indexIn(buf, start, headEnd);
  if (mo < 0) return kind(out, 'parse');
  // message.id and message.model are read as byte ranges when plain (the common case: no string
  // per line), decoded only when escaped or not ASCII.
  const idAt = ID.indexIn(buf, mo, headEnd);
  if (idAt < 0) return kind(out, 'parse');
  const idFrom = idAt + ID.length;
  const idLimit = Math.min(headEnd, idFrom + 200);
  const idClose = plainStringEnd(buf, idFrom, idLimit);
  if (idClose >= 0) {
    if (TOOLU.isAt(buf, idFrom, idClose)) return kind(out, 'parse');
    out.idStart = idFrom;
    out.idEnd = idClose;
  } else {
    const messageId = readString(buf, idFrom, idLimit);
    if (messageId === null || messageId.startsWith('toolu_')) return kind(out, 'parse');
    out.idStart = -1;
    out.messageId = messageId;
  }
  out.modelStart = -1;
  out.model = null;
  const modelAt = MODEL.indexIn(buf, mo, headEnd);
  if (modelAt >= 0) {
    const from = modelAt + MODEL.length;
    const limit = Math.min(headEnd, from + 200);
    const close = plainStringEnd(buf, from, limit);
    if (close >= 0) {
      if (!SYNTHETIC.isAt(buf, from, close + 1) && close > from) {
        out.modelStart = from;
        out.modelEnd = close;
      }
    } else {
      const model = readString(buf, from, limit);
      out.model = model && model !== '<synthetic>' ? model : null;
    }
  }
  out.kind = 'assistant';
  timestampIn(out, buf, short ? start : tailStart, end, true);
  out.sidechain = isSidechain(buf, start, headEnd);
  out.mayHaveText = short ? (types & HIT_TEXT) !== 0 : TEXT_BLOCK.indexIn(buf, start, end) >= 0;
  out.textStart = -1;
  if (out.mayHaveText && short) answerText(out, buf, start, end, mo);
  return out;
}

/**
 * For an assistant line whose `message` — its only `"message":` key, at the top level — has as
 * `content` (the line's only `"content":` key) exactly one text block
 * (`"content":[{"type":"text","text":"<text>"}]`, what the CLI writes for an answer), the text's
 * range in `textStart`/`textEnd`: the summary then decodes only the newest answer's text instead
 * of parsing its line. (`answerText` in assembly/line-probe.ts is the same, compiled.)
 */
function answerText(out: LineProbe, buf: Buffer, start: number, end: number, mo: number): void {
  if (MESSAGE_KEY.indexIn(buf, start, mo) >= 0 || MESSAGE_KEY.indexIn(buf, mo + 1, end) >= 0) return;
  if (keyAtDepth(buf, start + 1, end, MESSAGE_KEY) !== mo) return;
  const c = keyAtDepth(buf, mo + MESSAGE_OPEN.length, end, CONTENT_KEY);
  if (c < 0 || !TEXT_CONTENT.isAt(buf, c, end) || CONTENT_KEY.indexIn(buf, c + 1, end) >= 0) return;
  const from = c + TEXT_CONTENT.length;
  const scan = stringScan(buf, from, end, true);
  const close = scan >> 1;
  if (scan < 0 || close + 2 >= end || buf[close + 1] !== 0x7d || buf[close + 2] !== 0x5d) return;
  out.textStart = from;
  out.textEnd = close;
  out.textEscaped = (scan & 1) === 1;
}

/**
 * Where the JSON string whose characters start at `from` ends: `2 × close + escaped`, `close` its
 * closing quote and `escaped` 1 when it holds escapes; -1 when it does not end before `end`, holds a
 * raw control byte (not JSON), or — unless `unicode` — a `\u` escape.
 */
function stringScan(buf: Buffer, from: number, end: number, unicode: boolean): number {
  let escaped = 0;
  for (let i = from; i < end; i += 1) {
    const c = buf[i] as number;
    if (c === 0x22) return 2 * i + escaped;
    if (c < 0x20) return -1;
    if (c === 0x5c) {
      if (i + 1 >= end || (!unicode && buf[i + 1] === 0x75)) return -1;
      escaped = 1;
      i += 1;
    }
  }
  return -1;
}

/**
 * The first `key` (a quoted key with its colon) in `buf[from, to)` that lies directly in the
 * object `from` is inside — not in a string, not in a nested object or array — or -1.
 */
function keyAtDepth(buf: Buffer, from: number, to: number, key: BytePattern): number {
  let depth = 0;
  let inString = false;
  for (let i = from; i < to; i += 1) {
    const c = buf[i];
    if (inString) {
      if (c === 0x5c) i += 1;
      else if (c === 0x22) inString = false;
      continue;
    }
    if (c === 0x22) {
      if (depth === 0 && key.isAt(buf, i, to)) return i;
      inString = true;
    } else if (c === 0x7b || c === 0x5b) depth += 1;
    else if (c === 0x7d || c === 0x5d) {
      if (depth === 0) return -1;
      depth -= 1;
    }
  }
  return -1;
}

/**
 * `isSidechain` of a line: read after the first `"isSidechain":` when that key is at the top level
 * (no bracket before it; the CLI writes it second), else whether `"isSidechain":true` occurs
 * anywhere in the head window.
 */
function isSidechain(buf: Buffer, start: number, headEnd: number): boolean {
  const at = SIDECHAIN_KEY.indexIn(buf, start + 1, headEnd);
  if (at >= 0 && !hasBracket(buf, start + 1, at)) return TRUE.isAt(buf, at + SIDECHAIN_KEY.length, headEnd);
  return SIDECHAIN_TRUE.indexIn(buf, start, headEnd) >= 0;
}

/** Whether `buf[from, to)` holds a `{` or a `[`. */
function hasBracket(buf: Buffer, from: number, to: number): boolean {
  for (let i = from; i < to; i += 1) {
    const c = buf[i];
    if (c === 0x7b || c === 0x5b) return true;
  }
  return false;
}

/**
 * A user line as the CLI writes a typed prompt — one `"type":"user"` key, `"message":{"role":
 * "user","content":"<text>"}` and no other `"message":`, no `isMeta` / `isCompactSummary` /
 * `isVisibleInTranscriptOnly` key, a text without `\u` escapes or raw control bytes whose first
 * character past whitespace is neither `<` nor `[` (no slash-command wrapper, no interruption
 * notice) nor non-ASCII whitespace, and that holds no `<system-reminder>` — is `human`, its text a range of
 * `buf`: for such a line `lineFacts` says exactly that, so the scanner counts the prompt without
 * `JSON.parse` (most prompt lines). Anything else is `parse`. Lines up to two windows long only.
 * (`prompt` in assembly/line-probe.ts is the same, compiled.)
 */
function prompt(out: LineProbe, buf: Buffer, start: number, end: number, short: boolean): LineProbe {
  if (!short) return kind(out, 'parse');
  const t = TYPE_KEY.indexIn(buf, start, end);
  if (t < 0 || TYPE_KEY.indexIn(buf, t + 1, end) >= 0 || !USER.isAt(buf, t + TYPE_KEY.length, end))
    return kind(out, 'parse');
  const open = PROMPT_OPEN.indexIn(buf, start, end);
  if (open < 0 || MESSAGE_KEY.indexIn(buf, start, open) >= 0 || MESSAGE_KEY.indexIn(buf, open + 1, end) >= 0)
    return kind(out, 'parse');
  if (META_KEYS.some((k) => k.indexIn(buf, start, end) >= 0)) return kind(out, 'parse');
  const from = open + PROMPT_OPEN.length;
  const scan = stringScan(buf, from, end, false);
  const close = scan >> 1;
  if (scan < 0 || close + 1 >= end || buf[close + 1] !== 0x7d) return kind(out, 'parse');
  let j = from;
  while (j < close) {
    const c = buf[j];
    const n = buf[j + 1];
    if (c === 0x20) j += 1;
    else if (c === 0x5c && (n === 0x6e || n === 0x74 || n === 0x72 || n === 0x66)) j += 2;
    else break;
  }
  if (j >= close) return kind(out, 'parse');
  const first = buf[j] as number;
  if (first === 0x3c || first === 0x5b || first === 0x5c || isWideSpace(buf, j)) return kind(out, 'parse');
  if (REMINDER_TAG.indexIn(buf, from, close) >= 0) return kind(out, 'parse');
  out.kind = 'human';
  timestampIn(out, buf, start, end, false);
  out.sidechain = isSidechain(buf, start, end);
  out.textStart = from;
  out.textEnd = close;
  out.textEscaped = (scan & 1) === 1;
  return out;
}

/**
 * Whether the UTF-8 character at `i` is one that `trim()` removes beyond ASCII (U+00A0, U+1680,
 * U+2000–U+200A, U+2028, U+2029, U+202F, U+205F, U+3000, U+FEFF): a prompt starting with one is
 * left to `JSON.parse`, since a wrapper could follow it.
 */
function isWideSpace(b: Buffer, i: number): boolean {
  const c = b[i];
  const d = b[i + 1];
  const e = b[i + 2] as number;
  if (c === 0xc2) return d === 0xa0;
  if (c === 0xe1) return d === 0x9a && e === 0x80;
  if (c === 0xe2)
    return (
      (d === 0x80 && ((e >= 0x80 && e <= 0x8a) || e === 0xa8 || e === 0xa9 || e === 0xaf)) || (d === 0x81 && e === 0x9f)
    );
  if (c === 0xe3) return d === 0x80 && e === 0x80;
  return c === 0xef && d === 0xbb && e === 0xbf;
}

function kind(out: LineProbe, k: 'invalid' | 'parse'): LineProbe {
  out.kind = k;
  return out;
}

/** A `skip` with the first ISO timestamp of the head window, else of the tail window (`tailStart` -1: none). */
function skip(out: LineProbe, buf: Buffer, start: number, headEnd: number, tailStart: number, end: number): LineProbe {
  out.kind = 'skip';
  if (!timestampIn(out, buf, start, headEnd, false) && tailStart >= 0) timestampIn(out, buf, tailStart, end, false);
  return out;
}

const HIT_USER = 1;
const HIT_ASSISTANT = 2;
const HIT_TEXT = 4;
const HIT_TITLE = 8;

/**
 * Which of `"type":"user"`, `"type":"assistant"`, a title type and (with `text`) `"type":"text"`
 * occur in `buf[from, to)`, as `HIT_*` bits: one search for `"type":"`, then a look after each
 * hit. A title type anywhere means parse: a title line whose `type` is not its first key (another
 * writer's key order) must not be skipped.
 */
function typeHits(buf: Buffer, from: number, to: number, text: boolean): number {
  let hits = 0;
  for (let at = TYPE_KEY.indexIn(buf, from, to); at >= 0; at = TYPE_KEY.indexIn(buf, at + 1, to)) {
    const v = at + TYPE_KEY.length;
    if (USER.isAt(buf, v, to)) hits |= HIT_USER;
    else if (ASSISTANT.isAt(buf, v, to)) hits |= HIT_ASSISTANT;
    else if (text && TEXT.isAt(buf, v, to)) hits |= HIT_TEXT;
    else if (TITLES.some((t) => t.isAt(buf, v, to))) hits |= HIT_TITLE;
  }
  return hits;
}

/**
 * The `cwd` string of a line, read from its two ends; null when not seen there. Called for the
 * first lines of every file (until one names the project's directory), so it searches with the
 * native `lastIndexOf`/`indexOf`: during a cold scan JavaScript byte loops still run in V8's
 * interpreter.
 */
export function probeCwd(buf: Buffer, start: number, end: number): string | null {
  if (end - start <= 2 * WINDOW) return cwdIn(buf, start, end);
  return cwdIn(buf, end - WINDOW, end) ?? cwdIn(buf, start, start + WINDOW);
}

function cwdIn(buf: Buffer, from: number, to: number): string | null {
  const found = buf.subarray(from, to).lastIndexOf(CWD_KEY);
  if (found < 0) return null;
  const v = from + found + CWD_KEY.length;
  const limit = Math.min(to, v + 4096);
  const close = buf.indexOf(0x22, v);
  if (close < 0 || close >= limit) return null;
  const cwd = buf.toString('utf8', v, close);
  return cwd.includes('\\') ? readString(buf, v, limit) : cwd; // escapes: decode them
}

/**
 * Sets `out`'s timestamp from the first (or, `fromEnd`, the last) `"timestamp":"` in
 * `buf[from, to)` when its value is shaped like `2026-05-05T…`; false when there is none such.
 */
function timestampIn(out: LineProbe, buf: Buffer, from: number, to: number, fromEnd: boolean): boolean {
  const at = fromEnd ? TIMESTAMP.lastIndexIn(buf, from, to) : TIMESTAMP.indexIn(buf, from, to);
  if (at < 0) return false;
  const v = at + TIMESTAMP.length;
  const limit = Math.min(to, v + 40);
  const close = plainStringEnd(buf, v, limit);
  if (close < 0) {
    const value = readString(buf, v, limit); // escaped (or unterminated): decode, then judge
    if (value === null || !/^\d{4}-\d{2}-\d{2}T/.test(value)) return false;
    out.timestamp = value;
    return true;
  }
  if (close - v < 11 || !isoDatePrefix(buf, v)) return false;
  out.tsStart = v;
  out.tsEnd = close;
  return true;
}

/** `dddd-dd-ddT` at `i` (on bytes, as `^\d{4}-\d{2}-\d{2}T` on the decoded value). */
function isoDatePrefix(b: Buffer, i: number): boolean {
  return (
    isDigit(b[i]) &&
    isDigit(b[i + 1]) &&
    isDigit(b[i + 2]) &&
    isDigit(b[i + 3]) &&
    b[i + 4] === 0x2d &&
    isDigit(b[i + 5]) &&
    isDigit(b[i + 6]) &&
    b[i + 7] === 0x2d &&
    isDigit(b[i + 8]) &&
    isDigit(b[i + 9]) &&
    b[i + 10] === 0x54
  );
}

function isDigit(c: number | undefined): boolean {
  return c !== undefined && c >= 0x30 && c <= 0x39;
}

/**
 * Where the JSON string value starting at `from` (just after its opening quote) ends: the index of
 * its closing quote when that comes before `limit` with only plain ASCII and no escape before it
 * (so the bytes are the value); else -1 (`readString` decides).
 */
function plainStringEnd(buf: Buffer, from: number, limit: number): number {
  for (let i = from; i < limit; i += 1) {
    const c = buf[i] as number;
    if (c === 0x22) return i;
    if (c === 0x5c || c >= 0x80) return -1;
  }
  return -1;
}

/**
 * Reads a JSON string value starting just after its opening quote; null when it does not end
 * before `limit`. Escapes are decoded by `JSON.parse`.
 */
function readString(buf: Buffer, from: number, limit: number): string | null {
  let escaped = false;
  for (let i = from; i < limit; i += 1) {
    const c = buf[i];
    if (c === 0x5c) {
      escaped = true;
      i += 1;
    } else if (c === 0x22) {
      if (!escaped) return buf.toString('utf8', from, i);
      try {
        return JSON.parse(`"${buf.toString('utf8', from, i)}"`) as string;
      } catch {
        return null;
      }
    }
  }
  return null;
}
