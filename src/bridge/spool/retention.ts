import fs from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '../../core/config-schema.js';

/** What `applyRetention` removed, per directory. */
export type RetentionReport = Record<string, number>;

async function prune(dir: string, maxAgeMs: number, maxFiles: number, now: number): Promise<number> {
  let names: string[];
  try {
    names = (await fs.readdir(dir)).filter((n) => n.endsWith('.json'));
  } catch {
    return 0;
  }
  const entries: Array<{ file: string; mtime: number }> = [];
  for (const name of names) {
    const file = path.join(dir, name);
    try {
      entries.push({ file, mtime: (await fs.stat(file)).mtimeMs });
    } catch {
      /* vanished meanwhile */
    }
  }
  entries.sort((a, b) => a.mtime - b.mtime);
  let removed = 0;
  const keep = entries.filter((e) => now - e.mtime <= maxAgeMs);
  const drop = entries.filter((e) => now - e.mtime > maxAgeMs);
  while (keep.length > maxFiles) drop.push(keep.shift() as { file: string; mtime: number });
  for (const e of drop) {
    await fs.rm(e.file, { force: true });
    removed += 1;
  }
  return removed;
}

/**
 * Spool retention: `done/` (and `cancelled/`, alike) 24 h and at most 1000 files, `failed/` 7 days and at
 * most 200, `receipts/` and `deliveries/` 7 days — time first, then oldest-first down to the cap.
 * Run at start and hourly. `pending/`, `processing/` and `replied/` are never touched.
 */
export async function applyRetention(
  spoolDir: string,
  queue: Config['queue'],
  now = Date.now(),
): Promise<RetentionReport> {
  const hour = 3_600_000;
  const day = 24 * hour;
  return {
    // `cancelled/` (stopped or cancelled messages) is kept like `done/` and counted with it.
    done:
      (await prune(path.join(spoolDir, 'done'), queue.done_retention_hours * hour, queue.done_max_files, now)) +
      (await prune(path.join(spoolDir, 'cancelled'), queue.done_retention_hours * hour, queue.done_max_files, now)),
    failed: await prune(path.join(spoolDir, 'failed'), queue.failed_retention_days * day, queue.failed_max_files, now),
    receipts: await prune(
      path.join(spoolDir, 'receipts'),
      queue.delivery_retention_days * day,
      Number.MAX_SAFE_INTEGER,
      now,
    ),
    deliveries: await prune(
      path.join(spoolDir, 'deliveries'),
      queue.delivery_retention_days * day,
      Number.MAX_SAFE_INTEGER,
      now,
    ),
  };
}
