/** Timer functions, injectable so tests can drive time (vitest fake timers patch the globals). */
export interface ThrottleTimers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
  now(): number;
}

const globalTimers: ThrottleTimers = {
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
  now: () => Date.now(),
};

/**
 * Turns a stream of "something changed" signals into flushes at most every `intervalMs`
 * (start to start), never two at once, always ending with a flush after the last signal. The
 * flush reads the LATEST state itself, so intermediate states are skipped, not queued: exactly
 * what a card that may be updated N times per second needs.
 *
 * @example
 *   const t = new CoalescingThrottle(() => pushCard(), 120);
 *   t.request(); t.request(); // one flush now, at most one more 120 ms later
 */
export class CoalescingThrottle {
  private pending = false;
  private running: Promise<void> | undefined;
  private timer: unknown;
  private lastStart = Number.NEGATIVE_INFINITY;
  private stopped = false;

  constructor(
    private readonly flush: () => Promise<void>,
    private intervalMs: number,
    private readonly timers: ThrottleTimers = globalTimers,
  ) {}

  /** Changes the spacing (e.g. slows down after a failure); applies to the next flush. */
  setInterval(ms: number): void {
    this.intervalMs = ms;
  }

  /** Asks for a flush; cheap to call on every state change. */
  request(): void {
    if (this.stopped) return;
    this.pending = true;
    this.kick();
  }

  /** No further flushes; resolves when the one in progress (if any) has settled. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.pending = false;
    if (this.timer !== undefined) {
      this.timers.clearTimeout(this.timer);
      this.timer = undefined;
    }
    await this.running;
  }

  private kick(): void {
    if (this.running || this.timer !== undefined || !this.pending || this.stopped) return;
    const wait = this.lastStart + this.intervalMs - this.timers.now();
    if (wait > 0) {
      this.timer = this.timers.setTimeout(() => {
        this.timer = undefined;
        this.kick();
      }, wait);
      return;
    }
    this.pending = false;
    this.lastStart = this.timers.now();
    this.running = this.flush()
      .catch(() => undefined)
      .finally(() => {
        this.running = undefined;
        this.kick();
      });
  }
}
