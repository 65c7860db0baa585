import fs from 'node:fs';
import path from 'node:path';
import { emptyScanCache, readScanCache, readScanCacheStamps, writeScanCache, type ScanCache } from './scan-cache.js';
import { scanJsonlFile, type ScanJsonlResult } from './scan-jsonl.js';
import type { ScannedSession } from './scanned-session.js';
import type { ScanWarning } from './scan-warning.js';
import { sessionIdOfFile } from './session-id.js';

/** Progress of a scan, for the `init` progress bar. Byte totals are the sizes of files to read. */
export interface ScanProgress {
  filesDone: number;
  filesTotal: number;
  bytesDone: number;
  bytesTotal: number;
}

/** Options of `scanClaudeProjects`. */
export interface ScanProjectsOptions {
  /** `<claude dir>/projects`. A missing directory means no sessions (Claude never ran). */
  projectsDir: string;
  /** `scanner.max_file_size`. */
  maxFileSize: number;
  /** `paths.scanCacheFile`; omit to scan without a cache. */
  cacheFile?: string;
  /** `scanner.incremental`: reuse cached summaries of unchanged files (default true). */
  incremental?: boolean;
  /** More session files to scan wherever they are (e.g. `transcript_path` of hook events). */
  extraFiles?: string[];
  /** Called before the first file and after each; the object is the scan's own, updated in place (read it during the call). */
  onProgress?: (p: Readonly<ScanProgress>) => void;
  signal?: AbortSignal;
}

/**
 * What a scan saw: the sessions, and what it could not judge — the registry merge must keep the
 * entries of files that exist but were not summarised, and of directories it could not list,
 * exactly as they were instead of calling those sessions gone.
 */
export interface ProjectsScan {
  sessions: ScannedSession[];
  /** Session ids whose files exist but were skipped (too large). */
  unscannedIds: string[];
  /** Project directories that could not be listed. */
  unlistedDirs: string[];
  warnings: ScanWarning[];
  /** `notSessionIds`: files skipped because their name is not a session id (read or cached). */
  stats: { files: number; read: number; cached: number; bytesRead: number; notSessionIds: number };
  /** False when every session file was unchanged since the cached scan (none added, changed or removed). */
  changed: boolean;
  /**
   * The scan cache's write, started but not awaited, so its file I/O overlaps the caller's next
   * steps (the registry merge and write); await it before reporting the scan done. Rejects with
   * the write's `StoreError`.
   */
  cacheWritten: Promise<void>;
}

interface Candidate {
  file: string;
  size: number;
  mtimeMs: number;
}

/**
 * Walks `<projectsDir>/*\/*.jsonl` (plus `extraFiles`) and summarises every session file, reading
 * only the files whose size or mtime changed since the cached scan. Files named `agent-*.jsonl`
 * are sub-agent transcripts of older CLIs, not sessions, and are ignored; any other file whose name
 * is not a session id is skipped with a warning (and cached as skipped, never as a session). When
 * the same session id appears in two directories, the most recently modified file wins (with a
 * warning).
 *
 * @example
 *   const scan = await scanClaudeProjects({ projectsDir: paths.claudeProjectsDir, cacheFile: paths.scanCacheFile, maxFileSize });
 */
