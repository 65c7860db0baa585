// The scanner's byte-level probe of one JSONL line, in AssemblyScript, compiled to WebAssembly by
// `npm run build:wasm` (into src/sessions/wasm-line-probe-module.ts; a test checks that file is
// this source's compile).
//
// Why: `init` reads every line of every session. The JavaScript probe (src/sessions/probe-line.ts,
// `probeInto`) runs interpreted for the first few hundred files, until V8 has optimised its byte
// loops; this runs compiled from the first line on, and the searches compare 16 bytes at a time.
// A scan of 2,000 sessions takes ~60 ms less on the first pass, ~45 ms less when warm.
//
// Contract: for every line it answers what the JavaScript probe answers (a property test compares
// the two), or SLOW when a value it would read is not plain ASCII (an escape, UTF-8) — the
// JavaScript probe, which decodes, then takes that line. Reads only `[start, end)` of the line.

/** Kinds returned by `probe`. */
const K_INVALID = 0;
const K_PARSE = 1;
const K_SKIP = 2;
const K_ASSISTANT = 3;
const K_SLOW = 4;
/** A typed prompt whose text is a plain range of the line (see `prompt`). */
const K_HUMAN = 5;

/** Bytes looked at from each end of a long line (`WINDOW` in probe-line.ts). */
const WINDOW: usize = 2048;

/**
 * Results of the last `probe`: twelve i32 slots, byte offsets relative to the buffer (-1: none) or
 * flags (0/1). The JavaScript side reads them in this order (src/sessions/wasm-line-probe.ts).
 */
const RESULT = memory.data(48, 16);
const R_TS_START = 0;
const R_TS_END = 4;
const R_ID_START = 8;
const R_ID_END = 12;
const R_MODEL_START = 16;
const R_MODEL_END = 20;
const R_SIDECHAIN = 24;
const R_MAY_HAVE_TEXT = 28;
/** 1 when the line's timestamp was taken into `NEWEST` (so the JavaScript side need not compare it). */
const R_TS_IN_NEWEST = 32;
/** A prompt's text (between its quotes), and 1 when it holds escapes. */
const R_TEXT_START = 36;
const R_TEXT_END = 40;
const R_TEXT_ESCAPED = 44;

/**
 * The newest canonical timestamp (`2026-05-05T10:30:00.000Z`, 24 bytes, which order like their
 * instants) of the probed lines since `beginFile`: the session's last activity, kept here so that
 * the per-line comparison runs compiled too. Other timestamps are left to the JavaScript side,
 * which takes the larger of both at the end (a maximum does not depend on the order it is taken in).
 */
const NEWEST = memory.data(24);
let newestSet = false;

/** Starts a file: forgets the newest timestamp. */
export function beginFile(): void {
  newestSet = false;
}

/** Where the newest timestamp since `beginFile` is (24 bytes), or 0 when there is none. */
export function newest(): usize {
  return newestSet ? NEWEST : 0;
}
/** Where the line buffer starts (set by `reserve`). */
let base: usize = 0;

