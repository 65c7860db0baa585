import fs from 'node:fs';
import { createRequire } from 'node:module';
import { readProcStat } from '../core/proc-stat.js';

/**
 * A stable identifier of when process `pid` started, or `null` when no such process exists (or
 * the platform cannot tell). Locks store it beside the pid: a pid alone is not an identity, since
 * the kernel reuses pids, so "pid alive AND same start time" is what "the holder is still running"
 * means.
 *
 * Linux: field 22 (`starttime`, clock ticks since boot) of `/proc/<pid>/stat` (`readProcStat`).
 * Elsewhere (macOS): `ps -o lstart= -p <pid>` in the C locale. The string is opaque: compare it, do not parse it.
 */
export function processStartTime(pid: number): string | null {
  if (!Number.isInteger(pid) || pid <= 0) return null;
  if (procAvailable()) {
    const stat = readProcStat(pid);
    return stat === null ? null : String(stat.startTime);
  }
  try {
    const out = childProcess()
      .execFileSync('ps', ['-o', 'lstart=', '-p', String(pid)], {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'ignore'],
        // ps needs only PATH and the C locale (a parseable date); no other variable of ours reaches it.
        env: { PATH: process.env.PATH ?? '/bin:/usr/bin', LC_ALL: 'C', LANG: 'C' },
        timeout: 5_000,
      })
      .trim();
    return out.length > 0 ? out : null;
  } catch {
    return null;
  }
}

/**
 * Whether `pid` is a running process: `kill(pid, 0)` succeeds, or fails with EPERM (it exists but
 * belongs to another user). On Linux a zombie (exited, not yet reaped) counts as dead: it can no
 * longer hold or release anything.
 */
export function isProcessAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  const stat = procAvailable() ? readProcStat(pid) : null;
  return !(stat && stat.state === 'Z');
}

let ownStartTime: string | null | undefined;

/** This process's own start time, computed once (it cannot change). */
export function ownProcessStartTime(): string | null {
  if (ownStartTime === undefined) ownStartTime = processStartTime(process.pid);
  return ownStartTime;
}

let hasProc: boolean | undefined;
/** Whether this is Linux with `/proc` mounted: then `/proc/<pid>/stat` is the truth. */
function procAvailable(): boolean {
  if (hasProc === undefined) hasProc = process.platform === 'linux' && fs.existsSync('/proc/self/stat');
  return hasProc;
}

/**
 * `node:child_process`, loaded on the first `ps` (macOS and other systems without /proc): on Linux
 * no command needs it, and loading it costs ≈ 1.4 ms of every start. (A require, not an import:
 * the hot command bundles may not use `import.meta`; any absolute path resolves a built-in.)
 */
function childProcess(): typeof import('node:child_process') {
  return createRequire(process.execPath)('node:child_process') as typeof import('node:child_process');
}