export async function scanClaudeProjects(opts: ScanProjectsOptions): Promise<ProjectsScan> {
  const cache =
    opts.cacheFile && opts.incremental !== false
      ? readScanCache(opts.cacheFile, opts.maxFileSize)
      : emptyScanCache(opts.maxFileSize);
  // Files are stat'ed up front only when that decides something before reading (which files the
  // cache covers; the byte total of a progress bar). Otherwise each file is fstat'ed once open:
  // no second path lookup, and no Stats object per file kept alive through the whole scan.
  const statFirst = opts.onProgress !== undefined || Object.keys(cache.entries).length > 0;
  const {
    files,
    stats: listed,
    warnings,
    unlistedDirs,
  } = statSessionFiles(opts.projectsDir, opts.extraFiles, statFirst);
  const next: ScanCache = emptyScanCache(opts.maxFileSize);
  const results = new Map<string, ScanJsonlResult>();
  const fromCache = new Set<string>();
  const toRead: Candidate[] = [];
  let cached = 0;

  const stats = new Map<string, fs.Stats>();
  for (const file of files) {
    const st = listed.get(file);
    if (!st) {
      toRead.push({ file, size: 0, mtimeMs: 0 }); // not stat'ed, or could not be: scanJsonlFile says why (broken link, EACCES…)
      continue;
    }
    const hit = cache.entries[file];
    // An older scanner made a session of any `*.jsonl`: a cached session of a file whose name is
    // not a session id is judged again, never served.
    const usable = hit !== undefined && (hit.result.session === null || sessionIdOfFile(file) !== null);
    if (hit && usable && hit.size === st.size && hit.mtimeMs === st.mtimeMs) {
      results.set(file, hit.result);
      fromCache.add(file);
      next.entries[file] = hit;
      cached += 1;
      continue;
    }
    stats.set(file, st);
    toRead.push({ file, size: st.size, mtimeMs: st.mtimeMs });
  }

  const progress: ScanProgress = {
    filesDone: 0,
    filesTotal: toRead.length,
    bytesDone: 0,
    bytesTotal: toRead.reduce((n, c) => n + (c.size <= opts.maxFileSize ? c.size : 0), 0),
  };
  const onProgress = opts.onProgress;
  onProgress?.(progress);
  let bytesRead = 0;
  let dirty = Object.keys(cache.entries).some((k) => !results.has(k));
  let lastYield = Date.now(); // not performance.now(): its first use loads perf_hooks (~2 ms)
  for (const c of toRead) {
    if (opts.signal?.aborted) break;
    const result = scanJsonlFile(c.file, {
      maxFileSize: opts.maxFileSize,
      signal: opts.signal,
      stat: stats.get(c.file),
      sessionIdsOnly: true,
    });
    results.set(c.file, result);
    if (result.session || result.skipped === 'too_large' || result.skipped === 'not_a_session_id') {
      const st = result.session ?? (statFirst ? c : statQuietly(c.file)); // a skipped file was not read: its size and mtime
      const size = st?.size ?? c.size;
      const mtimeMs = st?.mtimeMs ?? c.mtimeMs;
      // Unreadable files are not cached: fixing permissions does not change their mtime.
      if (result.session?.health !== 'corrupted' || result.session.problem === 'not JSONL') {
        next.entries[c.file] = { size, mtimeMs, result };
        dirty = true;
      }
    }
    const read = c.size <= opts.maxFileSize ? c.size : 0;
    bytesRead += read;
    progress.filesDone += 1;
    progress.bytesDone += read;
    onProgress?.(progress);
    // Reads are synchronous (see scanJsonlFile): let timers and sockets run every ~20 ms.
    if (Date.now() - lastYield > 20) {
      await new Promise((resolve) => setImmediate(resolve));
      lastYield = Date.now();
    }
  }

  const byId = new Map<string, ScannedSession>();
  const unscannedIds: string[] = [];
  let notSessionIds = 0;
  for (const file of files) {
    const r = results.get(file);
    if (!r) continue;
    if (r.skipped === 'not_a_session_id') notSessionIds += 1;
    if (r.warnings.length > 0 && !fromCache.has(file)) warnings.push(...r.warnings); // an unchanged file's warnings were shown when it was read
    const tooLargeId = r.skipped === 'too_large' ? sessionIdOfFile(file) : null;
    if (tooLargeId) unscannedIds.push(tooLargeId);
    const s = r.session;
    if (!s) continue;
    const prev = byId.get(s.sessionId);
    if (prev) {
      const [keep, drop] = s.mtimeMs > prev.mtimeMs ? [s, prev] : [prev, s];
      warnings.push({ code: 'duplicate_session', file: keep.jsonlPath, detail: drop.jsonlPath });
      byId.set(s.sessionId, keep);
    } else byId.set(s.sessionId, s);
  }

  const cacheWritten = opts.cacheFile && dirty ? writeScanCache(opts.cacheFile, next) : Promise.resolve();
  cacheWritten.catch(() => undefined); // handled by whoever awaits it; never an unhandled rejection
  return {
    sessions: [...byId.values()],
    unscannedIds,
    unlistedDirs,
    warnings,
    stats: { files: files.length, read: toRead.length, cached, bytesRead, notSessionIds },
    changed: dirty || unlistedDirs.length > 0,
    cacheWritten,
  };
}

/**
 * The scan's statistics when no session file was added, removed or changed since the cached scan
 * (every file listed has the cached size and mtime, every cached file is still listed); null
 * otherwise, or when that cannot be told cheaply (no cache, a directory or a file that cannot be
 * read, a session id in two directories): the caller then runs `scanClaudeProjects`. Reads only the cache's header, not the
 * summaries — what makes an unchanged `sync` cheap.
 *
 * @example
 *   const same = unchangedSinceLastScan({ projectsDir, cacheFile, maxFileSize, extraFiles });
 */