/** `{"type":"` */
const TYPE_FIRST = memory.data<u8>([0x7b, 0x22, 0x74, 0x79, 0x70, 0x65, 0x22, 0x3a, 0x22]);
const TYPE_FIRST_LEN = 9;
/** `"type":"` */
const TYPE_KEY = memory.data<u8>([0x22, 0x74, 0x79, 0x70, 0x65, 0x22, 0x3a, 0x22]);
const TYPE_KEY_LEN = 8;
/** `user"` */
const USER = memory.data<u8>([0x75, 0x73, 0x65, 0x72, 0x22]);
const USER_LEN = 5;
/** `assistant"` */
const ASSISTANT = memory.data<u8>([0x61, 0x73, 0x73, 0x69, 0x73, 0x74, 0x61, 0x6e, 0x74, 0x22]);
const ASSISTANT_LEN = 10;
/** `text"` */
const TEXT = memory.data<u8>([0x74, 0x65, 0x78, 0x74, 0x22]);
const TEXT_LEN = 5;
/** `summary"` */
const SUMMARY = memory.data<u8>([0x73, 0x75, 0x6d, 0x6d, 0x61, 0x72, 0x79, 0x22]);
const SUMMARY_LEN = 8;
/** `custom-title"` */
const CUSTOM_TITLE = memory.data<u8>([0x63, 0x75, 0x73, 0x74, 0x6f, 0x6d, 0x2d, 0x74, 0x69, 0x74, 0x6c, 0x65, 0x22]);
const CUSTOM_TITLE_LEN = 13;
/** `ai-title"` */
const AI_TITLE = memory.data<u8>([0x61, 0x69, 0x2d, 0x74, 0x69, 0x74, 0x6c, 0x65, 0x22]);
const AI_TITLE_LEN = 9;
/** `title"` */
const TITLE = memory.data<u8>([0x74, 0x69, 0x74, 0x6c, 0x65, 0x22]);
const TITLE_LEN = 6;
/** `"tool_result"` */
const TOOL_RESULT = memory.data<u8>([0x22, 0x74, 0x6f, 0x6f, 0x6c, 0x5f, 0x72, 0x65, 0x73, 0x75, 0x6c, 0x74, 0x22]);
const TOOL_RESULT_LEN = 13;
/** `"isSidechain":true` */
const SIDECHAIN_TRUE = memory.data<u8>([0x22, 0x69, 0x73, 0x53, 0x69, 0x64, 0x65, 0x63, 0x68, 0x61, 0x69, 0x6e, 0x22, 0x3a, 0x74, 0x72, 0x75, 0x65]);
const SIDECHAIN_TRUE_LEN = 18;
/** `"isSidechain":` */
const SIDECHAIN_KEY = memory.data<u8>([0x22, 0x69, 0x73, 0x53, 0x69, 0x64, 0x65, 0x63, 0x68, 0x61, 0x69, 0x6e, 0x22, 0x3a]);
const SIDECHAIN_KEY_LEN = 14;
/** `true` */
const TRUE = memory.data<u8>([0x74, 0x72, 0x75, 0x65]);
const TRUE_LEN = 4;
/** `toolu_` */
const TOOLU = memory.data<u8>([0x74, 0x6f, 0x6f, 0x6c, 0x75, 0x5f]);
const TOOLU_LEN = 6;
/** `<synthetic>"` */
const SYNTHETIC = memory.data<u8>([0x3c, 0x73, 0x79, 0x6e, 0x74, 0x68, 0x65, 0x74, 0x69, 0x63, 0x3e, 0x22]);
const SYNTHETIC_LEN = 12;
/** `"message":{` */
/** `"message":{` */
const MESSAGE_OPEN = memory.data<u8>([0x22, 0x6d, 0x65, 0x73, 0x73, 0x61, 0x67, 0x65, 0x22, 0x3a, 0x7b]);
const MESSAGE_OPEN_LEN = 11;
/** `"id":"` */
const ID = memory.data<u8>([0x22, 0x69, 0x64, 0x22, 0x3a, 0x22]);
const ID_LEN = 6;
/** `"model":"` */
const MODEL = memory.data<u8>([0x22, 0x6d, 0x6f, 0x64, 0x65, 0x6c, 0x22, 0x3a, 0x22]);
const MODEL_LEN = 9;
/** `"type":"text"` */
const TEXT_BLOCK = memory.data<u8>([0x22, 0x74, 0x79, 0x70, 0x65, 0x22, 0x3a, 0x22, 0x74, 0x65, 0x78, 0x74, 0x22]);
const TEXT_BLOCK_LEN = 13;
/** `"timestamp":"` */
const TIMESTAMP = memory.data<u8>([0x22, 0x74, 0x69, 0x6d, 0x65, 0x73, 0x74, 0x61, 0x6d, 0x70, 0x22, 0x3a, 0x22]);
const TIMESTAMP_LEN = 13;
/** `"message":{"role":"user","content":"` */
const PROMPT_OPEN = memory.data<u8>([0x22, 0x6d, 0x65, 0x73, 0x73, 0x61, 0x67, 0x65, 0x22, 0x3a, 0x7b, 0x22, 0x72, 0x6f, 0x6c, 0x65, 0x22, 0x3a, 0x22, 0x75, 0x73, 0x65, 0x72, 0x22, 0x2c, 0x22, 0x63, 0x6f, 0x6e, 0x74, 0x65, 0x6e, 0x74, 0x22, 0x3a, 0x22]);
const PROMPT_OPEN_LEN = 36;
/** `"message":` */
const MESSAGE_KEY = memory.data<u8>([0x22, 0x6d, 0x65, 0x73, 0x73, 0x61, 0x67, 0x65, 0x22, 0x3a]);
const MESSAGE_KEY_LEN = 10;
/** `"isMeta":` */
const IS_META = memory.data<u8>([0x22, 0x69, 0x73, 0x4d, 0x65, 0x74, 0x61, 0x22, 0x3a]);
const IS_META_LEN = 9;
/** `"isCompactSummary":` */
const IS_COMPACT = memory.data<u8>([0x22, 0x69, 0x73, 0x43, 0x6f, 0x6d, 0x70, 0x61, 0x63, 0x74, 0x53, 0x75, 0x6d, 0x6d, 0x61, 0x72, 0x79, 0x22, 0x3a]);
const IS_COMPACT_LEN = 19;
/** `"isVisibleInTranscriptOnly":` */
const IS_VISIBLE = memory.data<u8>([0x22, 0x69, 0x73, 0x56, 0x69, 0x73, 0x69, 0x62, 0x6c, 0x65, 0x49, 0x6e, 0x54, 0x72, 0x61, 0x6e, 0x73, 0x63, 0x72, 0x69, 0x70, 0x74, 0x4f, 0x6e, 0x6c, 0x79, 0x22, 0x3a]);
const IS_VISIBLE_LEN = 28;
/** `"content":` */
const CONTENT_KEY = memory.data<u8>([0x22, 0x63, 0x6f, 0x6e, 0x74, 0x65, 0x6e, 0x74, 0x22, 0x3a]);
const CONTENT_KEY_LEN = 10;
/** `"content":[{"type":"text","text":"` */
const TEXT_CONTENT = memory.data<u8>([0x22, 0x63, 0x6f, 0x6e, 0x74, 0x65, 0x6e, 0x74, 0x22, 0x3a, 0x5b, 0x7b, 0x22, 0x74, 0x79, 0x70, 0x65, 0x22, 0x3a, 0x22, 0x74, 0x65, 0x78, 0x74, 0x22, 0x2c, 0x22, 0x74, 0x65, 0x78, 0x74, 0x22, 0x3a, 0x22]);
const TEXT_CONTENT_LEN = 34;
/** `<system-reminder>` */
const REMINDER = memory.data<u8>([0x3c, 0x73, 0x79, 0x73, 0x74, 0x65, 0x6d, 0x2d, 0x72, 0x65, 0x6d, 0x69, 0x6e, 0x64, 0x65, 0x72, 0x3e]);
const REMINDER_LEN = 17;

