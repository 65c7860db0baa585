import { describe, expect, it } from 'vitest';
import { silentLogger } from '../core/logger.js';
import { WarmBudget, WarmPool, type WarmProcess } from './warm-pool.js';

/** A stand-in agent process: records why it was disposed; `exit()` simulates a crash. */
class FakeProcess implements WarmProcess {
  disposedFor: string | undefined;
  private listeners: Array<() => void> = [];
  private exited = false;

  constructor(
    readonly key = 'k',
    readonly cwd = '/w',
    readonly pid: number | undefined = 42,
  ) {}

  get alive(): boolean {
    return !this.exited && this.disposedFor === undefined;
  }

  async dispose(reason: string): Promise<void> {
    this.disposedFor ??= reason;
  }

  onExit(listener: () => void): void {
    this.listeners.push(listener);
  }

  exit(): void {
    this.exited = true;
    for (const l of this.listeners) l();
  }
}

const pool = (o: Partial<ConstructorParameters<typeof WarmPool<FakeProcess>>[0]> = {}) =>
  new WarmPool<FakeProcess>({ idleMs: 60_000, max: 3, logger: silentLogger, ...o });

describe('WarmPool', () => {
  it('hands a kept process back once, for the same session and key', async () => {
    const p = pool();
    const proc = new FakeProcess();
    p.keep('s1', proc);
    expect(p.sessions()).toEqual(['s1']);
    expect(await p.take('s2', 'k')).toBeUndefined();
    expect(await p.take('s1', 'k')).toBe(proc);
    expect(await p.take('s1', 'k')).toBeUndefined(); // in use: out of the pool until kept again
    expect(proc.disposedFor).toBeUndefined();
  });

  it('disposes a kept process whose key differs (another model, other rules) and hands out nothing', async () => {
    const p = pool();
    const proc = new FakeProcess('model-a');
    p.keep('s1', proc);
    expect(await p.take('s1', 'model-b')).toBeUndefined();
    expect(proc.disposedFor).toBe('options changed');
    expect(p.sessions()).toEqual([]);
  });

  it('keeps at most `max`, ending the least recently used first', async () => {
    const p = pool({ max: 2 });
    const [a, b, c] = [new FakeProcess(), new FakeProcess(), new FakeProcess()];
    p.keep('a', a);
    p.keep('b', b);
    expect(await p.take('a', 'k')).toBe(a); // a used again: now the most recent
    p.keep('a', a);
    p.keep('c', c);
    expect(p.sessions()).toEqual(['a', 'c']);
    expect(b.disposedFor).toMatch(/least recently used/);
    expect(a.disposedFor).toBeUndefined();
  });

  it('ends a process unused for `idleMs`', async () => {
    const p = pool({ idleMs: 30 });
    const proc = new FakeProcess();
    p.keep('s1', proc);
    await new Promise((r) => setTimeout(r, 80));
    expect(proc.disposedFor).toBe('idle');
    expect(p.sessions()).toEqual([]);
  });

  it('forgets a process that exits by itself', async () => {
    const p = pool();
    const proc = new FakeProcess();
    p.keep('s1', proc);
    proc.exit();
    expect(p.sessions()).toEqual([]);
    expect(await p.take('s1', 'k')).toBeUndefined();
  });

  it('disposes a stale process (the check says why) and a failing check counts as stale', async () => {
    const stale = pool({ staleReason: async () => 'the session was continued elsewhere' });
    const proc = new FakeProcess();
    stale.keep('s1', proc);
    expect(await stale.take('s1', 'k')).toBeUndefined();
    expect(proc.disposedFor).toBe('the session was continued elsewhere');

    const broken = pool({
      staleReason: async () => {
        throw new Error('EACCES');
      },
    });
    const other = new FakeProcess();
    broken.keep('s1', other);
    expect(await broken.take('s1', 'k')).toBeUndefined();
    expect(other.disposedFor).toMatch(/check failed: EACCES/);
  });

  it('passes what `snapshot` recorded at keep time to the staleness check', async () => {
    let seen: unknown;
    const p = pool({
      snapshot: () => ({ size: 120 }),
      staleReason: async (_id, _proc, kept) => {
        seen = kept;
        return null;
      },
    });
    const proc = new FakeProcess();
    p.keep('s1', proc);
    expect(await p.take('s1', 'k')).toBe(proc);
    expect(seen).toEqual({ size: 120 });
  });

  it('keeps nothing when off (idleMs 0 or max 0) and disposes what it is given', () => {
    for (const off of [pool({ idleMs: 0 }), pool({ max: 0 })]) {
      const proc = new FakeProcess();
      expect(off.enabled).toBe(false);
      off.keep('s1', proc);
      expect(off.sessions()).toEqual([]);
      expect(proc.disposedFor).toBe('warm sessions off');
    }
  });

  it('a second process for a session already kept is disposed, not kept beside it', () => {
    const p = pool();
    const [first, second] = [new FakeProcess(), new FakeProcess()];
    p.keep('s1', first);
    p.keep('s1', second);
    expect(second.disposedFor).toBe('not kept');
    expect(first.disposedFor).toBeUndefined();
  });

  it('close() ends every kept process and keeps none afterwards', async () => {
    const p = pool();
    const [a, b] = [new FakeProcess(), new FakeProcess()];
    p.keep('a', a);
    p.keep('b', b);
    expect(p.pids()).toEqual([42, 42]);
    await p.close();
    expect([a.disposedFor, b.disposedFor]).toEqual(['shutting down', 'shutting down']);
    const late = new FakeProcess();
    p.keep('c', late);
    expect(late.disposedFor).toBe('warm sessions off');
  });

  it('release() ends one session’s process', async () => {
    const p = pool();
    const proc = new FakeProcess();
    p.keep('s1', proc);
    await p.release('s1', 'a terminal uses the session');
    expect(proc.disposedFor).toBe('a terminal uses the session');
    await p.release('nope', 'x'); // nothing kept: nothing happens
  });

  it('pools sharing a budget keep at most its max together, ending the least recently kept in any pool', async () => {
    const budget = new WarmBudget(2);
    const claude = pool({ budget });
    const codex = pool({ budget });
    const [a, b, c] = [new FakeProcess(), new FakeProcess(), new FakeProcess()];
    claude.keep('a', a);
    codex.keep('b', b);
    expect(budget.size).toBe(2);
    expect(await claude.take('a', 'k')).toBe(a); // taken for a turn: not counted
    expect(budget.size).toBe(1);
    claude.keep('a', a); // kept again: now the most recent
    codex.keep('c', c);
    expect(b.disposedFor).toMatch(/least recently used/);
    expect([claude.sessions(), codex.sessions()]).toEqual([['a'], ['c']]);
    await codex.close();
    expect(budget.size).toBe(1);
  });
});