export function unchangedSinceLastScan(opts: {
  projectsDir: string;
  cacheFile: string;
  maxFileSize: number;
  extraFiles?: string[];
}): ProjectsScan['stats'] | null {
  const stamps = readScanCacheStamps(opts.cacheFile, opts.maxFileSize);
  if (!stamps) return null;
  const { files, stats, unlistedDirs } = statSessionFiles(opts.projectsDir, opts.extraFiles);
  if (unlistedDirs.length > 0 || files.length !== stamps.files.length) return null;
  const sorted = [...files].sort();
  const ids = new Set<string>();
  for (let i = 0; i < sorted.length; i += 1) {
    const file = sorted[i] as string;
    const st = stats.get(file);
    if (!st || stamps.files[i] !== file || stamps.sizes[i] !== st.size || stamps.mtimes[i] !== st.mtimeMs) return null;
    ids.add(path.basename(file));
  }
  // A session id in two directories is warned about on every scan: leave that to the full scan.
  if (ids.size !== sorted.length) return null;
  const notSessionIds = sorted.filter((file) => sessionIdOfFile(file) === null && stats.get(file)?.isFile()).length;
  return { files: files.length, read: 0, cached: files.length, bytesRead: 0, notSessionIds };
}

/**
 * The `*.jsonl` files under `<projectsDir>/*\/` that the scan skips because their name is not a
 * session id (`agent-*.jsonl` sub-agent transcripts aside; like the scan, only regular files, a
 * symlink followed), for `doctor` to count. Lists and stats, never reads.
 */
export function filesNotNamedBySessionId(projectsDir: string): string[] {
  return listSessionFiles(projectsDir, [], []).filter(
    (file) => sessionIdOfFile(file) === null && statQuietly(file)?.isFile() === true,
  );
}

/** The session files (`listSessionFiles` plus `extraFiles`) and, with `stat`, the stats of those that could be stat'ed. */
function statSessionFiles(
  projectsDir: string,
  extraFiles: readonly string[] = [],
  stat = true,
): { files: string[]; stats: Map<string, fs.Stats>; warnings: ScanWarning[]; unlistedDirs: string[] } {
  const warnings: ScanWarning[] = [];
  const unlistedDirs: string[] = [];
  const files = listSessionFiles(projectsDir, warnings, unlistedDirs);
  for (const extra of extraFiles) if (!files.includes(extra)) files.push(extra);
  const stats = new Map<string, fs.Stats>();
  if (!stat) return { files, stats, warnings, unlistedDirs };
  for (const file of files) {
    try {
      stats.set(file, fs.statSync(file));
    } catch {
      // not stat'ed: the scan reads it to say why
    }
  }
  return { files, stats, warnings, unlistedDirs };
}

/**
 * `<projectsDir>/<dir>/<name>.jsonl` paths, sorted for a stable order. Listed synchronously: a few
 * dozen directory reads cost far less than a thread-pool round trip each.
 */
function listSessionFiles(projectsDir: string, warnings: ScanWarning[], unlistedDirs: string[]): string[] {
  let dirs: fs.Dirent[];
  try {
    dirs = fs.readdirSync(projectsDir, { withFileTypes: true });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT' && code !== 'ENOTDIR') {
      warnings.push({ code: 'unreadable_dir', file: projectsDir, detail: code ?? 'EIO' });
      unlistedDirs.push(projectsDir);
    }
    return [];
  }
  const out: string[] = [];
  for (const d of dirs) {
    if (!d.isDirectory() && !d.isSymbolicLink()) continue;
    const dir = path.join(projectsDir, d.name);
    let names: string[];
    try {
      names = fs.readdirSync(dir);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ENOTDIR' || code === 'ENOENT') continue;
      warnings.push({ code: 'unreadable_dir', file: dir, detail: code ?? 'EIO' });
      unlistedDirs.push(dir);
      continue;
    }
    // `dir` is already normal and a name has no separator: no path.join (2,000 normalisations) needed.
    const prefix = dir + path.sep;
    for (const name of names) if (name.endsWith('.jsonl') && !name.startsWith('agent-')) out.push(prefix + name);
  }
  return out.sort();
}

function statQuietly(file: string): fs.Stats | undefined {
  try {
    return fs.statSync(file);
  } catch {
    return undefined;
  }
}
