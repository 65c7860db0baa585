import fs from 'node:fs';
import { DEFAULT_CHUNK, readJsonlLinesSync } from './read-jsonl-lines.js';
import { corruptedSession, type ScannedSession } from './scanned-session.js';
import type { ScanWarning } from './scan-warning.js';
import { sessionIdOfFile } from './session-id.js';
import { SessionSummary } from './session-summary.js';

/** Options of `scanJsonl`. */
export interface ScanJsonlOptions {
  /** Files larger than this are skipped with a `too_large` warning (`scanner.max_file_size`). */
  maxFileSize: number;
  /** Longest line read whole (default 8 MiB); a longer one is not read (counted, and reported as `long_lines`). */
  maxLineBytes?: number;
  /** A read buffer (see `readJsonlLines`); by default one shared by every synchronous scan (`scanReadBuffer`). */
  buffer?: Buffer;
  /** The file's stats when the caller already has them (saves a stat). */
  stat?: FileStat;
  /**
   * Skip (with a `not_a_session_id` warning, never reading it) a file whose name is not a session
   * id: what the tree scan asks, since there a file's name becomes a registry id. Callers that
   * scan the file of a session they already know leave it off.
   */
  sessionIdsOnly?: boolean;
  signal?: AbortSignal;
}

/** The parts of `fs.Stats` the scanner uses. */
export type FileStat = Pick<fs.Stats, 'size' | 'mtimeMs' | 'birthtimeMs' | 'isFile'>;

/** The outcome for one file: a session, or a reason it was skipped; warnings either way. */
export interface ScanJsonlResult {
  session: ScannedSession | null;
  /** Why no session came out: not a regular file, too large, vanished, or its name is not a session id. */
  skipped: 'not_a_file' | 'too_large' | 'missing' | 'not_a_session_id' | null;
  warnings: ScanWarning[];
}

/**
 * Reads one session file in a single streaming pass (bounded memory, see `readJsonlLines`) and
 * summarises it. Never throws: unreadable files come back `corrupted`, odd files `skipped`, and
 * everything worth telling the user is a `ScanWarning`. Tolerates a partial last line, invalid
 * lines, unknown line types, empty files, broken symlinks and binary garbage. A file whose name
 * is not a session id (`sessionIdOfFile`) is never read nor made a session: it is skipped with a
 * `not_a_session_id` warning. The summary itself is `SessionSummary`'s.
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
    return openFailed(file, opts, err, warnings);
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
    const skipped = notASession(file, opts, warnings);
    if (skipped) return skipped;
    const code = (err as NodeJS.ErrnoException).code ?? (err instanceof Error ? err.message : 'EIO');
    warnings.push({ code: 'unreadable', file, detail: code });
    return { session: corruptedSession(file, known?.size ?? 0, known?.mtimeMs ?? 0, code), skipped: null, warnings };
  } finally {
    fs.closeSync(fd);
  }
}

/** Why a file is not summarised at all (not a regular file, over `maxFileSize`, not named by a session id), or null. */
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
  return notASession(file, opts, warnings);
}

/** With `sessionIdsOnly`, the skip of a file whose name is not a session id; else null. */
function notASession(file: string, opts: ScanJsonlOptions, warnings: ScanWarning[]): ScanJsonlResult | null {
  if (!opts.sessionIdsOnly || sessionIdOfFile(file) !== null) return null;
  warnings.push({ code: 'not_a_session_id', file });
  return { session: null, skipped: 'not_a_session_id', warnings };
}

/** A file that could not be opened: gone (a broken link says so), or unreadable (`corrupted`). */
function openFailed(file: string, opts: ScanJsonlOptions, err: unknown, warnings: ScanWarning[]): ScanJsonlResult {
  const known = opts.stat;
  const code = (err as NodeJS.ErrnoException).code ?? 'EIO';
  if (code === 'EISDIR') return judge(file, false, 0, { maxFileSize: 0 }, warnings) as ScanJsonlResult; // Windows will not open a directory
  if (code === 'ENOENT') {
    if (isSymlink(file)) warnings.push({ code: 'broken_link', file });
    return { session: null, skipped: 'missing', warnings };
  }
  const skipped = notASession(file, opts, warnings);
  if (skipped) return skipped;
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
  const summary = new SessionSummary(file, st);
  readJsonlLinesSync(fd, summary, {
    maxLineBytes: opts.maxLineBytes,
    signal: opts.signal,
    buffer: opts.buffer ?? scanReadBuffer(),
    size: st.size,
  });
  return { ...summary.finish(warnings), skipped: null };
}

let sharedBuffer: Buffer | undefined;

/**
 * The read buffer of the synchronous scans (`scanJsonlFile`, `searchContent`): one per process,
 * made on first use. Borrow it only for a synchronous pass over one file (nothing else can run
 * in between).
 */
export function scanReadBuffer(): Buffer {
  return (sharedBuffer ??= Buffer.allocUnsafe(DEFAULT_CHUNK));
}