/** Reserves the line buffer (`size` bytes) once, and returns where it starts. */
export function reserve(size: usize): usize {
  base = heap.alloc(size);
  return base;
}

/** Where the results of `probe` are. */
export function results(): usize {
  return RESULT;
}

@inline function at(i: usize): u32 {
  return load<u8>(i);
}

/** Whether `n` bytes at `a` equal those at `b`. */
@inline function same(a: usize, b: usize, n: usize): bool {
  for (let k: usize = 0; k < n; k++) if (load<u8>(a + k) != load<u8>(b + k)) return false;
  return true;
}

/** Whether the pattern lies at `i`, entirely before `to`. */
@inline function isAt(pat: usize, n: usize, i: usize, to: usize): bool {
  return i + n <= to && same(i, pat, n);
}

/**
 * The bytes a search filters 16 starts at a time by: the pattern's second and second-to-last.
 * Nearly every pattern here begins and ends with `"`, `{` or `:`, which JSON is full of; the
 * letters inside are rarer, so fewer candidate starts need the full comparison.
 */
@inline function filterAt(n: usize): usize {
  return n >= 4 ? 1 : 0;
}
@inline function filterAtEnd(n: usize): usize {
  return n >= 4 ? n - 2 : n - 1;
}

/** The first index in `[from, to)` where the whole pattern lies inside that range, or -1. */
function find(pat: usize, n: usize, from: usize, to: usize): isize {
  if (to < from + n) return -1;
  const last = to - n; // the last possible start
  const a = filterAt(n);
  const b = filterAtEnd(n);
  const f = i8x16.splat(<i8>load<u8>(pat + a));
  const l = i8x16.splat(<i8>load<u8>(pat + b));
  let i = from;
  while (i + 15 <= last) {
    let m = i8x16.bitmask(v128.and(i8x16.eq(v128.load(i + a), f), i8x16.eq(v128.load(i + b), l)));
    while (m != 0) {
      const k = <usize>ctz(m);
      if (same(i + k, pat, n)) return <isize>(i + k);
      m &= m - 1;
    }
    i += 16;
  }
  const first = load<u8>(pat);
  for (; i <= last; i++) if (load<u8>(i) == first && same(i + 1, pat + 1, n - 1)) return <isize>i;
  return -1;
}

