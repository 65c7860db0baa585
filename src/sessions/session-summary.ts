import { latin1, utf8 } from './buffer-text.js';
import { lineFacts, type LineFacts } from './line-facts.js';
import { preview } from './preview.js';
import { LineProbe, probeCwd, probeInJs } from './probe-line.js';
import { encodeProjectDir } from './project-dir.js';
import { fileStem, parentName } from './path-parts.js';
import type { LineSink, LineView } from './read-jsonl-lines.js';
import type { ScanJsonlResult, ScannedSession } from './scan-jsonl.js';
import type { ScanWarning } from './scan-warning.js';
import { TextRing, type Reread } from './text-ring.js';
import { QUIET, WasmLineProbe } from './wasm-line-probe.js';

/** Preview lengths of the design (§2.1.4), in characters. */
const PREVIEW_CHARS = { message: 100, user: 80, assistant: 80, title: 100 } as const;

const ID_RING = 64;

/**
 * The summary of one session file, built line by line (`line`) and completed by `finish`. It is
 * the scanner's per-line hot path, so it is a class (no closures per file) that keeps strings out
 * of the loop: lines are probed into one reused `LineProbe`, and timestamps are compared as bytes
 * (a canonical ISO timestamp orders like the instant it names), made into strings once at the end.
 *
 * Message counting: the CLI writes one `assistant` line per content block, all sharing
 * `message.id`; an API message counts once (ids are remembered over the last 64 assistant
 * messages, which covers interleaved tool results).
 *
 * @example
 *   const summary = new SessionSummary(file, stat);
 *   readJsonlLinesSync(fd, summary);
 *   return summary.finish((offset, length) => readAt(fd, offset, length));
 */
export class SessionSummary implements LineSink {
  private readonly session: ScannedSession;
  private readonly probe = new LineProbe();
  private firstCwd: string | null = null;
  private matchedCwd = false;
  private titleRank = 0;
  private valid = 0;
  private invalid = 0;
  private partialLast = false;
  private unreadableLong = 0;
  private seq = 0;
  private lastUserSeq = -1;
  private lastUserText = '';
  private lastId: string | null = null;
  private readonly recentIds: string[] = [];
  private readonly recentSet = new Set<string>();
  private readonly textRing = new TextRing();
  /** The newest timestamp so far: none, 24 ASCII bytes in `maxBytes`, or the string `maxString`. */
  private maxKind: 0 | 1 | 2 = 0;
  /** Made on first use: files the WebAssembly probe reads never need it (see `noteTimeBytes`). */
  private maxBytes = NO_BYTES;
  private maxString = '';
  /** Some timestamps went into the WebAssembly probe's newest one instead (see `WasmLineProbe.beginFile`). */
  private wasmNewest = false;
  private readonly wasm = WasmLineProbe.loaded();

  constructor(
    private readonly file: string,
    private readonly stat: { size: number; mtimeMs: number; birthtimeMs: number },
  ) {
    this.session = blankSession(file, stat.size, stat.mtimeMs);
    this.wasm?.beginFile();
  }

  /**
   * Takes one line (see `readJsonlLines`); the view is only read during the call. A line in the
   * WebAssembly probe's buffer that leaves nothing to do (`QUIET`: most tool results and
   * bookkeeping lines) costs one call and a counter, once the file's cwd and first time are known.
   */
  line(l: LineView): void {
    const wasm = this.wasm;
    const p = this.probe;
    if (wasm !== null && l.buf === wasm.buffer) {
      const code = wasm.probeCode(l.start, l.end);
      if (code === QUIET && this.matchedCwd && this.session.createdAt !== null) {
        this.valid += 1;
        this.wasmNewest = true;
        return;
      }
      if (!wasm.fill(p, code)) probeInJs(p, l.buf, l.start, l.end);
    } else probeInJs(p, l.buf, l.start, l.end);
    const kind = p.kind;
    if (kind === 'invalid') {
      if (l.last) this.partialLast = true;
      else this.invalid += 1;
      return;
    }
    if (kind === 'parse') {
      this.parsed(l);
      return;
    }
    this.valid += 1;
    if (!this.matchedCwd) this.noteCwd(probeCwd(l.buf, l.start, l.end));
    if (p.tsInNewest) {
      // Compared with the newest already, by the WebAssembly probe (taken back in `finish`).
      this.wasmNewest = true;
      if (this.session.createdAt === null) this.session.createdAt = latin1(l.buf, p.tsStart, p.tsEnd);
    } else if (p.tsStart >= 0) this.noteTimeBytes(l.buf, p.tsStart, p.tsEnd);
    else this.noteTime(p.timestamp);
    if (kind === 'assistant' && !p.sidechain) this.noteProbedAssistant(l, p);
    else if (kind === 'human' && !p.sidechain) this.notePrompt(p.textOf(l.buf)); // read from its bytes: no JSON.parse
  }

