import fs from 'node:fs/promises';
import { writeFileAtomic } from '../../store/atomic-write.js';
import { isProcessAlive } from '../../store/process-start-time.js';

/**
 * The PID file of a running `cc-linker start` (`runtime/cc-linker.pid`), read by `cc-linker stop`
 * and `status`. The owner lock is the real guard against two instances; this file only says which
 * process to signal.
 */
export async function writePidFile(file: string, pid = process.pid): Promise<void> {
  await writeFileAtomic(file, `${pid}\n`);
}

/** The pid in the file when that process is alive, else null (a stale file is ignored). */
export async function readLivePid(file: string): Promise<number | null> {
  try {
    const pid = Number.parseInt((await fs.readFile(file, 'utf8')).trim(), 10);
    return Number.isInteger(pid) && pid > 0 && isProcessAlive(pid) ? pid : null;
  } catch {
    return null;
  }
}

/** Removes the PID file if it still names `pid`. */
export async function removePidFile(file: string, pid = process.pid): Promise<void> {
  try {
    if ((await fs.readFile(file, 'utf8')).trim() === String(pid)) await fs.rm(file, { force: true });
  } catch {
    /* already gone */
  }
}