/** The last index in `[from, to)` where the whole pattern lies inside that range, or -1. */
function findLast(pat: usize, n: usize, from: usize, to: usize): isize {
  if (to < from + n) return -1;
  const a = filterAt(n);
  const b = filterAtEnd(n);
  const f = i8x16.splat(<i8>load<u8>(pat + a));
  const l = i8x16.splat(<i8>load<u8>(pat + b));
  let i = to - n; // the last possible start
  while (i >= from + 15) {
    const s = i - 15; // the block of starts [s, i]
    let m = i8x16.bitmask(v128.and(i8x16.eq(v128.load(s + a), f), i8x16.eq(v128.load(s + b), l)));
    while (m != 0) {
      const k = <usize>(31 - clz(m));
      if (same(s + k, pat, n)) return <isize>(s + k);
      m &= ~(<i32>1 << <i32>k);
    }
    i -= 16;
  }
  const first = load<u8>(pat);
  for (; i >= from && i != <usize>-1; i--) {
    if (load<u8>(i) == first && same(i + 1, pat + 1, n - 1)) return <isize>i;
    if (i == 0) break;
  }
  return -1;
}

/**
 * Where the JSON string value starting at `from` ends: its closing quote when that comes before
 * `limit` with only plain ASCII and no escape before it; else -1.
 */
function plainStringEnd(from: usize, limit: usize): isize {
  for (let i = from; i < limit; i++) {
    const c = at(i);
    if (c == 0x22) return <isize>i;
    if (c == 0x5c || c >= 0x80) return -1;
  }
  return -1;
}

@inline function isDigit(c: u32): bool {
  return c - 0x30 <= 9;
}

/** `dddd-dd-ddT` at `i`. */
function isoDatePrefix(i: usize): bool {
  return isDigit(at(i)) && isDigit(at(i + 1)) && isDigit(at(i + 2)) && isDigit(at(i + 3)) && at(i + 4) == 0x2d && isDigit(at(i + 5)) && isDigit(at(i + 6)) && at(i + 7) == 0x2d && isDigit(at(i + 8)) && isDigit(at(i + 9)) && at(i + 10) == 0x54;
}

const TS_NONE = 0;
const TS_FOUND = 1;
const TS_SLOW = 2;

