import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PermissionStore } from './permission-store.js';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cc-linker-perm-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('PermissionStore', () => {
  it('adds rules once, lists them with metadata, writes the file 0600', async () => {
    const file = path.join(dir, 'permissions.json');
    const store = new PermissionStore(file);
    expect(await store.list()).toEqual([]);
    expect(
      await store.add('Bash(npm test:*)', {
        userId: 'ou_1',
        source: 'Bash: npm test',
        now: new Date('2026-01-02T03:04:05Z'),
      }),
    ).toBe(true);
    expect(await store.add('Bash(npm test:*)')).toBe(false);
    await store.add('Read');
    expect(await store.rules()).toEqual(['Bash(npm test:*)', 'Read']);
    expect((await store.list())[0]).toEqual({
      rule: 'Bash(npm test:*)',
      addedAt: '2026-01-02T03:04:05.000Z',
      userId: 'ou_1',
      source: 'Bash: npm test',
    });
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toMatchObject({ version: 2, schema: 1 });
  });

  it('revokes by text or 1-based index; unknown → null', async () => {
    const store = new PermissionStore(path.join(dir, 'p.json'));
    for (const r of ['A', 'B', 'C']) await store.add(r);
    expect((await store.revoke('2'))?.rule).toBe('B');
    expect((await store.revoke('C'))?.rule).toBe('C');
    expect(await store.revoke('9')).toBeNull();
    expect(await store.revoke('Nope')).toBeNull();
    expect(await store.rules()).toEqual(['A']);
  });

  it('refuses an invalid rule; drops hand-edited bad entries when reading', async () => {
    const file = path.join(dir, 'p.json');
    const store = new PermissionStore(file);
    await expect(store.add('not a rule')).rejects.toThrow(RangeError);
    fs.writeFileSync(
      file,
      JSON.stringify({
        version: 1,
        schema: 1,
        data: { rules: [{ rule: 'Read', addedAt: 'x' }, { rule: 'bad rule(' }, 7] },
      }),
    );
    expect(await store.rules()).toEqual(['Read']);
  });

  it('concurrent adds are not lost (compare-and-swap)', async () => {
    const file = path.join(dir, 'p.json');
    await Promise.all(['R1', 'R2', 'R3', 'R4'].map((r) => new PermissionStore(file).add(r)));
    expect((await new PermissionStore(file).rules()).sort()).toEqual(['R1', 'R2', 'R3', 'R4']);
  });
});
