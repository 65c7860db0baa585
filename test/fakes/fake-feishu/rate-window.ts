/**
 * A sliding one-window rate limit per key (a message id, a card id): at most `limit` accepted
 * operations in any `windowMs`. Only accepted operations count, like a server-side token check.
 * The clock is injectable so tests can freeze time instead of racing the wall clock.
 */
export class RateWindow {
  private readonly hits = new Map<string, number[]>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly clock: () => number,
  ) {}

  /** Records an operation on `key` and returns true, or returns false when the window is full. */
  tryTake(key: string): boolean {
    const now = this.clock();
    const recent = (this.hits.get(key) ?? []).filter((t) => now - t < this.windowMs);
    if (recent.length >= this.limit) {
      this.hits.set(key, recent);
      return false;
    }
    recent.push(now);
    this.hits.set(key, recent);
    return true;
  }
}