/** The first (or last) `"timestamp":"` of `[from, to)` with an ISO-dated plain value, into the results. */
function timestampIn(from: usize, to: usize, fromEnd: bool): i32 {
  const hit = fromEnd ? findLast(TIMESTAMP, TIMESTAMP_LEN, from, to) : find(TIMESTAMP, TIMESTAMP_LEN, from, to);
  if (hit < 0) return TS_NONE;
  const v = <usize>hit + TIMESTAMP_LEN;
  const limit = min(to, v + 40);
  const close = plainStringEnd(v, limit);
  if (close < 0) return TS_SLOW;
  if (<usize>close - v < 11 || !isoDatePrefix(v)) return TS_NONE;
  store<i32>(RESULT, <i32>(v - base), R_TS_START);
  store<i32>(RESULT, <i32>(<usize>close - base), R_TS_END);
  return TS_FOUND;
}

/** A `skip` with the first ISO timestamp of the head window, else of the tail window (`tailStart` 0: none). */
function skip(start: usize, headEnd: usize, tailStart: usize, end: usize): i32 {
  const t = timestampIn(start, headEnd, false);
  if (t == TS_SLOW) return K_SLOW;
  if (t == TS_NONE && tailStart != 0 && timestampIn(tailStart, end, false) == TS_SLOW) return K_SLOW;
  return K_SKIP;
}

const HIT_USER = 1;
const HIT_ASSISTANT = 2;
const HIT_TEXT = 4;
const HIT_TITLE = 8;

/** Which of `"type":"user"`, `"type":"assistant"`, a title type and (with `text`) `"type":"text"` occur in `[from, to)`. */
function typeHits(from: usize, to: usize, text: bool): i32 {
  let hits = 0;
  for (let hit = find(TYPE_KEY, TYPE_KEY_LEN, from, to); hit >= 0; hit = find(TYPE_KEY, TYPE_KEY_LEN, <usize>hit + 1, to)) {
    const v = <usize>hit + TYPE_KEY_LEN;
    if (isAt(USER, USER_LEN, v, to)) hits |= HIT_USER;
    else if (isAt(ASSISTANT, ASSISTANT_LEN, v, to)) hits |= HIT_ASSISTANT;
    else if (text && isAt(TEXT, TEXT_LEN, v, to)) hits |= HIT_TEXT;
    else if (isAt(SUMMARY, SUMMARY_LEN, v, to) || isAt(CUSTOM_TITLE, CUSTOM_TITLE_LEN, v, to) || isAt(AI_TITLE, AI_TITLE_LEN, v, to) || isAt(TITLE, TITLE_LEN, v, to)) hits |= HIT_TITLE;
  }
  return hits;
}

/** Whether `[from, to)` holds a `{` or a `[`. */
function hasBracket(from: usize, to: usize): bool {
  for (let i = from; i < to; i++) {
    const c = at(i);
    if (c == 0x7b || c == 0x5b) return true;
  }
  return false;
}

/** `isSidechain` of a line (see probe-line.ts). */
function isSidechain(start: usize, headEnd: usize): bool {
  const key = find(SIDECHAIN_KEY, SIDECHAIN_KEY_LEN, start + 1, headEnd);
  if (key >= 0 && !hasBracket(start + 1, <usize>key)) return isAt(TRUE, TRUE_LEN, <usize>key + SIDECHAIN_KEY_LEN, headEnd);
  return find(SIDECHAIN_TRUE, SIDECHAIN_TRUE_LEN, start, headEnd) >= 0;
}

/** Whether the plain value `[from, close)` is a type that is always parsed. */
function isParseType(from: usize, close: usize): bool {
  const n = close + 1 - from;
  return (n == USER_LEN && same(from, USER, n)) || (n == ASSISTANT_LEN && same(from, ASSISTANT, n)) || (n == SUMMARY_LEN && same(from, SUMMARY, n)) || (n == CUSTOM_TITLE_LEN && same(from, CUSTOM_TITLE, n)) || (n == AI_TITLE_LEN && same(from, AI_TITLE, n)) || (n == TITLE_LEN && same(from, TITLE, n));
}

/**
 * Probes the line at buffer offsets `[s, e)`: returns its kind and leaves the ranges the kind
 * needs in the results (timestamp; for an assistant line also message id, model, sidechain and
 * whether it may hold text). Offsets in the results are relative to the buffer; -1 is none. A
 * canonical timestamp of a line it judged is also taken into `NEWEST`.
 */
