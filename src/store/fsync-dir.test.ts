import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fsyncDir, fsyncDirSync } from './fsync-dir.js';

describe('fsyncDir', () => {
  let tmp: string;
  beforeEach(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cc-store-fsync-'));
  });
  afterEach(() => {
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('flushes an existing directory', async () => {
    await expect(fsyncDir(tmp)).resolves.toBeUndefined();
    expect(() => fsyncDirSync(tmp)).not.toThrow();
  });

  it('a missing directory is a real error, not silently skipped', async () => {
    const gone = path.join(tmp, 'gone');
    await expect(fsyncDir(gone)).rejects.toMatchObject({ code: 'ENOENT' });
    expect(() => fsyncDirSync(gone)).toThrow(expect.objectContaining({ code: 'ENOENT' }));
  });
});
