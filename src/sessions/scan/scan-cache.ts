import fs from 'node:fs';
import { writeFileAtomic } from '../../store/atomic-write.js';
import type { ScanJsonlResult } from './scan-jsonl.js';
import { blankSession, type ScannedSession } from './scanned-session.js';

/**
 * Bump when the scanner's output changes meaning (new field, different counting), so every cache
 * written by an older scanner is ignored instead of serving stale summaries.
 * 2: every line is read as JSON (a file in another spelling was "0 messages"; an over-long line
 * is no longer judged from its ends).
 */
export const SCANNER_VERSION = 2;

/** One file's last scan, valid while the file keeps this size and mtime. */
export interface ScanCacheEntry {
  size: number;
  mtimeMs: number;
  result: ScanJsonlResult;
}

/**
 * `scan-cache.json`: per session file, its size + mtime and what the scanner made of it. It is a
 * pure speed-up — losing it only costs one full rescan — so a missing, corrupt or outdated cache
 * is silently treated as empty. `maxFileSize` is part of the key: changing
 * `scanner.max_file_size` must re-judge files that were skipped as too large.
 *
 * On disk it is two JSON lines, written in one atomic write: a header with the settings and every
 * file's size and mtime, then the summaries as compact rows in the header's order (`Row`). An
 * unchanged `sync` reads the header alone (`readScanCacheStamps`) and never parses the rows.
 * Warnings are not kept: they are shown when a file is read, not for a file served from here.
 */
export interface ScanCache {
  scannerVersion: number;
  maxFileSize: number;
  entries: Record<string, ScanCacheEntry>;
}

/**
 * The first line of the file: the settings, and the cached files (sorted) with their sizes and
 * mtimes as three parallel arrays — a handful of objects to parse and collect however many
 * sessions there are.
 */
interface CacheHeader {
  format: typeof CACHE_FORMAT;
  scannerVersion: number;
  maxFileSize: number;
  files: string[];
  sizes: number[];
  mtimes: number[];
}

/** Sizes and mtimes of the cached files, from the header (`files` sorted). */
export interface CacheStamps {
  files: readonly string[];
  sizes: readonly number[];
  mtimes: readonly number[];
}

/**
 * The on-disk layout (the two lines); a file in any other layout reads as an empty cache.
 * 3: rows instead of the summaries as objects keyed by path (half the bytes to write on `init`).
 */
const CACHE_FORMAT = 3;

/**
 * The fields of a scanned session a cache row keeps, in row order, each with the check a value read
 * back must pass. One table serves writing and reading, so the two cannot drift apart.
 */
const ROW_FIELDS = [
  ['cwd', isText],
  ['title', isText],
  ['firstPrompt', isText],
  ['messageCount', (v: unknown) => typeof v === 'number'],
  ['lastMessagePreview', (v: unknown) => typeof v === 'string'],
  ['lastUserPreview', (v: unknown) => typeof v === 'string'],
  ['lastAssistantPreview', (v: unknown) => typeof v === 'string'],
  ['createdAt', isText],
  ['lastActive', isText],
  ['model', isText],
  ['health', (v: unknown) => v === 'ok' || v === 'corrupted'],
  ['problem', isText],
] as const satisfies ReadonlyArray<readonly [keyof ScannedSession, (v: unknown) => boolean]>;

/**
 * One cached file on the second line: a session's fields in this order — what the path, size
 * and mtime (in the header) do not already say — or why the file was skipped.
 */
type Row = unknown[] | NonNullable<ScanJsonlResult['skipped']>;

/** An empty cache for these settings. */
export function emptyScanCache(maxFileSize: number): ScanCache {
  return { scannerVersion: SCANNER_VERSION, maxFileSize, entries: {} };
}

