import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { latestValidBackup, rotateBackups } from './rolling-backup.js';

const modeOf = (p: string) => fs.statSync(p).mode & 0o777;
const isRegistry = (v: unknown) => typeof v === 'object' && v !== null && (v as { version?: unknown }).version === 4;

describe('rolling backups', () => {
  let tmp: string;
  let file: string;
  let backups: string;
  beforeEach(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cc-store-bak-'));
    file = path.join(tmp, 'registry.json');
    backups = path.join(tmp, 'backups');
  });
  afterEach(() => {
    fs.rmSync(tmp, { recursive: true, force: true });
  });
  const gen = (n: number) => path.join(backups, `registry.json.${n}`);
  const listed = () => fs.readdirSync(backups).sort();

  it('keeps exactly `keep` generations, newest in .1, files 0600 in a 0700 dir', async () => {
    for (let i = 1; i <= 8; i += 1) {
      fs.writeFileSync(file, JSON.stringify({ version: 4, n: i }));
      await rotateBackups(file, backups, 3);
    }
    expect(listed()).toEqual(['registry.json.1', 'registry.json.2', 'registry.json.3']);
    expect([1, 2, 3].map((n) => (JSON.parse(fs.readFileSync(gen(n), 'utf8')) as { n: number }).n)).toEqual([8, 7, 6]);
    expect(modeOf(backups)).toBe(0o700);
    for (const n of [1, 2, 3]) expect(modeOf(gen(n))).toBe(0o600);
  });

  it('with minIntervalMs, a file rewritten often keeps backups that reach back, not the last seconds', async () => {
    let now = Date.now();
    const write = async (n: number) => {
      fs.writeFileSync(file, JSON.stringify({ version: 4, n }));
      await rotateBackups(file, backups, 3, { minIntervalMs: 60_000, now: () => now });
    };
    await write(1); // no backup yet: .1 = 1
    await write(2); // .1 is seconds old: nothing rotates
    await write(3);
    expect(listed()).toEqual(['registry.json.1']);
    expect((JSON.parse(fs.readFileSync(gen(1), 'utf8')) as { n: number }).n).toBe(1);
    now += 61_000; // a minute later the current file goes in
    await write(4);
    expect([1, 2].map((n) => (JSON.parse(fs.readFileSync(gen(n), 'utf8')) as { n: number }).n)).toEqual([4, 1]);
  });

  it('default keep is 5, and lowering keep drops the extra generations', async () => {
    for (let i = 1; i <= 7; i += 1) {
      fs.writeFileSync(file, JSON.stringify({ version: 4, n: i }));
      await rotateBackups(file, backups);
    }
    expect(listed()).toHaveLength(5);
    await rotateBackups(file, backups, 2);
    expect(listed()).toEqual(['registry.json.1', 'registry.json.2']);
  });

  it('a missing file rotates nothing; a broken one is not rotated in when a validator is given', async () => {
    await rotateBackups(file, backups, 3);
    expect(fs.existsSync(backups)).toBe(false);
    fs.writeFileSync(file, JSON.stringify({ version: 4, n: 1 }));
    await rotateBackups(file, backups, 3, { validate: isRegistry });
    fs.writeFileSync(file, '{"version":4,"sess');
    await rotateBackups(file, backups, 3, { validate: isRegistry });
    expect(listed()).toEqual(['registry.json.1']);
    await rotateBackups(file, backups, 3);
    expect(listed()).toEqual(['registry.json.1', 'registry.json.2']);
  });

  it('latestValidBackup skips half-written and invalid generations and ignores unrelated files', async () => {
    fs.mkdirSync(backups);
    fs.writeFileSync(gen(1), '{"version":4,"sessions":{');
    fs.writeFileSync(gen(2), JSON.stringify({ version: 5 }));
    fs.writeFileSync(gen(3), JSON.stringify({ version: 4, n: 3 }));
    fs.writeFileSync(gen(4), JSON.stringify({ version: 4, n: 4 }));
    fs.writeFileSync(path.join(backups, 'registry.json.tmp'), JSON.stringify({ version: 4, n: 99 }));
    fs.writeFileSync(path.join(backups, 'other.json.1'), JSON.stringify({ version: 4, n: 98 }));
    const b = await latestValidBackup<{ n: number }>(file, backups, isRegistry);
    expect(b).toEqual({ file: gen(3), generation: 3, value: { version: 4, n: 3 } });
    expect(await latestValidBackup(file, backups, () => false)).toBeNull();
    expect(await latestValidBackup(file, path.join(tmp, 'none'), isRegistry)).toBeNull();
  });
});
