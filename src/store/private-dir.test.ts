import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ensurePrivateDir, ensurePrivateDirSync } from './private-dir.js';
import { StoreError } from './store-error.js';

const modeOf = (p: string) => fs.statSync(p).mode & 0o777;

describe('ensurePrivateDir', () => {
  let tmp: string;
  beforeEach(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cc-store-dir-'));
  });
  afterEach(() => {
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('creates every missing level 0700, even under a umask that would strip owner bits', async () => {
    const old = process.umask(0o277);
    try {
      await ensurePrivateDir(path.join(tmp, 'a', 'b', 'c'));
    } finally {
      process.umask(old);
    }
    for (const d of ['a', 'a/b', 'a/b/c']) expect(modeOf(path.join(tmp, d))).toBe(0o700);
  });

  it('tightens an existing directory we own and leaves its parent alone', async () => {
    const dir = path.join(tmp, 'loose');
    fs.mkdirSync(dir, { mode: 0o755 });
    fs.chmodSync(dir, 0o755);
    fs.chmodSync(tmp, 0o755);
    await ensurePrivateDir(dir);
    expect(modeOf(dir)).toBe(0o700);
    expect(modeOf(tmp)).toBe(0o755);
  });

  it('sync variant behaves the same', () => {
    const dir = path.join(tmp, 'x', 'y');
    ensurePrivateDirSync(dir);
    expect(modeOf(path.join(tmp, 'x'))).toBe(0o700);
    expect(modeOf(dir)).toBe(0o700);
    fs.chmodSync(dir, 0o750);
    ensurePrivateDirSync(dir);
    expect(modeOf(dir)).toBe(0o700);
  });

  it('a file in the way is a STORE_IO error naming the path', async () => {
    const file = path.join(tmp, 'file');
    fs.writeFileSync(file, 'x');
    await expect(ensurePrivateDir(file)).rejects.toMatchObject({ code: 'STORE_IO', params: { file } });
    await expect(ensurePrivateDir(path.join(file, 'sub'))).rejects.toBeInstanceOf(StoreError);
    expect(() => ensurePrivateDirSync(file)).toThrow(StoreError);
  });
});