/** Reads the cache; anything unusable gives an empty one. */
export function readScanCache(file: string, maxFileSize: number): ScanCache {
  const text = readText(file);
  const nl = text?.indexOf('\n') ?? -1;
  const header = text && nl > 0 ? parseHeader(text.slice(0, nl), maxFileSize) : null;
  if (!text || !header) return emptyScanCache(maxFileSize);
  try {
    const rows = JSON.parse(text.slice(nl + 1)) as unknown;
    if (!Array.isArray(rows) || rows.length !== header.files.length) return emptyScanCache(maxFileSize);
    const cache = emptyScanCache(maxFileSize);
    for (let i = 0; i < rows.length; i += 1) {
      const file = header.files[i] as string;
      const size = header.sizes[i] as number;
      const mtimeMs = header.mtimes[i] as number;
      const result = fromRow(file, size, mtimeMs, rows[i]);
      if (result) cache.entries[file] = { size, mtimeMs, result }; // a row it cannot read: that file is scanned again
    }
    return cache;
  } catch {
    return emptyScanCache(maxFileSize);
  }
}

/**
 * Only the files, sizes and mtimes of the cache, from its header line; null when there is no
 * usable cache for these settings. Never throws.
 */
export function readScanCacheStamps(file: string, maxFileSize: number): CacheStamps | null {
  let bytes: Buffer;
  try {
    bytes = fs.readFileSync(file);
  } catch {
    return null;
  }
  const nl = bytes.indexOf(0x0a);
  return nl > 0 ? parseHeader(bytes.toString('utf8', 0, nl), maxFileSize) : null;
}

/**
 * Writes the cache atomically (0600), without fsyncs: a cache lost or torn by a power cut is read
 * as empty (see `readScanCache`) and only costs one full rescan.
 */
export async function writeScanCache(file: string, cache: ScanCache): Promise<void> {
  const files = Object.keys(cache.entries).sort();
  const header: CacheHeader = {
    format: CACHE_FORMAT,
    scannerVersion: cache.scannerVersion,
    maxFileSize: cache.maxFileSize,
    files,
    sizes: [],
    mtimes: [],
  };
  const rows: (Row | null)[] = [];
  for (const f of files) {
    const e = cache.entries[f] as ScanCacheEntry;
    header.sizes.push(e.size);
    header.mtimes.push(e.mtimeMs);
    rows.push(toRow(e.result));
  }
  // JSON.stringify escapes every newline inside strings: the first newline ends the header.
  await writeFileAtomic(file, `${JSON.stringify(header)}\n${JSON.stringify(rows)}\n`, { durable: false });
}

function toRow({ session: s, skipped }: ScanJsonlResult): Row | null {
  if (s) return ROW_FIELDS.map(([key]) => s[key]);
  return skipped;
}

/** The result a row stands for, or null when it is not a row this version writes. */
function fromRow(file: string, size: number, mtimeMs: number, row: unknown): ScanJsonlResult | null {
  if (row === 'too_large' || row === 'not_a_file' || row === 'missing' || row === 'not_a_session_id')
    return { session: null, skipped: row, warnings: [] };
  if (!Array.isArray(row) || row.length !== ROW_FIELDS.length) return null;
  if (!ROW_FIELDS.every(([, valid], i) => valid(row[i]))) return null;
  const session = blankSession(file, size, mtimeMs);
  Object.assign(session, Object.fromEntries(ROW_FIELDS.map(([key], i) => [key, row[i]])));
  return { session, skipped: null, warnings: [] };
}

/** A string or null (the nullable text fields of a session). */
function isText(v: unknown): v is string | null {
  return v === null || typeof v === 'string';
}

function readText(file: string): string | null {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}

function parseHeader(line: string, maxFileSize: number): CacheHeader | null {
  try {
    const h = JSON.parse(line) as Partial<CacheHeader> | null;
    if (
      typeof h !== 'object' ||
      h === null ||
      h.format !== CACHE_FORMAT ||
      h.scannerVersion !== SCANNER_VERSION ||
      h.maxFileSize !== maxFileSize
    )
      return null;
    const { files, sizes, mtimes } = h;
    if (
      !Array.isArray(files) ||
      !Array.isArray(sizes) ||
      !Array.isArray(mtimes) ||
      sizes.length !== files.length ||
      mtimes.length !== files.length
    )
      return null;
    for (let i = 0; i < files.length; i += 1)
      if (typeof files[i] !== 'string' || typeof sizes[i] !== 'number' || typeof mtimes[i] !== 'number') return null;
    return h as CacheHeader;
  } catch {
    return null;
  }
}
