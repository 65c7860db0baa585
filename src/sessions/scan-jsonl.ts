import fs from 'node:fs';
import path from 'node:path';
import { lineFacts, preview, type LineFacts } from './line-facts.js';
import { probeCwd, probeLine } from './probe-line.js';
import { fdSource, readJsonlLines, type LineView } from './read-jsonl-lines.js';
import type { ScanWarning } from './scan-warning.js';

/** Preview lengths of the design (§2.1.4), in characters. */
export const PREVIEW_CHARS = { message: 100, user: 80, assistant: 80, title: 100 } as const;

/**
 * What one session file says, as the registry needs it. Times are ISO strings from the lines'
 * `timestamp` fields (null when the file has none).
 */
export interface ScannedSession {
  /** The file name without `.jsonl`: the id `claude --resume` looks for. */
  sessionId: string;
  jsonlPath: string;
  /** The encoded directory under `projects/` (lossy: never decoded). */
  projectDir: string;
  /** The real working directory, from the lines' `cwd` (preferring one that encodes to `projectDir`). */
  cwd: string | null;
  /** From a title line (custom > ai > summary), else null. */
  title: string | null;
  /** The first human prompt (preview length), the fallback title. */
  firstPrompt: string | null;
  /** Human prompts + distinct assistant messages (by `message.id`), sidechains excluded. */
  messageCount: number;
  lastMessagePreview: string;
  lastUserPreview: string;
  lastAssistantPreview: string;
  createdAt: string | null;
  lastActive: string | null;
  /** `message.model` of the last assistant message. */
  model: string | null;
  size: number;
  mtimeMs: number;
  /** `corrupted` when the file cannot be read or holds no JSON line at all. */
  health: 'ok' | 'corrupted';
  /** Why it is corrupted (`EACCES`, `not JSONL`), for `last_error`. */
  problem: string | null;
}

/** Options of `scanJsonl`. */
export interface ScanJsonlOptions {
  /** Files larger than this are skipped with a `too_large` warning (`scanner.max_file_size`). */
  maxFileSize: number;
  /** Longest line read whole (default 8 MiB); longer lines are judged from their ends. */
  maxLineBytes?: number;
  /** A reusable read buffer (see `readJsonlLines`). */
  buffer?: Buffer;
  /** The file's stats when the caller already has them (saves a stat). */
  stat?: fs.Stats;
  signal?: AbortSignal;
}

/** The outcome for one file: a session, or a reason it was skipped; warnings either way. */
export interface ScanJsonlResult {
  session: ScannedSession | null;
  /** Why no session came out: not a regular file, too large, vanished. */
  skipped: 'not_a_file' | 'too_large' | 'missing' | null;
  warnings: ScanWarning[];
}

/** Assistant lines whose text may be needed for the preview: parsed text, or a place to re-read. */
type TextSource = { text: string } | { offset: number; length: number };
const TEXT_RING = 8;
const ID_RING = 64;

/**
 * Reads one session file in a single streaming pass (bounded memory, see `readJsonlLines`) and
 * summarises it. Never throws: unreadable files come back `corrupted`, odd files `skipped`, and
 * everything worth telling the user is a `ScanWarning`. Tolerates a partial last line, invalid
 * lines, unknown line types, empty files, broken symlinks and binary garbage.
 *
 * Message counting: the CLI writes one `assistant` line per content block, all sharing
 * `message.id`; an API message counts once (ids are remembered over the last 64 assistant
 * messages, which covers interleaved tool results).
 *
 * @example
 *   const { session, warnings } = await scanJsonl('/home/me/.claude/projects/-tmp-x/8c4b….jsonl', { maxFileSize: 100 << 20 });
 */