export function probe(s: usize, e: usize): i32 {
  const kind = probeLine(s, e);
  store<i32>(RESULT, 0, R_TS_IN_NEWEST);
  if (kind == K_SKIP || kind == K_ASSISTANT || kind == K_HUMAN) {
    const ts = load<i32>(RESULT, R_TS_START);
    if (ts >= 0 && load<i32>(RESULT, R_TS_END) - ts == 24 && at(base + <usize>ts + 23) == 0x5a) {
      takeNewest(base + <usize>ts);
      store<i32>(RESULT, 1, R_TS_IN_NEWEST);
    }
  }
  return kind;
}

/** Keeps the 24 bytes at `ts` in `NEWEST` when they are later (compare as bytes = as instants). */
function takeNewest(ts: usize): void {
  let i: usize = 0;
  if (newestSet) {
    while (i < 24 && load<u8>(ts + i) == load<u8>(NEWEST + i)) i++;
    if (i == 24 || load<u8>(ts + i) < load<u8>(NEWEST + i)) return;
  }
  memory.copy(NEWEST + i, ts + i, 24 - i);
  newestSet = true;
}

function probeLine(s: usize, e: usize): i32 {
  const start = base + s;
  const end = base + e;
  store<i32>(RESULT, -1, R_TS_START);
  if (e < s + 2 || at(start) != 0x7b || at(end - 1) != 0x7d) return K_INVALID;
  const short = e - s <= 2 * WINDOW;
  const headEnd = short ? end : start + WINDOW;
  const tailStart: usize = short ? 0 : end - WINDOW;

  if (isAt(TYPE_FIRST, TYPE_FIRST_LEN, start, headEnd)) {
    const from = start + TYPE_FIRST_LEN;
    const close = plainStringEnd(from, min(headEnd, from + 64));
    if (close < 0) return K_SLOW;
    if (<usize>close + 1 - from == USER_LEN && same(from, USER, USER_LEN)) return prompt(start, end, short);
    if (isParseType(from, <usize>close)) return K_PARSE;
    return skip(start, headEnd, tailStart, end);
  }
  const types = typeHits(start, headEnd, short) | (short ? 0 : typeHits(tailStart, end, false));
  if ((types & HIT_TITLE) != 0) return K_PARSE;
  const isUser = (types & HIT_USER) != 0;
  const isAssistant = (types & HIT_ASSISTANT) != 0;
  if (isUser && isAssistant) return K_PARSE;
  if (isUser) return find(TOOL_RESULT, TOOL_RESULT_LEN, start, headEnd) >= 0 ? skip(start, headEnd, tailStart, end) : prompt(start, end, short);
  if (!isAssistant) return skip(start, headEnd, tailStart, end);

  const mo = find(MESSAGE_OPEN, MESSAGE_OPEN_LEN, start, headEnd);
  if (mo < 0) return K_PARSE;
  const idAt = find(ID, ID_LEN, <usize>mo, headEnd);
  if (idAt < 0) return K_PARSE;
  const idFrom = <usize>idAt + ID_LEN;
  const idClose = plainStringEnd(idFrom, min(headEnd, idFrom + 200));
  if (idClose < 0) return K_SLOW;
  if (isAt(TOOLU, TOOLU_LEN, idFrom, <usize>idClose)) return K_PARSE;
  store<i32>(RESULT, <i32>(idFrom - base), R_ID_START);
  store<i32>(RESULT, <i32>(<usize>idClose - base), R_ID_END);
  store<i32>(RESULT, -1, R_MODEL_START);
  const modelAt = find(MODEL, MODEL_LEN, <usize>mo, headEnd);
  if (modelAt >= 0) {
    const from = <usize>modelAt + MODEL_LEN;
    const close = plainStringEnd(from, min(headEnd, from + 200));
    if (close < 0) return K_SLOW;
    if (!isAt(SYNTHETIC, SYNTHETIC_LEN, from, <usize>close + 1) && <usize>close > from) {
      store<i32>(RESULT, <i32>(from - base), R_MODEL_START);
      store<i32>(RESULT, <i32>(<usize>close - base), R_MODEL_END);
    }
  }
  if (timestampIn(short ? start : tailStart, end, true) == TS_SLOW) return K_SLOW;
  store<i32>(RESULT, isSidechain(start, headEnd) ? 1 : 0, R_SIDECHAIN);
  const mayHaveText = short ? (types & HIT_TEXT) != 0 : find(TEXT_BLOCK, TEXT_BLOCK_LEN, start, end) >= 0;
  store<i32>(RESULT, mayHaveText ? 1 : 0, R_MAY_HAVE_TEXT);
  store<i32>(RESULT, -1, R_TEXT_START);
  if (mayHaveText && short) answerText(start, end, <usize>mo);
  return K_ASSISTANT;
}

