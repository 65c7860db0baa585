import type { Language } from '../core/i18n.js';
import { EngineError, shortSessionId } from './engine-error.js';

/** Gives a held lock or slot back; calling it twice is harmless. */
export type Release = () => void;

interface Waiter {
  grant(): void;
}

/**
 * A FIFO queue of waiters for one resource, with timeouts and abort. Shared by the per-session lock
 * and the global semaphore: `free` says whether one more holder fits.
 */
class WaitQueue {
  private readonly waiters: Waiter[] = [];

  get length(): number {
    return this.waiters.length;
  }

  /** Waits until `take()` succeeds; rejects with `onTimeout()` / `onAbort()`. */
  wait(
    take: () => boolean,
    opts: { timeoutMs?: number; signal?: AbortSignal; onTimeout: () => Error; onAbort: () => Error },
  ): Promise<void> {
    if (opts.signal?.aborted) return Promise.reject(opts.onAbort());
    return new Promise<void>((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined;
      const done = (): void => {
        clearTimeout(timer);
        opts.signal?.removeEventListener('abort', onAbort);
        const i = this.waiters.indexOf(waiter);
        if (i >= 0) this.waiters.splice(i, 1);
      };
      const waiter: Waiter = {
        grant: () => {
          if (!take()) return;
          done();
          resolve();
        },
      };
      const onAbort = (): void => {
        done();
        reject(opts.onAbort());
      };
      this.waiters.push(waiter);
      if (opts.timeoutMs !== undefined) {
        timer = setTimeout(() => {
          done();
          reject(opts.onTimeout());
        }, opts.timeoutMs);
      }
      opts.signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** Offers the resource to the oldest waiter. */
  wakeOne(): void {
    this.waiters[0]?.grant();
  }
}

/**
 * One run at a time per Claude Code session: two processes appending
 * to the same JSONL interleave and corrupt the conversation. Later messages for a busy session wait
 * in order, up to `runtime.session_lock_timeout_ms`, then fail with `SESSION_BUSY`.
 *
 * @example
 *   const release = await locks.acquire(sessionId, { timeoutMs: 600_000, signal });
 *   try { await run(); } finally { release(); }
 */
export class SessionLocks {
  private readonly held = new Set<string>();
  private readonly queues = new Map<string, WaitQueue>();

  /** Whether a run holds `sessionId` now. */
  isLocked(sessionId: string): boolean {
    return this.held.has(sessionId);
  }

  /** Takes the lock if it is free (a brand-new session id); null when it is held. */
  tryAcquire(sessionId: string): Release | null {
    if (this.held.has(sessionId)) return null;
    this.held.add(sessionId);
    return this.releaser(sessionId);
  }

  /**
   * Waits for the lock. Rejects with `EngineError` `SESSION_BUSY` after `timeoutMs`, or
   * `CANCELLED` when `signal` aborts first.
   */
  async acquire(
    sessionId: string,
    opts: { timeoutMs: number; signal?: AbortSignal; lang?: Language },
  ): Promise<Release> {
    const now = this.tryAcquire(sessionId);
    if (now) return now;
    let queue = this.queues.get(sessionId);
    if (!queue) {
      queue = new WaitQueue();
      this.queues.set(sessionId, queue);
    }
    const take = (): boolean => {
      if (this.held.has(sessionId)) return false;
      this.held.add(sessionId);
      return true;
    };
    try {
      await queue.wait(take, {
        timeoutMs: opts.timeoutMs,
        ...(opts.signal ? { signal: opts.signal } : {}),
        onTimeout: () =>
          new EngineError(
            'SESSION_BUSY',
            { session: shortSessionId(sessionId), timeoutMs: opts.timeoutMs },
            { lang: opts.lang },
          ),
        onAbort: () => new EngineError('CANCELLED', {}, { lang: opts.lang }),
      });
    } finally {
      if (queue.length === 0 && this.queues.get(sessionId) === queue && !this.held.has(sessionId))
        this.queues.delete(sessionId);
    }
    return this.releaser(sessionId);
  }

  private releaser(sessionId: string): Release {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.held.delete(sessionId);
      const queue = this.queues.get(sessionId);
      if (!queue) return;
      if (queue.length === 0) this.queues.delete(sessionId);
      else queue.wakeOne();
    };
  }
}

/**
 * At most `max` Claude Code runs at once across all sessions (`runtime.max_concurrent_sessions`):
 * each run is a ~200 MB process, so an unbounded number would exhaust the machine. Waiters are served in order; waiting ends only
 * by a free slot or the signal.
 *
 * @example
 *   const release = await slots.acquire(signal);
 */
export class Semaphore {
  private activeCount = 0;
  private readonly queue = new WaitQueue();

  constructor(private readonly max: number) {
    if (!Number.isInteger(max) || max < 1)
      throw new RangeError(`Semaphore: max must be a positive integer, got ${max}`);
  }

  /** Runs holding a slot now. */
  get active(): number {
    return this.activeCount;
  }

  /** Runs waiting for a slot. */
  get waiting(): number {
    return this.queue.length;
  }

  /** Waits for a slot; rejects with `EngineError` `CANCELLED` when `signal` aborts first. */
  async acquire(signal?: AbortSignal, lang?: Language): Promise<Release> {
    const take = (): boolean => {
      if (this.activeCount >= this.max) return false;
      this.activeCount += 1;
      return true;
    };
    if (this.queue.length > 0 || !take()) {
      await this.queue.wait(take, {
        ...(signal ? { signal } : {}),
        onTimeout: () => new Error('unreachable'),
        onAbort: () => new EngineError('CANCELLED', {}, { lang }),
      });
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.activeCount -= 1;
      this.queue.wakeOne();
    };
  }
}
