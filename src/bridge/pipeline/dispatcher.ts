import type { Logger } from '../../core/logger.js';
import type { SpoolRecord } from '../spool/spool-record.js';

/** The serial key of a record: one run at a time per session and per user's new-session slot. */
export function serialKeyOf(record: SpoolRecord): string {
  const t = record.target;
  if (t.kind === 'session') return `session:${t.sessionId}`;
  if (t.kind === 'new') return record.sessionId ? `session:${record.sessionId}` : `new:${record.message.userId}`;
  return `user:${record.message.userId}`;
}

export interface DispatcherOptions {
  concurrency: number;
  /** Runs one record; must not throw for message-level failures (the caller's error boundary). */
  run(record: SpoolRecord, signal: AbortSignal): Promise<void>;
  logger: Logger;
}

/**
 * In-memory scheduler over the durable spool: at most `concurrency` records run at once, records
 * with the same serial key run one after another in arrival order, and records with different keys
 * overtake each other freely. The queue here is only a cache of `spool/pending`; a restart rebuilds
 * it from disk.
 */
export class Dispatcher {
  private readonly queue: SpoolRecord[] = [];
  private readonly runningKeys = new Set<string>();
  private readonly running = new Map<string, { promise: Promise<void>; abort: AbortController }>();
  private stopped = false;
  private idleWaiters: Array<() => void> = [];

  constructor(private readonly options: DispatcherOptions) {}

  /** Queued (not yet running) records. */
  get queued(): number {
    return this.queue.length;
  }

  get active(): number {
    return this.running.size;
  }

  /** Adds a record in arrival order and starts it when its key and a worker are free. */
  enqueue(record: SpoolRecord): void {
    if (this.queue.some((r) => r.message.id === record.message.id) || this.running.has(record.message.id)) return;
    this.queue.push(record);
    this.pump();
  }

  /** Whether a message is queued or running here. */
  has(messageId: string): boolean {
    return this.running.has(messageId) || this.queue.some((r) => r.message.id === messageId);
  }

  private pump(): void {
    if (this.stopped) return;
    for (let i = 0; i < this.queue.length && this.running.size < this.options.concurrency;) {
      const record = this.queue[i] as SpoolRecord;
      const key = serialKeyOf(record);
      if (this.runningKeys.has(key)) {
        i += 1;
        continue;
      }
      this.queue.splice(i, 1);
      this.start(record, key);
    }
    if (this.running.size === 0 && this.queue.length === 0) this.notifyIdle();
  }

  private start(record: SpoolRecord, key: string): void {
    const abort = new AbortController();
    this.runningKeys.add(key);
    const promise = this.options
      .run(record, abort.signal)
      .catch((err) =>
        this.options.logger.error('dispatcher: run escaped its error boundary', { err, messageId: record.message.id }),
      )
      .finally(() => {
        this.runningKeys.delete(key);
        this.running.delete(record.message.id);
        this.pump();
      });
    this.running.set(record.message.id, { promise, abort });
  }

  /** Resolves when nothing is queued or running (tests, graceful shutdown). */
  whenIdle(): Promise<void> {
    if (this.running.size === 0 && this.queue.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private notifyIdle(): void {
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const w of waiters) w();
  }

  /**
   * Stops starting new work and waits up to `graceMs` for running records. Records still running
   * then are aborted; whatever did not finish stays in `processing/` for the next start.
   */
  async stop(graceMs: number): Promise<{ unfinished: number }> {
    this.stopped = true;
    this.queue.length = 0;
    const all = [...this.running.values()];
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), graceMs);
    });
    const outcome = await Promise.race([Promise.all(all.map((r) => r.promise)).then(() => 'done' as const), timeout]);
    clearTimeout(timer);
    if (outcome === 'timeout') {
      for (const r of this.running.values()) r.abort.abort();
      await Promise.race([
        Promise.all([...this.running.values()].map((r) => r.promise)),
        new Promise((r) => setTimeout(r, 3000).unref()),
      ]);
    }
    return { unfinished: this.running.size };
  }
}
