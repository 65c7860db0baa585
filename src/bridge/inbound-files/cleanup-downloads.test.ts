import { mkdir, mkdtemp, readdir, rm, symlink, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanupDownloads } from './cleanup-downloads.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'cc-linker-cleanup-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const now = Date.now();
const old = new Date(now - 25 * 3600 * 1000);

describe('cleanupDownloads', () => {
  it('deletes old files at the top (images) and keeps new ones', async () => {
    await writeFile(path.join(dir, 'old.png'), 'x');
    await writeFile(path.join(dir, 'new.png'), 'x');
    await utimes(path.join(dir, 'old.png'), old, old);

    expect(await cleanupDownloads(dir, 24, now)).toBe(1);
    expect(await readdir(dir)).toEqual(['new.png']);
    expect(await cleanupDownloads(path.join(dir, 'missing'), 24, now)).toBe(0);
  });

  it('empties old message folders and removes them, keeps a new folder and new files', async () => {
    const gone = path.join(dir, 'om_old');
    const mixed = path.join(dir, 'om_mixed');
    const fresh = path.join(dir, 'om_fresh');
    for (const d of [gone, mixed, fresh]) await mkdir(d);
    await writeFile(path.join(gone, 'a.pdf'), 'x');
    await writeFile(path.join(mixed, 'old.txt'), 'x');
    await writeFile(path.join(mixed, 'new.txt'), 'x');
    await utimes(path.join(gone, 'a.pdf'), old, old);
    await utimes(path.join(mixed, 'old.txt'), old, old);
    await utimes(gone, old, old);
    await utimes(mixed, old, old);

    expect(await cleanupDownloads(dir, 24, now)).toBe(2);
    expect((await readdir(dir)).sort()).toEqual(['om_fresh', 'om_mixed']);
    expect(await readdir(mixed)).toEqual(['new.txt']);
  });

  it('removes an old symlink itself and never what it points to', async () => {
    const outside = await mkdtemp(path.join(tmpdir(), 'cc-linker-outside-'));
    try {
      await writeFile(path.join(outside, 'keep.txt'), 'x');
      await utimes(path.join(outside, 'keep.txt'), old, old);
      await symlink(outside, path.join(dir, 'om_link'));
      expect(await cleanupDownloads(dir, 24, now)).toBe(0);
      expect(await readdir(outside)).toEqual(['keep.txt']);
    } finally {
      await rm(outside, { recursive: true, force: true });
    }
  });
});