  /**
   * The summary after the last line. `reread` fetches a probed assistant line again when its text
   * is needed for the preview (at most a few per file).
   */
  finish(reread: Reread, warnings: ScanWarning[]): ScanJsonlResult & { session: ScannedSession } {
    const { session, file, stat } = this;
    if (this.wasmNewest) this.noteTime(this.wasm?.newest() ?? null);
    if (!this.matchedCwd) session.cwd = this.firstCwd;
    if (this.maxKind !== 0) session.lastActive = this.maxKind === 1 ? this.maxBytes.toString('latin1') : this.maxString;
    const assistant = this.textRing.newest(reread);
    // The newest message's two previews: the shorter is cut from the longer (same result, see `preview`).
    const answerNewer = assistant !== null && assistant.seq > this.lastUserSeq;
    const message = preview(answerNewer ? assistant.text : this.lastUserText, PREVIEW_CHARS.message);
    session.lastMessagePreview = message;
    session.lastUserPreview = preview(answerNewer ? this.lastUserText : message, PREVIEW_CHARS.user);
    session.lastAssistantPreview =
      assistant === null ? '' : preview(answerNewer ? message : assistant.text, PREVIEW_CHARS.assistant);
    if (session.lastActive === null) session.lastActive = new Date(stat.mtimeMs).toISOString();
    if (session.createdAt === null) session.createdAt = new Date(stat.birthtimeMs || stat.mtimeMs).toISOString();

    if (this.valid === 0 && (this.invalid > 0 || this.partialLast)) {
      session.health = 'corrupted';
      session.problem = 'not JSONL';
      warnings.push({ code: 'not_jsonl', file });
    } else if (this.invalid > 0) warnings.push({ code: 'invalid_lines', file, detail: this.invalid });
    if (this.unreadableLong > 0) warnings.push({ code: 'long_lines', file, detail: this.unreadableLong });
    return { session, skipped: null, warnings };
  }

  /** A line the probe could not judge: parsed whole (unless its middle is missing). */
  private parsed(l: LineView): void {
    if (l.truncated) {
      this.unreadableLong += 1;
      this.valid += 1;
      return;
    }
    let value: unknown;
    try {
      value = JSON.parse(utf8(l.buf, l.start, l.end));
    } catch {
      if (l.last) this.partialLast = true;
      else this.invalid += 1;
      return;
    }
    this.valid += 1;
    this.onFacts(lineFacts(value));
  }

  private onFacts(f: LineFacts): void {
    const { session } = this;
    this.noteTime(f.timestamp);
    this.noteCwd(f.cwd);
    if (f.sidechain) return;
    if (f.kind === 'title' && f.title !== null && f.titleRank >= this.titleRank) {
      this.titleRank = f.titleRank;
      session.title = preview(f.title, PREVIEW_CHARS.title);
    } else if (f.kind === 'human') this.notePrompt(f.text);
    else if (f.kind === 'assistant') {
      this.noteAssistant(f.messageId, f.model);
      if (f.text.trim()) this.textRing.addText(this.seq, f.text);
    }
  }

  /** A human prompt (its text trimmed, as `lineFacts` gives it). */
  private notePrompt(text: string): void {
    const { session } = this;
    this.seq += 1;
    session.messageCount += 1;
    this.lastUserSeq = this.seq;
    this.lastUserText = text;
    if (session.firstPrompt === null) session.firstPrompt = preview(text, PREVIEW_CHARS.title);
  }

  private noteCwd(cwd: string | null): void {
    if (cwd === null || this.matchedCwd) return;
    if (this.firstCwd === null) this.firstCwd = cwd;
    if (encodeProjectDir(cwd) === this.session.projectDir) {
      this.matchedCwd = true;
      this.session.cwd = cwd;
    }
  }

  /**
   * `noteAssistant` for a probed line. The id and model are made into strings with `latin1`
   * (plain ASCII values, see `LineProbe`) and compared as strings: a cold scan runs
   * mostly in V8's interpreter, where native slicing and comparison beat comparing the bytes in a
   * JavaScript loop (docs/performance.md).
   */
  private noteProbedAssistant(l: LineView, p: LineProbe): void {
    const buf = l.buf;
    const model = p.modelStart >= 0 ? latin1(buf, p.modelStart, p.modelEnd) : p.model;
    this.noteAssistant(p.idStart >= 0 ? latin1(buf, p.idStart, p.idEnd) : p.messageId, model);
    if (!p.mayHaveText || l.truncated) return;
    if (p.textStart >= 0)
      this.textRing.addTextAt(this.seq, l.offset + (p.textStart - l.start), p.textEnd - p.textStart, p.textEscaped);
    else this.textRing.addLine(this.seq, l.offset, l.length);
  }

