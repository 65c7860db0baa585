import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  isGroupGone,
  killGroups,
  removeFakeChildren,
  waitGroupGone,
  writeFakeChildren,
  type FakeChildren,
} from '../../test/fakes/fake-children.js';
import { silentLogger } from '../core/logger.js';
import { createChildTracker, killLeftovers, type ChildRecord } from './child-tracker.js';
import { readProcStat } from '../core/proc-stat.js';

const linux = process.platform === 'linux';
let fake: FakeChildren;
let dir: string;
const started = new Set<number>();

beforeAll(() => {
  fake = writeFakeChildren();
});
afterAll(() => removeFakeChildren(fake));
beforeEach(() => {
  dir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'cc-linker-tracker-')), 'children');
});
afterEach(() => {
  killGroups(started);
  started.clear();
  fs.rmSync(path.dirname(dir), { recursive: true, force: true });
});

/**
 * Starts a detached group the way the runner does, but outside it — as if cc-linker had crashed and
 * left it — and resolves once it printed `until`.
 */
async function leftover(argv: string[], until: string): Promise<ChildProcess & { pid: number }> {
  const child = spawn(process.execPath, argv, { detached: true, stdio: ['ignore', 'pipe', 'ignore'] });
  if (child.pid === undefined) throw new Error('spawn failed');
  started.add(child.pid);
  await new Promise<void>((resolve) => {
    let text = '';
    child.stdout?.on('data', (d: Buffer) => {
      text += d.toString();
      if (text.includes(until)) resolve();
    });
  });
  child.unref();
  return child as ChildProcess & { pid: number };
}

function readRecordFile(pgid: number): ChildRecord {
  return JSON.parse(fs.readFileSync(path.join(dir, `${pgid}.json`), 'utf8')) as ChildRecord;
}

describe('createChildTracker', () => {
  it('writes a 0600 record in a 0700 dir with the start time, and removes it', () => {
    const tracker = createChildTracker(dir);
    tracker.add({ pid: process.pid, pgid: process.pid, argv0: 'node' });
    const record = readRecordFile(process.pid);
    expect(record).toMatchObject({ pid: process.pid, pgid: process.pid, argv0: 'node' });
    expect(Number.isNaN(Date.parse(record.recordedAt))).toBe(false);
    if (linux) {
      const field22 = Number(fs.readFileSync(`/proc/${process.pid}/stat`, 'utf8').split(') ')[1]?.split(' ')[19]);
      expect(record.startTime).toBe(field22);
    }
    expect(fs.statSync(dir).mode & 0o777).toBe(0o700);
    expect(fs.statSync(path.join(dir, `${process.pid}.json`)).mode & 0o777).toBe(0o600);
    tracker.remove(process.pid);
    expect(fs.readdirSync(dir)).toEqual([]);
    tracker.remove(process.pid); // twice is fine
  });

  it('never throws when the directory cannot be written, and logs a warning', () => {
    const blocker = path.join(path.dirname(dir), 'a-file');
    fs.mkdirSync(path.dirname(dir), { recursive: true });
    fs.writeFileSync(blocker, '');
    const warnings: string[] = [];
    const logger = { ...silentLogger, warn: (msg: string) => void warnings.push(msg) };
    const tracker = createChildTracker(path.join(blocker, 'children'), { logger });
    expect(() => tracker.add({ pid: 1234, pgid: 1234, argv0: 'x' })).not.toThrow();
    expect(warnings).toHaveLength(1);
  });
});

describe.runIf(linux)('killLeftovers', () => {
  it('kills a live recorded group with SIGTERM-ignoring grandchildren and removes the record', async () => {
    const child = await leftover([fake.stubborn, '2'], 'ready\n');
    createChildTracker(dir).add({ pid: child.pid, pgid: child.pid, argv0: process.execPath });
    const result = await killLeftovers(dir, { graceMs: 200 });
    expect(result).toEqual({ killed: [child.pid], skipped: [] });
    expect(await waitGroupGone(child.pid)).toBe(true);
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it('skips a live pid whose start time does not match (pid reuse) and leaves it running', async () => {
    const child = await leftover([fake.silent], 'ready\n');
    const start = readProcStat(child.pid as number)?.startTime ?? null;
    expect(start).not.toBeNull();
    fs.mkdirSync(dir, { recursive: true });
    const stale: ChildRecord = {
      pid: child.pid,
      pgid: child.pid,
      argv0: 'claude',
      startTime: (start as number) + 1,
      recordedAt: new Date().toISOString(),
    };
    fs.writeFileSync(path.join(dir, `${child.pid}.json`), JSON.stringify(stale));
    const result = await killLeftovers(dir, { graceMs: 200 });
    expect(result).toEqual({ killed: [], skipped: [child.pid] });
    expect(isGroupGone(child.pid)).toBe(false);
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it('kills the orphaned rest of a group whose leader already exited', async () => {
    const child = spawn(process.execPath, [fake.orphan], { detached: true, stdio: ['ignore', 'pipe', 'ignore'] });
    const pgid = child.pid as number;
    started.add(pgid);
    createChildTracker(dir).add({ pid: pgid, pgid, argv0: process.execPath });
    await new Promise<void>((resolve) => child.on('exit', () => resolve()));
    child.stdout?.destroy();
    expect(isGroupGone(pgid)).toBe(false); // the grandchild lives on
    const result = await killLeftovers(dir, { graceMs: 200 });
    expect(result).toEqual({ killed: [pgid], skipped: [] });
    expect(await waitGroupGone(pgid)).toBe(true);
  });

  it('drops records of dead groups, malformed files and a pgid of 1 without killing anything', async () => {
    fs.mkdirSync(dir, { recursive: true });
    const dead = spawn(process.execPath, ['-e', '0'], { detached: true, stdio: 'ignore' });
    const deadPid = dead.pid as number;
    await new Promise<void>((resolve) => dead.on('exit', () => resolve()));
    fs.writeFileSync(
      path.join(dir, `${deadPid}.json`),
      JSON.stringify({ pid: deadPid, pgid: deadPid, argv0: 'x', startTime: 1, recordedAt: '' }),
    );
    fs.writeFileSync(path.join(dir, 'garbage.json'), '{not json');
    fs.writeFileSync(path.join(dir, 'init.json'), JSON.stringify({ pid: 1, pgid: 1, argv0: 'init', startTime: 1 }));
    expect(await killLeftovers(dir)).toEqual({ killed: [], skipped: [] });
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it('returns empty lists for a directory that does not exist', async () => {
    expect(await killLeftovers(path.join(dir, 'nope'))).toEqual({ killed: [], skipped: [] });
  });
});
