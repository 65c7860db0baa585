import { EventEmitter } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { watchDirs, type DirWatch, type WatchRoot } from './watch-dirs.js';

/** Polls `check` until it holds or `ms` passes (a deadline, not a timing assertion). */
async function until(check: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('condition not met before the deadline');
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('watchDirs', () => {
  let tmp: string;
  let root: WatchRoot;
  let watch: DirWatch | undefined;
  let changes = 0;
  let errors: unknown[] = [];
  const start = (mode: 'auto' | 'poll') =>
    (watch = watchDirs([root], {
      onChange: () => (changes += 1),
      onError: (err) => errors.push(err),
      mode,
      pollMs: 50,
    }));

  beforeEach(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cc-watch-'));
    root = { dir: path.join(tmp, 'projects'), recursive: true, pollDepth: 2 };
    fs.mkdirSync(root.dir);
    changes = 0;
    errors = [];
  });
  afterEach(() => {
    watch?.close();
    vi.restoreAllMocks();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  for (const mode of ['auto', 'poll'] as const) {
    it(`${mode}: sees a file in a new project folder, then an append to it`, async () => {
      start(mode);
      expect(watch?.modes()[root.dir]).toBe(mode === 'auto' ? 'watch' : 'poll');
      // Let the poll learn the tree first (its first pass reports nothing).
      await new Promise((r) => setTimeout(r, 150));
      const dir = path.join(root.dir, '-home-u-demo');
      fs.mkdirSync(dir);
      fs.writeFileSync(path.join(dir, 'a.jsonl'), '{}\n');
      await until(() => changes > 0);
      await new Promise((r) => setTimeout(r, 150));
      const before = changes;
      fs.appendFileSync(path.join(dir, 'a.jsonl'), '{"more":1}\n');
      await until(() => changes > before);
      expect(errors).toEqual([]);
    });
  }

  it('poll: says nothing while nothing changes', async () => {
    fs.mkdirSync(path.join(root.dir, 'p'));
    fs.writeFileSync(path.join(root.dir, 'p', 'a.jsonl'), '{}\n');
    start('poll');
    await new Promise((r) => setTimeout(r, 400));
    expect(changes).toBe(0);
  });

  it('a folder fs.watch cannot watch (ENOSPC) is polled instead, and the error reported', async () => {
    vi.spyOn(fs, 'watch').mockImplementation(() => {
      throw Object.assign(new Error('ENOSPC: System limit for number of file watchers reached'), { code: 'ENOSPC' });
    });
    start('auto');
    expect(watch?.modes()[root.dir]).toBe('poll');
    expect(errors).toHaveLength(1);
    await new Promise((r) => setTimeout(r, 150));
    fs.writeFileSync(path.join(root.dir, 'b.jsonl'), '{}\n');
    await until(() => changes > 0);
  });

  it('a watcher that fails while running never throws: it is closed, reported and replaced by the poll', async () => {
    const fake = Object.assign(new EventEmitter(), { close: vi.fn() });
    vi.spyOn(fs, 'watch').mockImplementation(() => fake as unknown as fs.FSWatcher);
    start('auto');
    expect(watch?.modes()[root.dir]).toBe('watch');
    fake.emit('error', Object.assign(new Error('watch failed'), { code: 'EIO' }));
    expect(fake.close).toHaveBeenCalled();
    expect(errors).toHaveLength(1);
    expect(watch?.modes()[root.dir]).toBe('poll');
    await new Promise((r) => setTimeout(r, 150));
    fs.writeFileSync(path.join(root.dir, 'c.jsonl'), '{}\n');
    await until(() => changes > 0);
  });

  it('a missing folder is polled until it appears; a root with pollDepth 0 is then not watched', async () => {
    const other: WatchRoot = { dir: path.join(tmp, 'nope'), recursive: true, pollDepth: 0 };
    root = { ...root, dir: path.join(tmp, 'later') };
    watch = watchDirs([root, other], {
      onChange: () => (changes += 1),
      onError: (err) => errors.push(err),
      pollMs: 50,
    });
    expect(watch.modes()).toEqual({ [root.dir]: 'poll', [other.dir]: 'none' });
    expect(errors).toEqual([]);
    await new Promise((r) => setTimeout(r, 150));
    fs.mkdirSync(path.join(root.dir, 'p'), { recursive: true });
    fs.writeFileSync(path.join(root.dir, 'p', 'x.jsonl'), '{}\n');
    await until(() => changes > 0);
  });
});
