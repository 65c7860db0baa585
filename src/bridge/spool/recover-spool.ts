import type { Logger } from '../../core/logger.js';
import type { Deliveries } from './deliveries.js';
import { finalStateOf } from './spool-record.js';
import type { Spool } from './spool.js';

export interface SpoolRecovery {
  /** processing → pending (to be run or delivered again). */
  requeued: number;
  /** processing/replied whose delivery was already `sent` → done/failed without running again. */
  finalized: number;
  broken: string[];
}

/**
 * The spool half of the startup reconciler (see docs/design.md#recovery). Runs under the owner
 * lock before the dispatcher starts; a message the user already got an answer to is never answered
 * or run again:
 * - `replied/` → `done/` (or `failed/` for an error reply, `cancelled/` for a stopped one): the user
 *   already has the answer;
 * - `processing/` whose delivery record says `sent` → finalized the same way, even though the
 *   final move never happened: Claude is not run again and nothing is sent again;
 * - any other `processing/` → `pending/`; its persisted outcome (if any) means delivery resumes at
 *   the first unsent chunk without running Claude again. A record whose run had begun (`run`)
 *   counts the restart (`run.restarts`), so its card can say it was resumed after one.
 * `pending/` is left as it is: a record there that was never routed is routed once by the
 * dispatcher after the start, in arrival order. `cancelled/` is final and never read here; a
 * record the owner stopped before the crash (`stop`, no outcome) goes back to `pending/` like any
 * other, and its re-run only shows "Stopped" on its card and ends it in `cancelled/` — the agent
 * is never run for it again.
 */
export async function recoverSpool(spool: Spool, deliveries: Deliveries, logger: Logger): Promise<SpoolRecovery> {
  const result: SpoolRecovery = { requeued: 0, finalized: 0, broken: [] };
  await spool.removeTempFiles();
  const replied = await spool.list('replied');
  result.broken.push(...replied.broken);
  for (const r of replied.records) {
    await spool.move(r.message.id, 'replied', finalStateOf(r));
    result.finalized += 1;
  }
  const processing = await spool.list('processing');
  result.broken.push(...processing.broken);
  for (const r of processing.records) {
    if (await deliveries.isFullySent(r.message.id)) {
      await spool.move(r.message.id, 'processing', finalStateOf(r));
      result.finalized += 1;
    } else {
      if (r.run && r.outcome === undefined) {
        r.run.restarts = (r.run.restarts ?? 0) + 1;
        await spool.write('processing', r);
      }
      await spool.move(r.message.id, 'processing', 'pending');
      result.requeued += 1;
    }
  }
  for (const file of result.broken) logger.error('spool file is unreadable and was left in place', { file });
  return result;
}