export async function scanJsonl(file: string, opts: ScanJsonlOptions): Promise<ScanJsonlResult> {
  const warnings: ScanWarning[] = [];
  let st: fs.Stats;
  try {
    st = opts.stat ?? fs.statSync(file);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? 'EIO';
    if (code === 'ENOENT') {
      const isLink = (() => {
        try {
          return fs.lstatSync(file).isSymbolicLink();
        } catch {
          return false;
        }
      })();
      if (isLink) warnings.push({ code: 'broken_link', file });
      return { session: null, skipped: 'missing', warnings };
    }
    warnings.push({ code: 'unreadable', file, detail: code });
    return { session: corruptedSession(file, 0, 0, code), skipped: null, warnings };
  }
  if (!st.isFile()) {
    warnings.push({ code: 'not_a_file', file });
    return { session: null, skipped: 'not_a_file', warnings };
  }
  if (st.size > opts.maxFileSize) {
    warnings.push({ code: 'too_large', file, detail: st.size });
    return { session: null, skipped: 'too_large', warnings };
  }
  // Reads are synchronous on purpose: for many small files they cost about what `wc -l` costs,
  // while thread-pool reads double it. The caller yields between files.
  let fd: number;
  try {
    fd = fs.openSync(file, 'r');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? 'EIO';
    warnings.push({ code: 'unreadable', file, detail: code });
    return { session: corruptedSession(file, st.size, st.mtimeMs, code), skipped: null, warnings };
  }
  try {
    return await summarise(fd, file, st, opts, warnings);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? (err instanceof Error ? err.message : 'EIO');
    warnings.push({ code: 'unreadable', file, detail: code });
    return { session: corruptedSession(file, st.size, st.mtimeMs, code), skipped: null, warnings };
  } finally {
    fs.closeSync(fd);
  }
}

async function summarise(fd: number, file: string, st: fs.Stats, opts: ScanJsonlOptions, warnings: ScanWarning[]): Promise<ScanJsonlResult> {
  const session = emptySession(file, st.size, st.mtimeMs);
  const encodedDir = session.projectDir;
  let firstCwd: string | null = null;
  let matchedCwd = false;
  let titleRank = 0;
  let valid = 0;
  let invalid = 0;
  let partialLast = false;
  let unreadableLong = 0;
  let seq = 0;
  let lastUserSeq = -1;
  let lastUserText = '';
  const recentIds: string[] = [];
  const textRing: { seq: number; source: TextSource }[] = [];

  // Times are kept as canonical ISO strings (`2026-05-05T10:30:00.000Z`), which order like the
  // instants they name; only other spellings go through Date.parse.
  const noteTime = (ts: string | null): void => {
    if (ts === null) return;
    const iso = ts.length === 24 && ts.charCodeAt(23) === 0x5a ? ts : canonicalIso(ts);
    if (iso === null) return;
    if (session.createdAt === null) session.createdAt = iso;
    if (session.lastActive === null || iso >= session.lastActive) session.lastActive = iso;
  };
  const noteCwd = (cwd: string | null): void => {
    if (cwd === null || matchedCwd) return;
    if (firstCwd === null) firstCwd = cwd;
    if (encodeProjectDir(cwd) === encodedDir) {
      matchedCwd = true;
      session.cwd = cwd;
    }
  };
  const noteAssistant = (messageId: string | null, model: string | null, source: TextSource | null): void => {
    seq += 1;
    if (model) session.model = model;
    if (messageId === null || !recentIds.includes(messageId)) {
      session.messageCount += 1;
      if (messageId !== null) {
        recentIds.push(messageId);
        if (recentIds.length > ID_RING) recentIds.shift();
      }
    }
    if (source) {
      textRing.push({ seq, source });
      if (textRing.length > TEXT_RING) textRing.shift();
    }
  };
  const onFacts = (f: LineFacts): void => {
    noteTime(f.timestamp);
    noteCwd(f.cwd);
    if (f.sidechain) return;
    if (f.kind === 'title' && f.title !== null && f.titleRank >= titleRank) {
      titleRank = f.titleRank;
      session.title = preview(f.title, PREVIEW_CHARS.title);
    } else if (f.kind === 'human') {
      seq += 1;
      session.messageCount += 1;
      lastUserSeq = seq;
      lastUserText = f.text;
      if (session.firstPrompt === null) session.firstPrompt = preview(f.text, PREVIEW_CHARS.title);
    } else if (f.kind === 'assistant') {
      noteAssistant(f.messageId, f.model, f.text.trim() ? { text: f.text } : null);
    }
  };

  const onLine = (l: LineView): void => {
    const p = probeLine(l.buf, l.start, l.end);
    if (p.kind === 'invalid') {
      if (l.last) partialLast = true;
      else invalid += 1;
      return;
    }
    if (p.kind === 'parse') {
      if (l.truncated) {
        unreadableLong += 1;
        valid += 1;
        return;
      }
      let value: unknown;
      try {
        value = JSON.parse(l.buf.toString('utf8', l.start, l.end));
      } catch {
        if (l.last) partialLast = true;
        else invalid += 1;
        return;
      }
      valid += 1;
      onFacts(lineFacts(value));
      return;
    }
    valid += 1;
    if (!matchedCwd) noteCwd(probeCwd(l.buf, l.start, l.end));
    noteTime(p.timestamp);
    if (p.kind === 'assistant' && !p.sidechain) noteAssistant(p.messageId, p.model, p.mayHaveText && !l.truncated ? { offset: l.offset, length: l.length } : null);
  };

  await readJsonlLines(fdSource(fd), onLine, { maxLineBytes: opts.maxLineBytes, signal: opts.signal, buffer: opts.buffer, size: st.size });

  if (!matchedCwd) session.cwd = firstCwd;
  const assistant = resolveLastAssistantText(fd, textRing);
  session.lastUserPreview = preview(lastUserText, PREVIEW_CHARS.user);
  session.lastAssistantPreview = assistant ? preview(assistant.text, PREVIEW_CHARS.assistant) : '';
  const lastText = assistant && assistant.seq > lastUserSeq ? assistant.text : lastUserText;
  session.lastMessagePreview = preview(lastText, PREVIEW_CHARS.message);
  if (session.lastActive === null) session.lastActive = new Date(st.mtimeMs).toISOString();
  if (session.createdAt === null) session.createdAt = new Date(st.birthtimeMs || st.mtimeMs).toISOString();

  if (valid === 0 && (invalid > 0 || partialLast)) {
    session.health = 'corrupted';
    session.problem = 'not JSONL';
    warnings.push({ code: 'not_jsonl', file });
  } else if (invalid > 0) warnings.push({ code: 'invalid_lines', file, detail: invalid });
  if (unreadableLong > 0) warnings.push({ code: 'long_lines', file, detail: unreadableLong });
  return { session, skipped: null, warnings };
}