/**
 * A user line as the CLI writes a typed prompt — one `"type":"user"` key, `"message":{"role":
 * "user","content":"<text>"}` and no other `"message":`, no `isMeta` / `isCompactSummary` /
 * `isVisibleInTranscriptOnly` key, a text without `\u` escapes or raw control bytes whose first
 * character past whitespace is neither `<` nor `[` (no slash-command wrapper, no interruption
 * notice) nor non-ASCII whitespace, and that holds no `<system-reminder>` — is K_HUMAN, its text between
 * R_TEXT_START and R_TEXT_END; anything else is K_PARSE. Lines up to two windows long only.
 * (`probeJsPrompt` in probe-line.ts is the same in JavaScript.)
 */
function prompt(start: usize, end: usize, short: bool): i32 {
  if (!short) return K_PARSE;
  const t = find(TYPE_KEY, TYPE_KEY_LEN, start, end);
  if (t < 0 || find(TYPE_KEY, TYPE_KEY_LEN, <usize>t + 1, end) >= 0 || !isAt(USER, USER_LEN, <usize>t + TYPE_KEY_LEN, end)) return K_PARSE;
  const open = find(PROMPT_OPEN, PROMPT_OPEN_LEN, start, end);
  if (open < 0 || find(MESSAGE_KEY, MESSAGE_KEY_LEN, start, <usize>open) >= 0 || find(MESSAGE_KEY, MESSAGE_KEY_LEN, <usize>open + 1, end) >= 0) return K_PARSE;
  if (find(IS_META, IS_META_LEN, start, end) >= 0 || find(IS_COMPACT, IS_COMPACT_LEN, start, end) >= 0 || find(IS_VISIBLE, IS_VISIBLE_LEN, start, end) >= 0) return K_PARSE;
  const from = <usize>open + PROMPT_OPEN_LEN;
  const scan = stringScan(from, end, false);
  if (scan < 0) return K_PARSE;
  const close = <usize>(scan >> 1);
  if (close + 1 >= end || at(close + 1) != 0x7d) return K_PARSE;
  let j = from;
  while (j < close) {
    const c = at(j);
    if (c == 0x20) j++;
    else if (c == 0x5c && (at(j + 1) == 0x6e || at(j + 1) == 0x74 || at(j + 1) == 0x72 || at(j + 1) == 0x66)) j += 2;
    else break;
  }
  if (j >= close) return K_PARSE;
  const first = at(j);
  if (first == 0x3c || first == 0x5b || first == 0x5c || isWideSpace(j)) return K_PARSE;
  if (find(REMINDER, REMINDER_LEN, from, close) >= 0) return K_PARSE;
  if (timestampIn(start, end, false) == TS_SLOW) return K_SLOW;
  store<i32>(RESULT, isSidechain(start, end) ? 1 : 0, R_SIDECHAIN);
  store<i32>(RESULT, <i32>(from - base), R_TEXT_START);
  store<i32>(RESULT, <i32>(close - base), R_TEXT_END);
  store<i32>(RESULT, <i32>(scan & 1), R_TEXT_ESCAPED);
  return K_HUMAN;
}

