import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { CliVersionDoc } from '../../ccexec/cli-version-cache.js';
import { cliVersionFile } from './cli-version-file.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

const DOC: CliVersionDoc = {
  format: 'cc-linker/cli-version-cache/1',
  entries: [
    {
      cli: ['chainlesschain'],
      files: [{ path: '/usr/bin/chainlesschain', ino: 1, size: 2, mtimeMs: 3, ctimeMs: 4 }],
      version: '0.165.7',
      probedAt: '2026-12-02T00:00:00.000Z',
    },
  ],
};

function tempFile(): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'cc-linker-version-file-'));
  dirs.push(root);
  return path.join(root, 'home', 'ccexec', 'cli-version.json');
}

describe('cliVersionFile', () => {
  it('writes 0600 inside a 0700 directory, whatever the umask, and reads it back', async () => {
    const file = tempFile();
    const old = process.umask(0o022);
    try {
      await cliVersionFile(file).save(DOC);
    } finally {
      process.umask(old);
    }
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.statSync(path.dirname(file)).mode & 0o777).toBe(0o700);
    expect(cliVersionFile(file).load()).toEqual(DOC);
  });

  it('reads a missing, corrupt, symlinked or group-writable file as nothing; a save replaces it', async () => {
    const file = tempFile();
    const store = cliVersionFile(file);
    expect(store.load()).toBeUndefined();
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    fs.writeFileSync(file, '{"spoilt', { mode: 0o600 });
    expect(store.load()).toBeUndefined();

    fs.writeFileSync(file, JSON.stringify(DOC));
    fs.chmodSync(file, 0o620);
    expect(store.load()).toBeUndefined();
    fs.chmodSync(file, 0o600);
    expect(store.load()).toEqual(DOC);

    const elsewhere = `${file}.target`;
    fs.renameSync(file, elsewhere);
    fs.symlinkSync(elsewhere, file);
    expect(store.load()).toBeUndefined();
    await store.save(DOC);
    expect(fs.lstatSync(file).isFile()).toBe(true);
    expect(store.load()).toEqual(DOC);
  });
});
