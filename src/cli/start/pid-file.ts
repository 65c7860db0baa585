import fs from 'node:fs/promises';
import { writeFileAtomic } from '../../store/atomic-write.js';
import { isProcessAlive, processStartTime } from '../../store/process-start-time.js';

/**
 * The PID file of a running `cc-linker start` (`runtime/cc-linker.pid`), read by `cc-linker stop`
 * and `status`. It holds the pid and the process's start time, so a pid reused by an unrelated
 * process after a crash is never mistaken for cc-linker (and never sent SIGTERM). The owner lock is
 * the real guard against two instances; this file only says which process to signal.
 */
export async function writePidFile(file: string, pid = process.pid): Promise<void> {
  await writeFileAtomic(file, `${pid} ${processStartTime(pid) ?? '-'}\n`);
}

/** The pid in the file when that very process is alive, else null (a stale file is ignored). */
export async function readLivePid(file: string): Promise<number | null> {
  try {
    const [pidText, started] = (await fs.readFile(file, 'utf8')).trim().split(/\s+/);
    const pid = Number.parseInt(pidText ?? '', 10);
    if (!Number.isInteger(pid) || pid <= 0 || !isProcessAlive(pid)) return null;
    if (started && started !== '-' && processStartTime(pid) !== started) return null;
    return pid;
  } catch {
    return null;
  }
}

/** Removes the PID file if it still names `pid`. */
export async function removePidFile(file: string, pid = process.pid): Promise<void> {
  try {
    if ((await fs.readFile(file, 'utf8')).trim().split(/\s+/)[0] === String(pid)) await fs.rm(file, { force: true });
  } catch {
    /* already gone */
  }
}
