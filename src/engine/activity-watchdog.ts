/**
 * The idle timeout of a Claude Code run (`runtime.stale_timeout_ms`): fires when the
 * run has shown no sign of life for `idleMs`.
 *
 * Why not just the runner's output-based idle timeout: in `json` mode Claude prints nothing until
 * the very end, and in `sdk` mode a run legitimately sits silent while the user decides on a
 * permission card. So "sign of life" is any output (`touch()`), OR a write to the session's
 * JSONL (`probe()` returns the newest mtime of the project's session files), and the clock stops
 * while a permission prompt is open (`pause()` / `resume()`, nestable).
 *
 * @example
 *   const dog = new ActivityWatchdog(300_000, () => stop('idle'), () => newestJsonlMtime(dir));
 *   onOutput(() => dog.touch()); … dog.stop();
 */
export class ActivityWatchdog {
  private last = Date.now();
  private paused = 0;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(
    private readonly idleMs: number,
    private readonly onIdle: () => void,
    private readonly probe?: () => number | null,
  ) {
    this.schedule(idleMs);
  }

  /** Something happened: restart the idle clock. */
  touch(): void {
    this.last = Date.now();
  }

  /** Stops the clock (a permission prompt is waiting for the user). */
  pause(): void {
    this.paused += 1;
  }

  /** Restarts the clock after `pause()`; the silence before the pause is forgiven. */
  resume(): void {
    if (this.paused === 0) return;
    this.paused -= 1;
    if (this.paused === 0) this.touch();
  }

  /** Ends the watchdog; `onIdle` will not be called afterwards. */
  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => this.check(), Math.max(1, ms));
    this.timer.unref?.();
  }

  private check(): void {
    if (this.stopped) return;
    if (this.paused > 0) {
      this.schedule(this.idleMs);
      return;
    }
    let last = this.last;
    if (this.probe) {
      try {
        const seen = this.probe();
        if (seen !== null && seen > last) last = seen;
      } catch {
        // a failing probe only means "no extra evidence"
      }
    }
    this.last = Math.max(this.last, last);
    const left = this.last + this.idleMs - Date.now();
    if (left > 0) {
      this.schedule(left);
      return;
    }
    this.stopped = true;
    this.onIdle();
  }
}
