import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CoalescingThrottle } from './coalescing-throttle.js';

beforeEach(() => {
  vi.useFakeTimers({ now: 0 });
});
afterEach(() => {
  vi.useRealTimers();
});

/** A flush that records when it started and takes `ms` to finish. */
function recorder(ms = 0): { starts: number[]; flush: () => Promise<void> } {
  const starts: number[] = [];
  return {
    starts,
    flush: async () => {
      starts.push(Date.now());
      if (ms > 0) await new Promise((r) => setTimeout(r, ms));
    },
  };
}

describe('CoalescingThrottle', () => {
  it('flushes the first request at once (first words without delay)', async () => {
    const r = recorder();
    const t = new CoalescingThrottle(r.flush, 120);
    t.request();
    await vi.advanceTimersByTimeAsync(0);
    expect(r.starts).toEqual([0]);
  });

  it('coalesces a burst into one flush per interval and always flushes after the last request', async () => {
    const r = recorder();
    const t = new CoalescingThrottle(r.flush, 120);
    for (let ms = 0; ms < 1_000; ms += 10) {
      t.request();
      await vi.advanceTimersByTimeAsync(10);
    }
    await vi.advanceTimersByTimeAsync(500);
    // Requests every 10 ms from 0 to 990: a flush every 120 ms, the last one after the last request.
    expect(r.starts).toEqual([0, 120, 240, 360, 480, 600, 720, 840, 960, 1_080]);
  });

  it('never runs two flushes at once, even when a flush outlasts the interval', async () => {
    let running = 0;
    let overlap = false;
    const t = new CoalescingThrottle(async () => {
      running += 1;
      if (running > 1) overlap = true;
      await new Promise((r) => setTimeout(r, 300));
      running -= 1;
    }, 100);
    for (let i = 0; i < 20; i += 1) {
      t.request();
      await vi.advanceTimersByTimeAsync(50);
    }
    await vi.advanceTimersByTimeAsync(1_000);
    expect(overlap).toBe(false);
  });

  it('slows down after setInterval and stops for good after stop()', async () => {
    const r = recorder();
    const t = new CoalescingThrottle(r.flush, 100);
    t.setInterval(1_000);
    t.request();
    await vi.advanceTimersByTimeAsync(0);
    t.request();
    await vi.advanceTimersByTimeAsync(999);
    expect(r.starts).toEqual([0]);
    await vi.advanceTimersByTimeAsync(1);
    expect(r.starts).toEqual([0, 1_000]);
    t.request();
    await t.stop();
    t.request();
    await vi.advanceTimersByTimeAsync(5_000);
    expect(r.starts).toEqual([0, 1_000]);
  });

  it('stop() waits for the flush in progress', async () => {
    const r = recorder(200);
    const t = new CoalescingThrottle(r.flush, 100);
    t.request();
    await vi.advanceTimersByTimeAsync(0);
    let stopped = false;
    const done = t.stop().then(() => (stopped = true));
    await vi.advanceTimersByTimeAsync(199);
    expect(stopped).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await done;
    expect(stopped).toBe(true);
  });

  it('keeps going after a failing flush', async () => {
    let calls = 0;
    const t = new CoalescingThrottle(async () => {
      calls += 1;
      if (calls === 1) throw new Error('boom');
    }, 50);
    t.request();
    await vi.advanceTimersByTimeAsync(0);
    t.request();
    await vi.advanceTimersByTimeAsync(50);
    expect(calls).toBe(2);
  });
});
