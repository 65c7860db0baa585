import fs from 'node:fs';
import { readJsonlLinesSync } from './read-jsonl-lines.js';
import type { ScanWarning } from './scan-warning.js';
import { corruptedSession, SessionSummary } from './session-summary.js';
import { scanReadBuffer } from './wasm-line-probe.js';

export { encodeProjectDir } from './project-dir.js';

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
  /** A read buffer (see `readJsonlLines`); by default the shared one (see `scanReadBuffer`). */
  buffer?: Buffer;
  /** The file's stats when the caller already has them (saves a stat). */
  stat?: FileStat;
  signal?: AbortSignal;
}

/** The parts of `fs.Stats` the scanner uses. */
export type FileStat = Pick<fs.Stats, 'size' | 'mtimeMs' | 'birthtimeMs' | 'isFile'>;

/** The outcome for one file: a session, or a reason it was skipped; warnings either way. */
export interface ScanJsonlResult {
  session: ScannedSession | null;
  /** Why no session came out: not a regular file, too large, vanished. */
  skipped: 'not_a_file' | 'too_large' | 'missing' | null;
  warnings: ScanWarning[];
}

/**
 * Reads one session file in a single streaming pass (bounded memory, see `readJsonlLines`) and
 * summarises it. Never throws: unreadable files come back `corrupted`, odd files `skipped`, and
 * everything worth telling the user is a `ScanWarning`. Tolerates a partial last line, invalid
 * lines, unknown line types, empty files, broken symlinks and binary garbage. The summary itself
 * is `SessionSummary`'s.
 *
 * Reads are synchronous on purpose: for many small files they cost about what `wc -l` costs, while
 * thread-pool reads double it, and a promise per file is measurable over thousands of files. A
 * caller scanning many files yields between them (see `scanClaudeProjects`); `scanJsonl` is the
 * same for callers that await.
 *
 * @example
 *   const { session, warnings } = scanJsonlFile('/home/me/.claude/projects/-tmp-x/8c4b….jsonl', { maxFileSize: 100 << 20 });
 */
export function scanJsonlFile(file: string, opts: ScanJsonlOptions): ScanJsonlResult {
  const warnings: ScanWarning[] = [];
  const known = opts.stat;
  if (known) {
    // Judged from the caller's stats first: an odd or too large file is never opened.
    const skipped = judge(file, known.isFile(), known.size, opts, warnings);
    if (skipped) return skipped;
  }
  let fd: number;
  try {
    // Non-blocking: a FIFO named x.jsonl must not hang the scan (regular files read the same).
    fd = fs.openSync(file, fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0));
  } catch (err) {
    return openFailed(file, known, err, warnings);
  }
  try {
    let st: FileStat | fs.Stats | undefined = known;
    if (!st) {
      // One fstat of the open file instead of a stat by path beforehand: no second path lookup
      // (and no Stats object per file kept alive through a whole scan).
      const own = fs.fstatSync(fd);
      const skipped = judge(file, (own.mode & fs.constants.S_IFMT) === fs.constants.S_IFREG, own.size, opts, warnings);
      if (skipped) return skipped;
      st = own;
    }
    return summarise(fd, file, st, opts, warnings);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? (err instanceof Error ? err.message : 'EIO');
    warnings.push({ code: 'unreadable', file, detail: code });
    return { session: corruptedSession(file, known?.size ?? 0, known?.mtimeMs ?? 0, code), skipped: null, warnings };
  } finally {
    fs.closeSync(fd);
  }
}

/** Why a file is not summarised at all (not a regular file, over `maxFileSize`), or null. */
function judge(
  file: string,
  regular: boolean,
  size: number,
  opts: ScanJsonlOptions,
  warnings: ScanWarning[],
): ScanJsonlResult | null {
  if (!regular) {
    warnings.push({ code: 'not_a_file', file });
    return { session: null, skipped: 'not_a_file', warnings };
  }
  if (size > opts.maxFileSize) {
    warnings.push({ code: 'too_large', file, detail: size });
    return { session: null, skipped: 'too_large', warnings };
  }
  return null;
}

/** A file that could not be opened: gone (a broken link says so), or unreadable (`corrupted`). */
function openFailed(file: string, known: FileStat | undefined, err: unknown, warnings: ScanWarning[]): ScanJsonlResult {
  const code = (err as NodeJS.ErrnoException).code ?? 'EIO';
  if (code === 'EISDIR') return judge(file, false, 0, { maxFileSize: 0 }, warnings) as ScanJsonlResult; // Windows will not open a directory
  if (code === 'ENOENT') {
    if (isSymlink(file)) warnings.push({ code: 'broken_link', file });
    return { session: null, skipped: 'missing', warnings };
  }
  let st: { size: number; mtimeMs: number } | undefined = known;
  if (!st) {
    try {
      st = fs.statSync(file); // for the entry's size and time (EACCES still lets stat through)
    } catch {
      st = undefined;
    }
  }
  warnings.push({ code: 'unreadable', file, detail: code });
  return { session: corruptedSession(file, st?.size ?? 0, st?.mtimeMs ?? 0, code), skipped: null, warnings };
}

function isSymlink(file: string): boolean {
  try {
    return fs.lstatSync(file).isSymbolicLink();
  } catch {
    return false;
  }
}

/** `scanJsonlFile` for callers that await (one file now and then: `repair`, `clean`). */
export async function scanJsonl(file: string, opts: ScanJsonlOptions): Promise<ScanJsonlResult> {
  return scanJsonlFile(file, opts);
}

function summarise(
  fd: number,
  file: string,
  st: FileStat,
  opts: ScanJsonlOptions,
  warnings: ScanWarning[],
): ScanJsonlResult {
  // This pass is synchronous from the first read to the last line: the shared buffer is free.
  const buffer = opts.buffer ?? scanReadBuffer();
  const summary = new SessionSummary(file, st);
  const { tailOffset, tailLength } = readJsonlLinesSync(fd, summary, {
    maxLineBytes: opts.maxLineBytes,
    signal: opts.signal,
    buffer,
    size: st.size,
  });
  return summary.finish((offset, length) => {
    // The newest answer is usually still in the buffer (the whole file, when it fits): no read.
    if (offset >= tailOffset && offset + length <= tailOffset + tailLength)
      return buffer.subarray(offset - tailOffset, offset - tailOffset + length);
    const buf = Buffer.allocUnsafe(length);
    return buf.subarray(0, fs.readSync(fd, buf, 0, length, offset));
  }, warnings);
}
