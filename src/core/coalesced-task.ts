/**
 * Runs one async job at a time and folds a burst of requests into as few runs as possible: a
 * request while idle starts a run; every request while a run is going shares one follow-up run,
 * started when the current one ends (the current run may have read the disk before what the request
 * is about happened, so it cannot answer it). Each caller gets the result of a run that started
 * after its request, or that run's error.
 *
 * @example
 *   const sync = new CoalescedTask(() => syncRegistry(opts));
 *   await Promise.all([sync.run(), sync.run(), sync.run()]); // at most two syncs
 */
export class CoalescedTask<T> {
  private current: Promise<T> | null = null;
  private next: Promise<T> | null = null;

  constructor(private readonly job: () => Promise<T>) {}

  /** True while a run is going. */
  get busy(): boolean {
    return this.current !== null;
  }

  /** A run that starts now, or the one follow-up queued behind the run going on. */
  run(): Promise<T> {
    if (this.next !== null) return this.next;
    if (this.current === null) return this.start();
    const after = this.current.then(
      () => undefined,
      () => undefined,
    );
    this.next = after.then(() => {
      this.next = null;
      return this.start();
    });
    return this.next;
  }

  private start(): Promise<T> {
    const p = (async () => this.job())();
    this.current = p;
    const done = () => {
      if (this.current === p) this.current = null;
    };
    p.then(done, done);
    return p;
  }
}
