import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
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
