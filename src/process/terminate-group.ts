import fs from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { readProcStat, readProcStatWithParent, type ProcStat } from '../core/proc-stat.js';

/** Default time between SIGTERM and SIGKILL to the group. */
export const DEFAULT_KILL_GRACE_MS = 2000;
/** How often a group is checked during the grace period. */
const GRACE_POLL_MS = 20;
/** How often after SIGKILL, when the group is gone within a few milliseconds. */
const KILL_POLL_MS = 5;
/** How long we wait for the kernel to remove a group after SIGKILL before giving up. */
const AFTER_KILL_WAIT_MS = 2000;

/** How a `terminateGroup` call ended. */
export type TerminateOutcome = 'already-gone' | 'terminated' | 'killed';

/**
 * True while any process of group `pgid` is still running.
 *
 * Why not just `process.kill(-pgid, 0)`: an exited grandchild stays a zombie until its new parent
 * reaps it, and some container inits (PID 1) never reap. A zombie holds no resources and cannot be
 * killed, so on Linux a group made only of zombies counts as gone. Elsewhere the signal probe decides.
 */
export function isGroupAlive(pgid: number): boolean {
  if (!isSafePgid(pgid)) return false;
  try {
    process.kill(-pgid, 0);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
  if (process.platform !== 'linux') return true;
  if (isLiveMember(readProcStat(pgid), pgid)) return true; // the leader: no need to scan
  let entries: string[];
  try {
    entries = fs.readdirSync('/proc');
  } catch {
    return true;
  }
  for (const name of entries) {
    const pid = Number(name);
    if (!Number.isInteger(pid) || pid <= 0) continue;
    if (isLiveMember(readProcStat(pid), pgid)) return true;
  }
  return false;
}

function isLiveMember(stat: ProcStat | null, pgid: number): boolean {
  return stat !== null && stat.pgrp === pgid && stat.state !== 'Z' && stat.state !== 'X';
}

/** `kill(-1)` signals every process we may signal and `kill(-0)` our own group: never a child's group. */
function isSafePgid(pgid: number): boolean {
  return Number.isInteger(pgid) && pgid > 1;
}

/** Sends `signal` to every process of group `pgid`; false when the group no longer exists. */
export function signalGroup(pgid: number, signal: NodeJS.Signals): boolean {
  if (!isSafePgid(pgid)) return false;
  try {
    process.kill(-pgid, signal);
    return true;
  } catch {
    return false;
  }
}

/**
 * The process groups of `pgid`'s descendants that left it (Linux only). Claude Code starts each
 * Bash tool's shell with `setsid`, in a session and group of its own, which a signal to our
 * child's group never reaches; they must end with the child. Found by following parent pids down
 * from the members of `pgid`, so it only works while those are alive (an orphan is re-parented and
 * cannot be traced back): call it before the first signal. Never returns our own group.
 */
export function strayGroups(pgid: number): number[] {
  if (process.platform !== 'linux' || !isSafePgid(pgid)) return [];
  let entries: string[];
  try {
    entries = fs.readdirSync('/proc');
  } catch {
    return [];
  }
  const children = new Map<number, number[]>();
  const groupOf = new Map<number, number>();
  const queue: number[] = [];
  for (const name of entries) {
    const pid = Number(name);
    if (!Number.isInteger(pid) || pid <= 0) continue;
    const stat = readProcStatWithParent(pid);
    if (!stat || stat.state === 'Z' || stat.state === 'X') continue;
    groupOf.set(pid, stat.pgrp);
    children.set(stat.ppid, [...(children.get(stat.ppid) ?? []), pid]);
    if (stat.pgrp === pgid) queue.push(pid);
  }
  const own = readProcStat(process.pid)?.pgrp;
  const found = new Set<number>();
  const seen = new Set<number>(queue);
  while (queue.length > 0) {
    const pid = queue.pop() as number;
    const group = groupOf.get(pid);
    if (group !== undefined && group !== pgid && group !== own && isSafePgid(group)) found.add(group);
    for (const child of children.get(pid) ?? []) {
      if (seen.has(child)) continue;
      seen.add(child);
      queue.push(child);
    }
  }
  return [...found];
}

async function waitGone(pgids: readonly number[], ms: number, pollMs: number): Promise<boolean> {
  const deadline = performance.now() + ms;
  for (;;) {
    if (!pgids.some((pgid) => isGroupAlive(pgid))) return true;
    const left = deadline - performance.now();
    if (left <= 0) return false;
    await sleep(Math.min(pollMs, left));
  }
}

/**
 * Ends a whole process group: SIGTERM to the group, up to `graceMs` for it to go, then SIGKILL to the
 * group, then a short wait until the kernel has removed it.
 *
 * Why the group and not the pid: the children we run (Claude Code, a CLI) spawn their own children;
 * killing only the direct child leaves grandchildren running and holding our pipes. Descendants
 * that moved to groups of their own (`strayGroups`, e.g. Claude Code's Bash tool shells) are
 * signalled and waited for together with the group.
 *
 * @example
 *   await terminateGroup(child.pid, { graceMs: 2000 }); // 'already-gone' | 'terminated' | 'killed'
 */
export async function terminateGroup(pgid: number, options: { graceMs: number }): Promise<TerminateOutcome> {
  if (!isGroupAlive(pgid)) return 'already-gone';
  const groups = [pgid, ...strayGroups(pgid)];
  for (const group of groups) signalGroup(group, 'SIGTERM');
  if (await waitGone(groups, Math.max(0, options.graceMs), GRACE_POLL_MS)) return 'terminated';
  for (const group of groups) signalGroup(group, 'SIGKILL');
  await waitGone(groups, AFTER_KILL_WAIT_MS, KILL_POLL_MS);
  return 'killed';
}