  private noteAssistant(messageId: string | null, model: string | null): void {
    this.seq += 1;
    if (model) this.session.model = model;
    if (messageId === null) this.session.messageCount += 1;
    else if (messageId !== this.lastId && !this.recentSet.has(messageId)) {
      this.session.messageCount += 1;
      this.recentIds.push(messageId);
      this.recentSet.add(messageId);
      if (this.recentIds.length > ID_RING) this.recentSet.delete(this.recentIds.shift() as string);
    }
    if (messageId !== null) this.lastId = messageId;
  }

  // Times are kept as canonical ISO strings (`2026-05-05T10:30:00.000Z`), which order like the
  // instants they name; only other spellings go through Date.parse.
  private noteTime(ts: string | null): void {
    if (ts === null) return;
    const iso = ts.length === 24 && ts.charCodeAt(23) === 0x5a ? ts : canonicalIso(ts);
    if (iso === null) return;
    if (this.session.createdAt === null) this.session.createdAt = iso;
    if (this.maxKind === 0 || (this.maxKind === 1 ? compareToBytes(iso, this.maxBytes) >= 0 : iso >= this.maxString)) {
      this.maxKind = 2;
      this.maxString = iso;
    }
  }

  /** `noteTime` for a plain (ASCII) timestamp at `buf[at, end)`, without making a string when it is canonical. */
  private noteTimeBytes(buf: Buffer, at: number, end: number): void {
    if (end - at !== 24 || buf[at + 23] !== 0x5a) {
      this.noteTime(latin1(buf, at, end));
      return;
    }
    if (this.session.createdAt === null) this.session.createdAt = latin1(buf, at, end);
    if (this.maxBytes === NO_BYTES) this.maxBytes = Buffer.alloc(24);
    if (this.maxKind === 2) {
      if (compareToBytes(this.maxString, buf, at) > 0) return;
      buf.copy(this.maxBytes, 0, at, end);
      this.maxKind = 1;
      return;
    }
    const max = this.maxBytes;
    let i = 0;
    if (this.maxKind === 1) {
      // Lines come in time order: usually only the last few bytes differ, and only those are copied.
      while (i < 24 && buf[at + i] === max[i]) i += 1;
      if (i === 24 || (buf[at + i] as number) < (max[i] as number)) return;
    }
    for (; i < 24; i += 1) max[i] = buf[at + i] as number;
    this.maxKind = 1;
  }
}

/** The string `s` against the 24 ASCII bytes at `buf[at]`, as JavaScript compares strings (by UTF-16 unit). */
function compareToBytes(s: string, buf: Buffer, at = 0): number {
  const n = Math.min(s.length, 24);
  for (let i = 0; i < n; i += 1) {
    const d = s.charCodeAt(i) - (buf[at + i] as number);
    if (d !== 0) return d;
  }
  return s.length - 24;
}

/** `SessionSummary.maxBytes` before it is needed. */
const NO_BYTES = Buffer.alloc(0);

function canonicalIso(ts: string): string | null {
  const t = Date.parse(ts);
  return Number.isNaN(t) ? null : new Date(t).toISOString();
}

/**
 * The session of `file` before any line is read: its id, path and project directory come from
 * the path (as Claude Code names them), everything else is empty. Also what the scan cache fills
 * in again from its compact rows.
 */
export function blankSession(file: string, size: number, mtimeMs: number): ScannedSession {
  return {
    sessionId: fileStem(file),
    jsonlPath: file,
    projectDir: parentName(file),
    cwd: null,
    title: null,
    firstPrompt: null,
    messageCount: 0,
    lastMessagePreview: '',
    lastUserPreview: '',
    lastAssistantPreview: '',
    createdAt: null,
    lastActive: null,
    model: null,
    size,
    mtimeMs,
    health: 'ok',
    problem: null,
  };
}

/** The session of a file that cannot be read (`problem`: an errno code). */
export function corruptedSession(file: string, size: number, mtimeMs: number, problem: string): ScannedSession {
  const s = blankSession(file, size, mtimeMs);
  s.health = 'corrupted';
  s.problem = problem;
  if (mtimeMs > 0) s.lastActive = s.createdAt = new Date(mtimeMs).toISOString();
  return s;
}
