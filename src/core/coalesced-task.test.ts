import { describe, expect, it } from 'vitest';
import { CoalescedTask } from './coalesced-task.js';

/** A job whose runs are counted and released by hand. */
function gatedJob() {
  const releases: Array<() => void> = [];
  let runs = 0;
  let running = 0;
  let overlap = false;
  const job = async () => {
    runs += 1;
    running += 1;
    if (running > 1) overlap = true;
    const n = runs;
    await new Promise<void>((r) => releases.push(r));
    running -= 1;
    return n;
  };
  return {
    job,
    runs: () => runs,
    overlap: () => overlap,
    release: async () => {
      while (releases.length === 0) await new Promise((r) => setImmediate(r));
      releases.shift()?.();
    },
  };
}

describe('CoalescedTask', () => {
  it('folds a burst during a run into one follow-up run, never two at once', async () => {
    const g = gatedJob();
    const task = new CoalescedTask(g.job);
    const first = task.run();
    const burst = [task.run(), task.run(), task.run()];
    expect(task.busy).toBe(true);
    await g.release();
    expect(await first).toBe(1);
    await g.release();
    expect(await Promise.all(burst)).toEqual([2, 2, 2]);
    expect(g.runs()).toBe(2);
    expect(g.overlap()).toBe(false);
    expect(task.busy).toBe(false);
  });

  it('a request after the runs ended starts a new run', async () => {
    const g = gatedJob();
    const task = new CoalescedTask(g.job);
    const a = task.run();
    await g.release();
    await a;
    const b = task.run();
    await g.release();
    expect(await b).toBe(2);
  });

  it('a failed run rejects its callers only; the follow-up still runs', async () => {
    let n = 0;
    let release: () => void = () => undefined;
    const task = new CoalescedTask(async () => {
      n += 1;
      if (n === 1) {
        await new Promise<void>((r) => (release = r));
        throw new Error('boom');
      }
      return n;
    });
    const first = task.run();
    const next = task.run();
    await new Promise((r) => setImmediate(r));
    release();
    await expect(first).rejects.toThrow('boom');
    expect(await next).toBe(2);
  });
});
