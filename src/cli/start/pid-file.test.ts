import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readLivePid, removePidFile, writePidFile } from './pid-file.js';

let dir: string;
let file: string;
beforeEach(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'ccl-pid-'));
  file = path.join(dir, 'cc-linker.pid');
});
afterEach(() => fs.rm(dir, { recursive: true, force: true }));

describe('pid file', () => {
  it('names this live process, and is removed only by it', async () => {
    await writePidFile(file);
    expect(await readLivePid(file)).toBe(process.pid);
    await removePidFile(file, process.pid + 1);
    expect(await readLivePid(file)).toBe(process.pid);
    await removePidFile(file);
    expect(await readLivePid(file)).toBeNull();
  });

  it('ignores a live pid whose start time differs (a reused pid is never signalled)', async () => {
    await fs.writeFile(file, `${process.pid} 12345\n`);
    expect(await readLivePid(file)).toBeNull();
  });

  it('ignores a dead pid and garbage', async () => {
    await fs.writeFile(file, '999999999 1\n');
    expect(await readLivePid(file)).toBeNull();
    await fs.writeFile(file, 'nonsense');
    expect(await readLivePid(file)).toBeNull();
  });
});
