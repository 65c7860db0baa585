import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makePrivateDir, makePrivateDirSync, tightenPrivateDirSync } from './private-dir.js';

const modeOf = (p: string) => fs.statSync(p).mode & 0o777;

let tmp: string;
beforeEach(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cc-core-dir-'));
});
afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe('makePrivateDir', () => {
  it('creates every missing level 0700 under umask 022 and 0277, async and sync', async () => {
    for (const umask of [0o022, 0o277]) {
      const old = process.umask(umask);
      try {
        await makePrivateDir(path.join(tmp, `a${umask}`, 'b'));
        makePrivateDirSync(path.join(tmp, `s${umask}`, 'b'));
      } finally {
        process.umask(old);
      }
      for (const d of [`a${umask}`, `a${umask}/b`, `s${umask}`, `s${umask}/b`])
        expect(modeOf(path.join(tmp, d))).toBe(0o700);
    }
  });

  it('tightens an existing directory, unless told to leave an existing one as it is', async () => {
    const dir = path.join(tmp, 'loose');
    fs.mkdirSync(dir);
    fs.chmodSync(dir, 0o755);
    makePrivateDirSync(dir, { leaveExisting: true });
    await makePrivateDir(dir, { leaveExisting: true });
    expect(modeOf(dir)).toBe(0o755);
    await makePrivateDir(dir);
    expect(modeOf(dir)).toBe(0o700);
    fs.chmodSync(dir, 0o750);
    makePrivateDirSync(dir);
    expect(modeOf(dir)).toBe(0o700);
  });

  it('a file in the way is the file system error', async () => {
    const file = path.join(tmp, 'file');
    fs.writeFileSync(file, 'x');
    await expect(makePrivateDir(file)).rejects.toMatchObject({ code: expect.stringMatching(/^(EEXIST|ENOTDIR)$/) });
    expect(() => makePrivateDirSync(file)).toThrow(/EEXIST|ENOTDIR|not a directory/);
    expect(fs.readFileSync(file, 'utf8')).toBe('x');
  });
});

describe('tightenPrivateDirSync', () => {
  it('tightens a directory made by hand (0755) and creates nothing', () => {
    const dir = path.join(tmp, 'home');
    fs.mkdirSync(dir);
    fs.chmodSync(dir, 0o755);
    expect(tightenPrivateDirSync(dir)).toBe(true);
    expect(modeOf(dir)).toBe(0o700);
    expect(tightenPrivateDirSync(dir)).toBe(true);
    const missing = path.join(tmp, 'missing');
    expect(tightenPrivateDirSync(missing)).toBe(false);
    expect(fs.existsSync(missing)).toBe(false);
  });

  it('never throws: a file is left alone', () => {
    const file = path.join(tmp, 'file');
    fs.writeFileSync(file, 'x', { mode: 0o644 });
    fs.chmodSync(file, 0o644);
    expect(tightenPrivateDirSync(file)).toBe(false);
    expect(modeOf(file)).toBe(0o644);
  });
});
