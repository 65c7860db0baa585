import { describe, expect, it } from 'vitest';
import { EngineError } from './engine-error.js';
import { Semaphore, SessionLocks } from './session-lock.js';

const tick = (ms = 5) => new Promise((r) => setTimeout(r, ms));

describe('SessionLocks', () => {
  it('serves waiters of one session in order; other sessions are independent', async () => {
    const locks = new SessionLocks();
    const order: string[] = [];
    const r1 = await locks.acquire('s', { timeoutMs: 1000 });
    const w2 = locks.acquire('s', { timeoutMs: 1000 }).then((r) => (order.push('2'), r));
    const w3 = locks.acquire('s', { timeoutMs: 1000 }).then((r) => (order.push('3'), r));
    const other = await locks.acquire('t', { timeoutMs: 10 });
    other();
    await tick();
    expect(order).toEqual([]);
    r1();
    (await w2)();
    (await w3)();
    expect(order).toEqual(['2', '3']);
    expect(locks.isLocked('s')).toBe(false);
  });

  it('times out with SESSION_BUSY and aborts with CANCELLED; the queue keeps working', async () => {
    const locks = new SessionLocks();
    const held = await locks.acquire('s', { timeoutMs: 1000 });
    await expect(locks.acquire('s', { timeoutMs: 20, lang: 'en' })).rejects.toMatchObject({ code: 'SESSION_BUSY' });
    const ac = new AbortController();
    const cancelled = locks.acquire('s', { timeoutMs: 1000, signal: ac.signal });
    ac.abort();
    await expect(cancelled).rejects.toBeInstanceOf(EngineError);
    const next = locks.acquire('s', { timeoutMs: 1000 });
    held();
    held(); // releasing twice is harmless
    (await next)();
    expect(locks.tryAcquire('s')).not.toBeNull();
  });
});

describe('Semaphore', () => {
  it('admits at most max holders, FIFO, and aborts waiters', async () => {
    const sem = new Semaphore(2);
    const a = await sem.acquire();
    const b = await sem.acquire();
    const order: string[] = [];
    const c = sem.acquire().then((r) => (order.push('c'), r));
    const ac = new AbortController();
    const d = sem.acquire(ac.signal);
    const e = sem.acquire().then((r) => (order.push('e'), r));
    expect(sem.active).toBe(2);
    expect(sem.waiting).toBe(3);
    ac.abort();
    await expect(d).rejects.toMatchObject({ code: 'CANCELLED' });
    a();
    (await c)();
    b();
    (await e)();
    expect(order).toEqual(['c', 'e']);
    expect(sem.active).toBe(0);
    expect(() => new Semaphore(0)).toThrow(RangeError);
  });
});