/** The newest assistant text in the ring, re-reading probed lines from the file when needed. */
function resolveLastAssistantText(fd: number, ring: { seq: number; source: TextSource }[]): { seq: number; text: string } | null {
  for (let i = ring.length - 1; i >= 0; i -= 1) {
    const entry = ring[i];
    if (!entry) continue;
    const { source } = entry;
    let text = '';
    if ('text' in source) text = source.text;
    else {
      const buf = Buffer.allocUnsafe(source.length);
      const bytesRead = fs.readSync(fd, buf, 0, source.length, source.offset);
      try {
        text = lineFacts(JSON.parse(buf.toString('utf8', 0, bytesRead))).text;
      } catch {
        text = '';
      }
    }
    if (text.trim()) return { seq: entry.seq, text };
  }
  return null;
}

function canonicalIso(ts: string): string | null {
  const t = Date.parse(ts);
  return Number.isNaN(t) ? null : new Date(t).toISOString();
}

/**
 * How Claude Code names a project directory: every character of the absolute cwd that is not
 * `[A-Za-z0-9]` becomes `-`. Lossy (`/tmp/a-b` and `/tmp/a/b` collide), so only ever used to pick
 * among cwds seen in a file, never to recover one.
 */
export function encodeProjectDir(cwd: string): string {
  return cwd.replace(/[^A-Za-z0-9]/g, '-');
}

function emptySession(file: string, size: number, mtimeMs: number): ScannedSession {
  return {
    sessionId: path.basename(file, '.jsonl'),
    jsonlPath: file,
    projectDir: path.basename(path.dirname(file)),
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

function corruptedSession(file: string, size: number, mtimeMs: number, problem: string): ScannedSession {
  const s = emptySession(file, size, mtimeMs);
  s.health = 'corrupted';
  s.problem = problem;
  if (mtimeMs > 0) s.lastActive = s.createdAt = new Date(mtimeMs).toISOString();
  return s;
}
