import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { renameDurable } from './durable-rename.js';
import { StoreError } from './store-error.js';

let dir: string;
beforeEach(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'cc-linker-rename-'));
  await fs.mkdir(path.join(dir, 'a'));
  await fs.mkdir(path.join(dir, 'b'));
});
afterEach(() => fs.rm(dir, { recursive: true, force: true }));

describe('renameDurable', () => {
  it('moves a file between directories, leaving exactly one copy', async () => {
    await fs.writeFile(path.join(dir, 'a', 'm.json'), '{"x":1}');
    await renameDurable(path.join(dir, 'a', 'm.json'), path.join(dir, 'b', 'm.json'));
    expect(await fs.readdir(path.join(dir, 'a'))).toEqual([]);
    expect(await fs.readFile(path.join(dir, 'b', 'm.json'), 'utf8')).toBe('{"x":1}');
  });

  it('fails with a StoreError naming the target when the source is gone', async () => {
    const err = await renameDurable(path.join(dir, 'a', 'missing.json'), path.join(dir, 'b', 'x.json')).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(StoreError);
    expect((err as StoreError).code).toBe('STORE_IO');
    expect((err as StoreError).userMessage).toContain('x.json');
  });
});
