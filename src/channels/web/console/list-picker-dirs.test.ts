import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DirSafetyOptions } from '../../../bridge/commands/dir-safety.js';
import { listPickerDirs } from './list-picker-dirs.js';

describe('listPickerDirs', () => {
  let home: string;
  let policy: DirSafetyOptions;

  beforeAll(async () => {
    home = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'ccl-picker-')));
    for (const d of ['Git/alpha/src', 'Git/beta', 'Git/.hidden', 'Workspace', 'Downloads/x', 'outside'])
      await fs.mkdir(path.join(home, d), { recursive: true });
    await fs.writeFile(path.join(home, 'Git', 'file.txt'), 'x');
    await fs.symlink(path.join(home, 'outside'), path.join(home, 'Git', 'escape'));
    policy = {
      allowedRoots: ['~/Git', '~/Workspace', '~/Missing'],
      deniedRoots: ['~', '/', '~/Downloads'],
      home,
      lang: 'en',
    };
  });
  afterAll(() => fs.rm(home, { recursive: true, force: true }));

  it('starts from the allowed roots that exist', async () => {
    const r = await listPickerDirs(undefined, policy);
    expect(r.path).toBeNull();
    expect(r.entries.map((e) => e.shown)).toEqual(['~/Git', '~/Workspace']);
  });

  it('lists only visible subdirectories that pass the safety check (a symlink out is not offered)', async () => {
    const r = await listPickerDirs('~/Git', policy);
    expect(r.path).toBe(path.join(home, 'Git'));
    expect(r.entries.map((e) => e.name)).toEqual(['alpha', 'beta']);
    expect(r.parent).toBeNull(); // ~ is outside the allowed roots
    const sub = await listPickerDirs(path.join(home, 'Git', 'alpha'), policy);
    expect(sub.entries.map((e) => e.shown)).toEqual(['~/Git/alpha/src']);
    expect(sub.parent).toBe(path.join(home, 'Git'));
  });

  it('refuses a directory outside the roots with the safety message, listing nothing', async () => {
    for (const p of ['~/outside', '~/Downloads', '/', '~/Git/escape', '~/Git/../outside']) {
      const r = await listPickerDirs(p, policy);
      expect(r.entries, p).toEqual([]);
      expect(r.error, p).toMatch(/outside the allowed|not allowed|allowed/i);
    }
  });
});
