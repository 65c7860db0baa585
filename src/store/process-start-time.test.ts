import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { isProcessAlive, ownProcessStartTime, processStartTime } from './process-start-time.js';
import { deadPid } from '../../test/helpers/store-test-helpers.js';

/** A pid that certainly existed and is now gone (its process exited and was reaped). */

describe('processStartTime / isProcessAlive', () => {
  it('our own process: alive, with a stable start time', () => {
    const t = processStartTime(process.pid);
    expect(t).toEqual(expect.any(String));
    expect(t).not.toBe('');
    expect(processStartTime(process.pid)).toBe(t);
    expect(ownProcessStartTime()).toBe(t);
    expect(isProcessAlive(process.pid)).toBe(true);
  });

  it('a process that exited: dead, no start time', () => {
    const pid = deadPid();
    expect(isProcessAlive(pid)).toBe(false);
    expect(processStartTime(pid)).toBeNull();
  });

  it('another live process has its own start time', async () => {
    const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 20000)'], { stdio: 'ignore' });
    try {
      await new Promise((r) => child.once('spawn', r));
      const pid = child.pid as number;
      expect(isProcessAlive(pid)).toBe(true);
      const t = processStartTime(pid);
      expect(t).toEqual(expect.any(String));
      expect(t).not.toBe(ownProcessStartTime());
    } finally {
      child.kill('SIGKILL');
    }
  });

  it('nonsense pids are neither alive nor started', () => {
    for (const pid of [0, -1, 1.5, Number.NaN]) {
      expect(isProcessAlive(pid)).toBe(false);
      expect(processStartTime(pid)).toBeNull();
    }
  });
});

describe('processStartTime without /proc (macOS): the `ps` fallback', () => {
  afterEach(() => {
    vi.restoreAllMocks();
    vi.resetModules();
  });

  it('asks `ps` (child_process is loaded only then): stable for one process, null for a gone one', async () => {
    if (!fs.existsSync('/bin/ps') && !fs.existsSync('/usr/bin/ps')) return;
    vi.resetModules();
    vi.spyOn(process, 'platform', 'get').mockReturnValue('darwin'); // the module decides on its first call
    const viaPs = await import('./process-start-time.js');
    const mine = viaPs.processStartTime(process.pid);
    expect(mine).toMatch(/\d{4}$/); // "Mon Nov 30 19:40:43 2026": opaque, compared as a whole
    expect(mine).not.toBe(ownProcessStartTime()); // not the /proc clock ticks
    expect(viaPs.processStartTime(process.pid)).toBe(mine);
    expect(viaPs.processStartTime(deadPid())).toBeNull();
  });
});
