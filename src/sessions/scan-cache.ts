import { writeFileAtomic } from '../store/atomic-write.js';
import { readJsonFile } from '../store/read-json-file.js';
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
 */
export interface ScanCache {
  scannerVersion: number;
  maxFileSize: number;
  entries: Record<string, ScanCacheEntry>;
}

/** An empty cache for these settings. */
export function emptyScanCache(maxFileSize: number): ScanCache {
  return { scannerVersion: SCANNER_VERSION, maxFileSize, entries: {} };
}

/** Reads the cache; anything unusable gives an empty one. */
export async function readScanCache(file: string, maxFileSize: number): Promise<ScanCache> {
  try {
    const r = await readJsonFile<ScanCache>(file);
    if (!r.exists) return emptyScanCache(maxFileSize);
    const c = r.value;
    if (typeof c !== 'object' || c === null || c.scannerVersion !== SCANNER_VERSION || c.maxFileSize !== maxFileSize || typeof c.entries !== 'object' || c.entries === null) {
      return emptyScanCache(maxFileSize);
    }
    return c;
  } catch {
    return emptyScanCache(maxFileSize);
  }
}

/**
 * Writes the cache atomically (0600), without fsyncs: a cache lost or torn by a power cut is read
 * as empty (see `readScanCache`) and only costs one full rescan.
 */
export async function writeScanCache(file: string, cache: ScanCache): Promise<void> {
  await writeFileAtomic(file, JSON.stringify(cache), { durable: false });
}
