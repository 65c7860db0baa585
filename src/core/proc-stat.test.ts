import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { parseProcStat, readProcStat } from './proc-stat.js';

/** A real-looking stat line: pid 4242, comm with spaces and parentheses, state S, pgrp 4240, starttime 987654. */
const line = (comm: string): string =>
  `4242 (${comm}) S 1 4240 4240 0 -1 4194560 1021 0 0 0 3 1 0 0 20 0 7 0 987654 1130000384 11296 18446744073709551615 1 1 0 0 0 0 0 4096 134234626 0 0 0 17 1 0 0 0 0 0\n`;

describe('parseProcStat', () => {
  it('reads state, pgrp (field 5) and start time (field 22)', () => {
    expect(parseProcStat(line('node'))).toEqual({ state: 'S', pgrp: 4240, startTime: 987654 });
  });

  it('is not fooled by spaces and parentheses in the command name', () => {
    expect(parseProcStat(line('a) Z 9 9 (b'))).toEqual({ state: 'S', pgrp: 4240, startTime: 987654 });
  });

  it('returns null for text that is not a stat line', () => {
    expect(parseProcStat('')).toBeNull();
    expect(parseProcStat('4242 (node) S 1')).toBeNull();
  });
});

describe.runIf(process.platform === 'linux')('readProcStat on Linux', () => {
  it('reads this process, the same start time every time', () => {
    const stat = readProcStat(process.pid);
    expect(stat?.state).toMatch(/^[RS]$/);
    expect(readProcStat(process.pid)?.startTime).toBe(stat?.startTime);
  });

  it('sees a detached child as the leader of its own group, and a later child as started later', async () => {
    const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 5000)'], { detached: true, stdio: 'ignore' });
    try {
      const stat = readProcStat(child.pid as number);
      expect(stat?.pgrp).toBe(child.pid);
      expect(stat?.startTime).toBeGreaterThanOrEqual(readProcStat(process.pid)?.startTime as number);
    } finally {
      process.kill(child.pid as number, 'SIGKILL');
      await new Promise((resolve) => child.on('exit', resolve));
    }
  });

  it('returns null for a pid that does not exist and for nonsense pids', () => {
    expect(readProcStat(0)).toBeNull();
    expect(readProcStat(-1)).toBeNull();
    expect(readProcStat(2 ** 31 - 1)).toBeNull();
  });
});
