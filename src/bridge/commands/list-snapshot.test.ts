import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ListSnapshots } from './list-snapshot.js';

let tmp: string;
let file: string;
let clock: Date;
let snaps: ListSnapshots;
const TTL = 10 * 60_000;

beforeEach(async () => {
  tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'ccl-snap-'));
  file = path.join(tmp, 'runtime', 'list-snapshots.json');
  clock = new Date('2026-05-05T10:00:00Z');
  snaps = new ListSnapshots(file, { ttlMs: TTL, now: () => clock });
});

afterEach(async () => {
  await fs.rm(tmp, { recursive: true, force: true });
});

const at = (ms: number) => new Date(Date.parse('2026-05-05T10:00:00Z') + ms);

describe('ListSnapshots', () => {
  it('says none before any list', async () => {
    expect(await snaps.resolve('u', 1)).toEqual({ ok: false, reason: 'none' });
  });

  it('resolves 1-based indexes within the TTL', async () => {
    await snaps.save('u', ['a', 'b', 'c']);
    expect(await snaps.resolve('u', 1)).toEqual({ ok: true, sessionId: 'a' });
    expect(await snaps.resolve('u', 3)).toEqual({ ok: true, sessionId: 'c' });
    clock = at(TTL);
    expect(await snaps.resolve('u', 2)).toEqual({ ok: true, sessionId: 'b' });
  });

  it('reports out-of-range for 0, negatives and past the end', async () => {
    await snaps.save('u', ['a', 'b']);
    for (const i of [0, -1, 3, 1.5]) expect(await snaps.resolve('u', i)).toEqual({ ok: false, reason: 'out-of-range' });
  });

  it('expires after the TTL', async () => {
    await snaps.save('u', ['a']);
    clock = at(TTL + 1);
    expect(await snaps.resolve('u', 1)).toEqual({ ok: false, reason: 'expired' });
  });

  it('keeps only the latest list per user, users independent', async () => {
    await snaps.save('u', ['a', 'b']);
    await snaps.save('v', ['x']);
    clock = at(60_000);
    await snaps.save('u', ['c']);
    expect(await snaps.resolve('u', 1)).toEqual({ ok: true, sessionId: 'c' });
    expect(await snaps.resolve('u', 2)).toEqual({ ok: false, reason: 'out-of-range' });
    expect(await snaps.resolve('v', 1)).toEqual({ ok: true, sessionId: 'x' });
  });

  it('survives a restart (a new instance on the same file)', async () => {
    await snaps.save('u', ['a']);
    const again = new ListSnapshots(file, { ttlMs: TTL, now: () => clock });
    expect(await again.resolve('u', 1)).toEqual({ ok: true, sessionId: 'a' });
  });

  it('purges only expired snapshots', async () => {
    await snaps.save('old', ['a']);
    clock = at(TTL - 1000);
    await snaps.save('new', ['b']);
    clock = at(TTL + 1);
    expect(await snaps.purgeExpired()).toBe(1);
    expect(await snaps.resolve('old', 1)).toEqual({ ok: false, reason: 'none' });
    expect(await snaps.resolve('new', 1)).toEqual({ ok: true, sessionId: 'b' });
    expect(await snaps.purgeExpired()).toBe(0);
  });
});
