import type { Logger } from '../../core/logger.js';
import { isRouted, type RoutedRecord, type SpoolRecord } from '../spool/spool-record.js';

/** The serial key of a routed record: one run at a time per session and per user's new-session slot. */
export function serialKeyOf(record: RoutedRecord): string {
  const t = record.target;
  if (t.kind === 'session') return `session:${t.sessionId}`;
  if (t.kind === 'new') return record.sessionId ? `session:${record.sessionId}` : `new:${record.message.userId}`;
  return `user:${record.message.userId}`;
}

export interface DispatcherOptions {
  concurrency: number;
  /**
   * Routes one record: runs its command or claims its target, and persists the target in the
   * record before returning. Leaves `record.target` unset only when stopped by `signal`; must not
   * throw (the caller's error boundary).
   */
  route(record: SpoolRecord, signal: AbortSignal): Promise<void>;
  /** Runs one routed record; must not throw for message-level failures (the caller's error boundary). */
  run(record: RoutedRecord, signal: AbortSignal): Promise<void>;
  /**
   * Told once per record when a routed record has to wait because its serial key is running;
   * `position` = its place among the records waiting for that key (1 = next). Must not throw.
   */
  onWaiting?(record: RoutedRecord, position: number): void;
  logger: Logger;
}

interface Work {
  promise: Promise<void>;
  abort: AbortController;
}

/**
 * In-memory scheduler over the durable spool, in two stages:
 * - **routing**, one record at a time per user and strictly in arrival order, so a command that
 *   changes the user's target (`/switch`, `/new`, `/model`) acts after every earlier message of
 *   that user was routed and before any later one. Routing is short (a command or a mapping
 *   claim) and does not take a worker: a typed `/allow` must get through while every worker waits
 *   on a permission prompt;
 * - **running**, at most `concurrency` routed records at once; records with the same serial key
 *   run one after another in arrival order, records with different keys overtake each other.
 * The queue here is only a cache of `spool/pending`; a restart rebuilds it from disk.
 */
export class Dispatcher {
  /** Arrival order; a record stays here while it is routed and until it starts running. */
  private readonly queue: SpoolRecord[] = [];
  private readonly routingUsers = new Set<string>();
  private readonly routing = new Map<string, Work>();
  private readonly runningKeys = new Set<string>();
  private readonly running = new Map<string, Work>();
  private readonly toldWaiting = new Set<string>();
  private stopped = false;
  private idleWaiters: Array<() => void> = [];

  constructor(private readonly options: DispatcherOptions) {}

  /** Queued (not yet running) records, those being routed included. */
  get queued(): number {
    return this.queue.length;
  }

  get active(): number {
    return this.running.size;
  }

  /** Adds a record in arrival order; it is routed (when not yet) and run as soon as its turn comes. */
  enqueue(record: SpoolRecord): void {
    if (this.has(record.message.id)) return;
    this.queue.push(record);
    this.pump();
  }

  /** Records not running yet (being routed included), in arrival order. */
  waiting(): readonly SpoolRecord[] {
    return [...this.queue];
  }

  /**
   * Takes a record that waits (not being routed, not running) out of the queue, e.g. when its
   * owner cancelled it; null when it is not waiting. The caller decides its spool state.
   */
  remove(messageId: string): SpoolRecord | null {
    if (this.routing.has(messageId)) return null;
    const at = this.queue.findIndex((r) => r.message.id === messageId);
    if (at < 0) return null;
    const [record] = this.queue.splice(at, 1);
    this.toldWaiting.delete(messageId);
    this.pump();
    return record ?? null;
  }

  /** Whether a message is queued or running here. */
  has(messageId: string): boolean {
    return this.running.has(messageId) || this.queue.some((r) => r.message.id === messageId);
  }

  private pump(): void {
    if (this.stopped) return;
    const lanesSeen = new Set<string>();
    for (let i = 0; i < this.queue.length;) {
      const record = this.queue[i] as SpoolRecord;
      if (!isRouted(record)) {
        // Only a user's earliest unrouted record may be routed, and only one at a time.
        const user = record.message.userId;
        if (!lanesSeen.has(user) && !this.routingUsers.has(user)) this.startRoute(record);
        lanesSeen.add(user);
        i += 1;
        continue;
      }
      const key = serialKeyOf(record);
      if (this.routing.has(record.message.id)) {
        i += 1;
        continue;
      }
      if (this.runningKeys.has(key)) {
        this.tellWaiting(record, key, i);
        i += 1;
        continue;
      }
      if (this.running.size >= this.options.concurrency) {
        i += 1;
        continue;
      }
      this.queue.splice(i, 1);
      this.toldWaiting.delete(record.message.id);
      this.start(record, key);
    }
    if (this.running.size === 0 && this.queue.length === 0) this.notifyIdle();
  }

  private tellWaiting(record: RoutedRecord, key: string, at: number): void {
    const id = record.message.id;
    if (!this.options.onWaiting || this.toldWaiting.has(id)) return;
    this.toldWaiting.add(id);
    let position = 1;
    for (let j = 0; j < at; j += 1) {
      const before = this.queue[j] as SpoolRecord;
      if (isRouted(before) && serialKeyOf(before) === key) position += 1;
    }
    this.options.onWaiting(record, position);
  }

  private startRoute(record: SpoolRecord): void {
    const user = record.message.userId;
    const abort = new AbortController();
    this.routingUsers.add(user);
    const promise = this.options
      .route(record, abort.signal)
      .catch((err) =>
        this.options.logger.error('dispatcher: routing escaped its error boundary', {
          err,
          messageId: record.message.id,
        }),
      )
      .finally(() => {
        this.routingUsers.delete(user);
        this.routing.delete(record.message.id);
        if (!isRouted(record)) {
          // Given up (shutdown): the record stays in spool/pending and is routed at the next start.
          const at = this.queue.indexOf(record);
          if (at >= 0) this.queue.splice(at, 1);
        }
        this.pump();
      });
    this.routing.set(record.message.id, { promise, abort });
  }

  private start(record: RoutedRecord, key: string): void {
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

  /** Resolves when nothing is queued, being routed or running (tests, graceful shutdown). */
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
   * Stops starting new work and waits up to `graceMs` for running records (a routing step in
   * progress finishes; one waiting to retry stops at once). Records still running then are
   * aborted; whatever did not finish stays in `pending/` or `processing/` for the next start.
   */
  async stop(graceMs: number): Promise<{ unfinished: number }> {
    this.stopped = true;
    this.queue.length = 0;
    for (const r of this.routing.values()) r.abort.abort();
    const all = [...this.running.values(), ...this.routing.values()];
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
