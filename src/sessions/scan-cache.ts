import fs from 'node:fs';
import { writeFileAtomic } from '../store/atomic-write.js';
import type { ScanJsonlResult } from './scan-jsonl.js';

/**
 * Bump when the scanner's output changes meaning (new field, different counting), so every cache
 * written by an older scanner is ignored instead of serving stale summaries.
 */
export const SCANNER_VERSION = 1;

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
 * file's `[size, mtimeMs]`, then the summaries. An unchanged `sync` reads the header alone
 * (`readScanCacheStamps`) — about a sixth of the bytes — and never parses the summaries.
 */
export interface ScanCache {
  scannerVersion: number;
  maxFileSize: number;
  entries: Record<string, ScanCacheEntry>;
}

/** The first line of the file. */
interface CacheHeader {
  format: typeof CACHE_FORMAT;
  scannerVersion: number;
  maxFileSize: number;
  stamps: Record<string, [size: number, mtimeMs: number]>;
}

/** The on-disk layout (the two lines); a file in any other layout reads as an empty cache. */
const CACHE_FORMAT = 2;

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
    const results = JSON.parse(text.slice(nl + 1)) as Record<string, ScanJsonlResult> | null;
    if (typeof results !== 'object' || results === null) return emptyScanCache(maxFileSize);
    const cache = emptyScanCache(maxFileSize);
    for (const [f, [size, mtimeMs]] of Object.entries(header.stamps)) {
      const result = results[f];
      if (result) cache.entries[f] = { size, mtimeMs, result };
    }
    return cache;
  } catch {
    return emptyScanCache(maxFileSize);
  }
}

/**
 * Only the `[size, mtimeMs]` of every cached file, from the header line; null when there is no
 * usable cache for these settings. Never throws.
 */
export function readScanCacheStamps(file: string, maxFileSize: number): Map<string, [number, number]> | null {
  let bytes: Buffer;
  try {
    bytes = fs.readFileSync(file);
  } catch {
    return null;
  }
  const nl = bytes.indexOf(0x0a);
  const header = nl > 0 ? parseHeader(bytes.toString('utf8', 0, nl), maxFileSize) : null;
  return header ? new Map(Object.entries(header.stamps)) : null;
}

/**
 * Writes the cache atomically (0600), without fsyncs: a cache lost or torn by a power cut is read
 * as empty (see `readScanCache`) and only costs one full rescan.
 */
export async function writeScanCache(file: string, cache: ScanCache): Promise<void> {
  const header: CacheHeader = { format: CACHE_FORMAT, scannerVersion: cache.scannerVersion, maxFileSize: cache.maxFileSize, stamps: {} };
  const results: Record<string, ScanJsonlResult> = {};
  for (const [f, e] of Object.entries(cache.entries)) {
    header.stamps[f] = [e.size, e.mtimeMs];
    results[f] = e.result;
  }
  // JSON.stringify escapes every newline inside strings: the first newline ends the header.
  await writeFileAtomic(file, `${JSON.stringify(header)}\n${JSON.stringify(results)}\n`, { durable: false });
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
    if (typeof h !== 'object' || h === null || h.format !== CACHE_FORMAT || h.scannerVersion !== SCANNER_VERSION || h.maxFileSize !== maxFileSize) return null;
    if (typeof h.stamps !== 'object' || h.stamps === null) return null;
    for (const v of Object.values(h.stamps)) if (!Array.isArray(v) || v.length !== 2 || typeof v[0] !== 'number' || typeof v[1] !== 'number') return null;
    return h as CacheHeader;
  } catch {
    return null;
  }
}
