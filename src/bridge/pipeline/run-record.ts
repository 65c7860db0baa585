import type { PipelineDeps } from './pipeline-deps.js';
import { processMessage, ShutdownAbort } from './process-message.js';
import { retryWait } from './retry-wait.js';
import type { RoutedRecord } from '../spool/spool-record.js';

export interface RunDeps extends PipelineDeps {
  now(): Date;
  /** Wait before the first retry after a delivery failure (channel down); doubles per attempt. */
  retryBaseMs: number;
  maxAttempts: number;
  /** Registers the run so the owner can stop it (`TurnControl`); its signal aborts only this run. */
  control?: { begin(record: RoutedRecord): { signal: AbortSignal; end(): void } };
}

/**
 * The error boundary around running one routed record: `pending/ → processing/`, the run and its
 * delivery (`processMessage`), then `replied/ → done/` or `failed/`. A failure (a channel that is
 * down, a full disk) is retried with backoff up to `maxAttempts`, then the record moves to
 * `failed/` with the reason. A shutdown leaves it in `processing/` for the next start. A run the
 * owner stopped ends in `cancelled/` with its "Stopped" card.
 */
export async function runRecord(record: RoutedRecord, deps: RunDeps, signal: AbortSignal): Promise<void> {
  const id = record.message.id;
  const spool = deps.spool;
  try {
    await spool.move(id, 'pending', 'processing');
  } catch (err) {
    deps.logger.error('could not move message to processing', { err, messageId: id });
    return;
  }
  const turn = deps.control?.begin(record);
  try {
    await runMoved(record, deps, signal, turn?.signal);
  } finally {
    turn?.end();
  }
}

async function runMoved(record: RoutedRecord, deps: RunDeps, signal: AbortSignal, stop?: AbortSignal): Promise<void> {
  const id = record.message.id;
  const spool = deps.spool;
  for (;;) {
    try {
      const channel = deps.channel(record.message.channel);
      // Prepared once: a record whose run began was saved prepared, and its prompt must stay the same.
      if (channel.prepare && record.outcome === undefined && record.attempts === 0 && record.run === undefined) {
        record.message = await channel.prepare(record.message);
        // Saved at once: what was downloaded and transcribed is never fetched or transcribed again.
        await spool.write('processing', record);
      }
      const end = await processMessage(record, deps, signal, stop);
      if (end === 'failed') {
        record.failure = {
          code: record.outcome?.kind === 'error' ? record.outcome.code : 'FAILED',
          message: 'replied with an error',
          at: deps.now().toISOString(),
        };
        await spool.write('processing', record);
      }
      await spool.move(id, 'processing', 'replied');
      await spool.move(id, 'replied', end);
      return;
    } catch (err) {
      if (err instanceof ShutdownAbort || signal.aborted) return; // stays in processing/ for the restart
      record.attempts += 1;
      deps.logger.warn('message processing failed; will retry', { err, messageId: id, attempt: record.attempts });
      if (record.attempts >= deps.maxAttempts) {
        record.failure = {
          code: 'DELIVERY_FAILED',
          message: err instanceof Error ? err.message : String(err),
          at: deps.now().toISOString(),
        };
        await spool.write('processing', record).catch(() => undefined);
        await spool.move(id, 'processing', 'failed').catch(() => undefined);
        deps.logger.error('message failed permanently', { messageId: id });
        return;
      }
      await spool.write('processing', record).catch(() => undefined);
      await retryWait(deps.retryBaseMs, record.attempts, signal);
      if (signal.aborted) return;
    }
  }
}
