import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readJsonFile } from './read-json-file.js';
import { StoreError } from './store-error.js';

describe('readJsonFile', () => {
  let tmp: string;
  beforeEach(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cc-store-json-'));
  });
  afterEach(() => {
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('a missing file is { exists: false }', async () => {
    expect(await readJsonFile(path.join(tmp, 'nope.json'))).toEqual({ exists: false });
  });

  it('parses JSON (also with a BOM)', async () => {
    const file = path.join(tmp, 'ok.json');
    fs.writeFileSync(file, '\ufeff{"sessions":{"a":{"title":"修复"}}}');
    expect(await readJsonFile(file)).toEqual({ exists: true, value: { sessions: { a: { title: '修复' } } } });
  });

  it('a half-written file is STORE_CORRUPT with a one-line message naming the file and no content', async () => {
    const file = path.join(tmp, 'registry.json');
    fs.writeFileSync(file, '{"version":4,"sessions":{"8c4b":{"title":"secret-token-abc","cwd":"/ho');
    const err = await readJsonFile(file).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(StoreError);
    const e = err as StoreError;
    expect(e.code).toBe('STORE_CORRUPT');
    expect(e.userMessage).toContain(file);
    expect(e.userMessage).not.toMatch(/\n/);
    expect(e.userMessage).not.toContain('secret-token-abc');
    expect(e.localize('en')).toBe(`The file ${file} is corrupt and cannot be parsed (truncated JSON)`);
  });

  it('garbage in the middle and an empty file are corrupt too', async () => {
    const bad = path.join(tmp, 'bad.json');
    fs.writeFileSync(bad, '{"a": 1 "b": 2}');
    await expect(readJsonFile(bad)).rejects.toMatchObject({
      code: 'STORE_CORRUPT',
      params: { reason: expect.stringMatching(/^invalid JSON/) },
    });
    const empty = path.join(tmp, 'empty.json');
    fs.writeFileSync(empty, '  \n');
    await expect(readJsonFile(empty)).rejects.toMatchObject({
      code: 'STORE_CORRUPT',
      params: { reason: 'empty file' },
    });
  });

  it('a directory where the file should be is STORE_IO', async () => {
    const dir = path.join(tmp, 'x.json');
    fs.mkdirSync(dir);
    await expect(readJsonFile(dir)).rejects.toMatchObject({
      code: 'STORE_IO',
      params: { op: 'read', file: dir, reason: 'EISDIR' },
    });
  });
});