/** Whether the UTF-8 character at `i` is whitespace `trim()` removes beyond ASCII (see probe-line.ts). */
function isWideSpace(i: usize): bool {
  const c = at(i);
  const d = at(i + 1);
  const e = at(i + 2);
  if (c == 0xc2) return d == 0xa0;
  if (c == 0xe1) return d == 0x9a && e == 0x80;
  if (c == 0xe2) return (d == 0x80 && ((e >= 0x80 && e <= 0x8a) || e == 0xa8 || e == 0xa9 || e == 0xaf)) || (d == 0x81 && e == 0x9f);
  if (c == 0xe3) return d == 0x80 && e == 0x80;
  return c == 0xef && d == 0xbb && e == 0xbf;
}

/**
 * For an assistant line whose `message` — its only `"message":` key, at the top level — has as
 * `content` (the line's only `"content":` key) exactly one text block
 * (`"content":[{"type":"text","text":"<text>"}]`, what the CLI writes for an answer), the text's range in R_TEXT_START / R_TEXT_END (R_TEXT_ESCAPED: it holds
 * escapes); else R_TEXT_START stays -1. The summary then decodes only the text of the newest
 * answer instead of parsing its line. (`answerText` in probe-line.ts is the same in JavaScript.)
 */
function answerText(start: usize, end: usize, mo: usize): void {
  if (find(MESSAGE_KEY, MESSAGE_KEY_LEN, start, mo) >= 0 || find(MESSAGE_KEY, MESSAGE_KEY_LEN, mo + 1, end) >= 0) return;
  if (keyAtDepth(start + 1, end, MESSAGE_KEY, MESSAGE_KEY_LEN) != <isize>mo) return;
  const c = keyAtDepth(mo + MESSAGE_OPEN_LEN, end, CONTENT_KEY, CONTENT_KEY_LEN);
  if (c < 0 || !isAt(TEXT_CONTENT, TEXT_CONTENT_LEN, <usize>c, end) || find(CONTENT_KEY, CONTENT_KEY_LEN, <usize>c + 1, end) >= 0) return;
  const from = <usize>c + TEXT_CONTENT_LEN;
  const scan = stringScan(from, end, true);
  if (scan < 0) return;
  const close = <usize>(scan >> 1);
  if (close + 2 >= end || at(close + 1) != 0x7d || at(close + 2) != 0x5d) return;
  store<i32>(RESULT, <i32>(from - base), R_TEXT_START);
  store<i32>(RESULT, <i32>(close - base), R_TEXT_END);
  store<i32>(RESULT, <i32>(scan & 1), R_TEXT_ESCAPED);
}

/** `stringScan` of probe-line.ts: `2 × close + escaped` of the JSON string from `from`, or -1. */
function stringScan(from: usize, end: usize, unicode: bool): isize {
  let escaped: isize = 0;
  for (let i = from; i < end; i++) {
    const c = at(i);
    if (c == 0x22) return 2 * <isize>i + escaped;
    if (c < 0x20) return -1;
    if (c == 0x5c) {
      if (i + 1 >= end || (!unicode && at(i + 1) == 0x75)) return -1;
      escaped = 1;
      i++;
    }
  }
  return -1;
}

/**
 * The first `key` (a quoted key with its colon) in `[from, to)` that lies directly in the object
 * `from` is inside — not in a string, not in a nested object or array — or -1.
 */
function keyAtDepth(from: usize, to: usize, key: usize, n: usize): isize {
  let depth = 0;
  let inString = false;
  for (let i = from; i < to; i++) {
    const c = at(i);
    if (inString) {
      if (c == 0x5c) i++;
      else if (c == 0x22) inString = false;
      continue;
    }
    if (c == 0x22) {
      if (depth == 0 && isAt(key, n, i, to)) return <isize>i;
      inString = true;
    } else if (c == 0x7b || c == 0x5b) depth++;
    else if (c == 0x7d || c == 0x5d) {
      if (depth == 0) return -1;
      depth--;
    }
  }
  return -1;
}
