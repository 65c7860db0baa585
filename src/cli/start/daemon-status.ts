import os from 'node:os';
import type { Paths } from '../../core/paths.js';
import { readOwnerLock } from '../../store/owner-lock.js';
import { askDaemon } from './ask-daemon.js';
import type { DaemonStatusAnswer } from './control-protocol.js';

/** What `cc-linker status` says about `cc-linker start`. */
export type DaemonState =
  | { state: 'stopped' }
  /** Owned from another host (a shared home): its socket is not ours to ask. */
  | { state: 'elsewhere'; pid: number; host: string }
  /** Running here but its socket did not answer within the wait (starting, stopping or stuck). */
  | { state: 'silent'; pid: number }
  | ({ state: 'running' } & DaemonStatusAnswer);

/** How long `status` waits for the daemon: a status line must never hang the terminal. */
const STATUS_WAIT_MS = 2000;

/**
 * Asks the running daemon (found by its owner lock) for its channels and queue over the request
 * socket. Never throws: no daemon, a daemon elsewhere and a daemon that does not answer are states.
 */
export async function readDaemonStatus(paths: Pick<Paths, 'ownerLockFile' | 'runtimeDir'>): Promise<DaemonState> {
  const owner = await readOwnerLock(paths.ownerLockFile).catch(() => null);
  if (!owner?.alive) return { state: 'stopped' };
  if (owner.host !== os.hostname()) return { state: 'elsewhere', pid: owner.pid, host: owner.host };
  try {
    const answer = (await askDaemon(
      paths,
      { op: 'status' },
      { action: 'status', pid: owner.pid },
      { acceptMs: STATUS_WAIT_MS },
    )) as DaemonStatusAnswer;
    return { state: 'running', ...answer };
  } catch {
    return { state: 'silent', pid: owner.pid };
  }
}
