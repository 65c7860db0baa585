import type { Logger } from '../core/logger.js';

/**
 * An agent process kept alive between the turns of one session, so a follow-up is written to it
 * instead of starting the agent again. The agent's engine owns what runs inside; the pool only
 * decides how long it lives.
 */
export interface WarmProcess {
  /**
   * What it was started with that a turn cannot change (working directory, model, permission rules,
   * extra directories…): a request with another key gets a fresh process.
   */
  readonly key: string;
  /** The real working directory it runs in. */
  readonly cwd: string;
  /** False once the process has exited or was disposed. */
  readonly alive: boolean;
  /** The process (group) id, for memory figures; undefined before it started. */
  readonly pid: number | undefined;
  /** Ends its whole process group; resolves when it is gone. Safe to call twice. */
  dispose(reason: string): Promise<void>;
  /** Called once when the process ends by itself (crash, killed from outside). */
  onExit(listener: () => void): void;
}

/** Options of `WarmPool`. */
export interface WarmPoolOptions<P extends WarmProcess = WarmProcess> {
  /** How long an unused process is kept (`runtime.warm_idle_ms`); 0 = keep none. */
  idleMs: number;
  /** At most this many are kept (`runtime.max_warm`); the least recently used goes first; 0 = keep none. */
  max: number;
  /** A limit shared with other pools (every agent's engine counts against one `runtime.max_warm`); it replaces `max`'s count. */
  budget?: WarmBudget;
  logger: Logger;
  /**
   * Asked before a kept process is handed out: a reason it must not be used (someone else wrote to
   * the session since its last turn, a terminal is driving it), or null. A failure counts as stale.
   */
  staleReason?: (sessionId: string, process: P, keptAt: KeptState) => Promise<string | null>;
  /** What to remember when a process is put back (e.g. the transcript's size and mtime). */
  snapshot?: (sessionId: string, process: P) => KeptState;
}

/** Whatever `snapshot` recorded when a process was put back, handed to `staleReason`. */
export type KeptState = Readonly<Record<string, unknown>>;

interface Entry<P> {
  process: P;
  /** This entry's place in the shared budget. */
  token: object;
  timer: NodeJS.Timeout;
  kept: KeptState;
}

/**
 * The warm processes of one agent's engine, by session id: at most `max`, each for at most `idleMs`
 * after its last turn, least recently used evicted first. A process is in the pool only between
 * turns: `take` removes it (the caller runs one turn on it under the session's lock) and `keep` puts
 * it back. A process that exits by itself leaves the pool at once; a stale one is disposed on
 * `take` and the caller starts a fresh one — the same as a cold run. See docs/design.md#warm-sessions.
 *
 * @example
 *   const pool = new WarmPool({ idleMs: 600_000, max: 3, logger });
 *   const warm = await pool.take(sessionId, key);   // undefined → start one
 *   … run the turn …
 *   pool.keep(result.sessionId, proc);              // or proc.dispose() after a failure
 */
export class WarmPool<P extends WarmProcess = WarmProcess> {
  private readonly entries = new Map<string, Entry<P>>();
  private closed = false;

  constructor(private readonly options: WarmPoolOptions<P>) {}

  /** Whether processes are kept at all. */
  get enabled(): boolean {
    return !this.closed && this.options.idleMs > 0 && this.options.max > 0;
  }

  /** Sessions with a kept process, least recently used first. */
  sessions(): string[] {
    return [...this.entries.keys()];
  }

  /** The pids of the kept processes (for memory figures). */
  pids(): number[] {
    return [...this.entries.values()].flatMap((e) => (e.process.pid === undefined ? [] : [e.process.pid]));
  }

  /**
   * Hands out the session's kept process when its key matches and it is neither dead nor stale
   * (the entry leaves the pool either way); undefined → the caller starts a fresh one.
   */
  async take(sessionId: string, key: string): Promise<P | undefined> {
    const entry = this.entries.get(sessionId);
    if (!entry) return undefined;
    this.remove(sessionId);
    const { process } = entry;
    let reason: string | null = null;
    if (!process.alive) reason = 'exited';
    else if (process.key !== key) reason = 'options changed';
    else if (this.options.staleReason) {
      try {
        reason = await this.options.staleReason(sessionId, process, entry.kept);
      } catch (err) {
        reason = `staleness check failed: ${err instanceof Error ? err.message : String(err)}`;
      }
    }
    if (reason === null) return process;
    this.options.logger.info('warm process not reused', { sessionId, reason });
    await process.dispose(reason);
    return undefined;
  }

  /**
   * Keeps `process` for `sessionId` after a successful turn; disposes it when the pool keeps none,
   * when it is not alive, or when another process is already kept for the session. Evicts the least
   * recently used beyond `max` (or the shared budget).
   */
  keep(sessionId: string, process: P): void {
    if (!this.enabled || !process.alive || this.entries.has(sessionId)) {
      void process.dispose(this.enabled ? 'not kept' : 'warm sessions off');
      return;
    }
    const timer = setTimeout(() => void this.release(sessionId, 'idle'), this.options.idleMs);
    const token = {};
    timer.unref?.();
    const kept = this.options.snapshot?.(sessionId, process) ?? {};
    this.entries.set(sessionId, { process, timer, kept, token });
    process.onExit(() => {
      if (this.entries.get(sessionId)?.process === process) this.remove(sessionId);
    });
    const evict = (id: string): void => void this.release(id, 'evicted (least recently used)');
    if (this.options.budget) {
      this.options.budget.add(token, () => evict(sessionId));
      return;
    }
    while (this.entries.size > this.options.max) evict(this.entries.keys().next().value as string);
  }

  /** Ends the session's kept process, if any (a terminal took the session over, the session was removed…). */
  async release(sessionId: string, reason: string): Promise<void> {
    const entry = this.entries.get(sessionId);
    if (!entry) return;
    this.remove(sessionId);
    this.options.logger.info('warm process released', { sessionId, reason });
    await entry.process.dispose(reason);
  }

  /** Ends every kept process and keeps none from now on (shutdown, config reload). */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.sessions().map((id) => this.release(id, 'shutting down')));
  }

  private remove(sessionId: string): void {
    const entry = this.entries.get(sessionId);
    if (!entry) return;
    clearTimeout(entry.timer);
    this.entries.delete(sessionId);
    this.options.budget?.remove(entry.token);
  }
}

/**
 * One limit for several pools: every agent's engine keeps its own processes, but together at most
 * `max` (`runtime.max_warm`), the least recently kept ended first, whichever pool holds it.
 *
 * @example
 *   const budget = new WarmBudget(config.runtime.max_warm);
 *   new WarmPool({ idleMs, max, logger, budget }); // one per engine, the same budget
 */
export class WarmBudget {
  /** Kept processes in the order they were kept, each with how to end it. */
  private readonly kept = new Map<object, () => void>();

  constructor(readonly max: number) {}

  /** How many processes are counted now. */
  get size(): number {
    return this.kept.size;
  }

  /** Counts a kept process; ends the least recently kept ones beyond `max`. */
  add(token: object, evict: () => void): void {
    this.kept.set(token, evict);
    while (this.kept.size > this.max) {
      const [oldest, end] = this.kept.entries().next().value as [object, () => void];
      this.kept.delete(oldest);
      end();
    }
  }

  /** A process that is no longer kept (taken for a turn, released, exited). */
  remove(token: object): void {
    this.kept.delete(token);
  }
}
