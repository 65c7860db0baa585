import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { acquireOwnerLock, assertNoLiveOwner, readOwnerLock, type OwnerLock } from './owner-lock.js';
import { ownProcessStartTime, processStartTime } from './process-start-time.js';
import { deadPid, storeRejection } from '../../test/helpers/store-test-helpers.js';

describe('runtime owner lock', () => {
  let tmp: string;
  let file: string;
  const children: ChildProcess[] = [];
  const held: OwnerLock[] = [];
  beforeEach(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cc-store-owner-'));
    file = path.join(tmp, 'runtime', 'owner.lock');
  });
  afterEach(async () => {
    for (const l of held.splice(0)) await l.release();
    for (const c of children.splice(0)) c.kill('SIGKILL');
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  /** A live process that is not us, and its real start time. */
  async function otherLiveProcess(): Promise<{ pid: number; startTime: string }> {
    const c = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)'], { stdio: 'ignore' });
    children.push(c);
    await new Promise((r) => c.once('spawn', r));
    const pid = c.pid as number;
    return { pid, startTime: processStartTime(pid) as string };
  }

  function writeLock(content: Record<string, unknown>): void {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, JSON.stringify({ startedAt: '2026-05-05T10:30:00.000Z', host: os.hostname(), ...content }));
  }

  it('writes {pid, startTime, startedAt, host} 0600 in a 0700 runtime dir and removes it on release', async () => {
    const lock = await acquireOwnerLock(file);
    expect(lock).toMatchObject({ pid: process.pid, file, tookOverStale: false });
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toMatchObject({
      pid: process.pid,
      startTime: ownProcessStartTime(),
      startedAt: expect.stringMatching(/^\d{4}-/),
      host: os.hostname(),
    });
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.statSync(path.dirname(file)).mode & 0o777).toBe(0o700);
    expect(await readOwnerLock(file)).toMatchObject({ pid: process.pid, alive: true });
    await lock.release();
    await lock.release();
    expect(fs.existsSync(file)).toBe(false);
    expect(await readOwnerLock(file)).toBeNull();
  });

  it('a live owner blocks start and the write commands, naming its pid; the owner itself may write', async () => {
    const other = await otherLiveProcess();
    writeLock({ pid: other.pid, startTime: other.startTime });
    expect(await readOwnerLock(file)).toMatchObject({ pid: other.pid, startTime: other.startTime, alive: true });
    const e = await storeRejection(acquireOwnerLock(file));
    expect(e.code).toBe('STORE_OWNER_LOCKED');
    expect(e.userMessage).toContain(String(other.pid));
    const s = await storeRejection(assertNoLiveOwner(file, 'cc-linker sync'));
    expect(s.code).toBe('STORE_OWNER_LOCKED');
    expect(s.userMessage).toBe(
      `无法执行 cc-linker sync：cc-linker start 正在运行（pid ${other.pid}），请先停止它（cc-linker stop）后再执行`,
    );
    expect(s.localize('en')).toContain(`(pid ${other.pid})`);
    expect(s.exitCode).toBe(75);
    fs.rmSync(file);
    held.push(await acquireOwnerLock(file));
    await expect(assertNoLiveOwner(file, 'cc-linker sync')).resolves.toBeUndefined();
    expect((await storeRejection(acquireOwnerLock(file))).code).toBe('STORE_OWNER_LOCKED');
  });

  it('takes over a lock left by a dead pid and says so', async () => {
    writeLock({ pid: deadPid(), startTime: '12345' });
    expect(await readOwnerLock(file)).toMatchObject({ alive: false });
    await expect(assertNoLiveOwner(file, 'cc-linker clean')).resolves.toBeUndefined();
    const lock = await acquireOwnerLock(file);
    held.push(lock);
    expect(lock.tookOverStale).toBe(true);
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toMatchObject({ pid: process.pid });
  });

  it('detects pid reuse: a live pid with another start time is not the owner', async () => {
    const other = await otherLiveProcess();
    writeLock({ pid: other.pid, startTime: `${other.startTime}-bogus` });
    expect(await readOwnerLock(file)).toMatchObject({ pid: other.pid, alive: false });
    await expect(assertNoLiveOwner(file, 'cc-linker init')).resolves.toBeUndefined();
    const lock = await acquireOwnerLock(file);
    held.push(lock);
    expect(lock.tookOverStale).toBe(true);
  });

  it('an unreadable lock counts as no owner and is taken over', async () => {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, '{"pid": 12');
    expect(await readOwnerLock(file)).toBeNull();
    await expect(assertNoLiveOwner(file, 'cc-linker repair')).resolves.toBeUndefined();
    const lock = await acquireOwnerLock(file);
    held.push(lock);
    expect(lock.tookOverStale).toBe(true);
  });

  it('an owner on another host is assumed alive and named with its host', async () => {
    writeLock({ pid: deadPid(), startTime: null, host: 'build-box' });
    expect(await readOwnerLock(file)).toMatchObject({ alive: true, host: 'build-box' });
    const e = await storeRejection(assertNoLiveOwner(file, 'cc-linker sync'));
    expect(e.localize('en')).toContain('on host build-box');
  });

  it('release leaves a lock that someone else has taken over', async () => {
    const lock = await acquireOwnerLock(file);
    writeLock({ pid: 424242, startTime: null, token: 'theirs' });
    await lock.release();
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toMatchObject({ pid: 424242 });
  });

  it('concurrent starts over a stale lock: exactly one wins', async () => {
    writeLock({ pid: deadPid() });
    const results = await Promise.allSettled(Array.from({ length: 6 }, () => acquireOwnerLock(file)));
    const won = results.filter((r): r is PromiseFulfilledResult<OwnerLock> => r.status === 'fulfilled');
    expect(won).toHaveLength(1);
    held.push(...won.map((r) => r.value));
    for (const r of results)
      if (r.status === 'rejected') expect(r.reason).toMatchObject({ code: 'STORE_OWNER_LOCKED' });
  });
});
