import fs from 'node:fs';
import path from 'node:path';
import type { Logger } from '../core/logger.js';
import { makePrivateDirSync } from '../core/private-dir.js';
import { readProcStat } from '../core/proc-stat.js';
import { DEFAULT_KILL_GRACE_MS, isGroupAlive, terminateGroup } from './terminate-group.js';

/** What the runner tells the tracker about a child it just spawned. */
export interface TrackedChild {
  pid: number;
  /** Equal to `pid`: every child is spawned as the leader of its own group. */
  pgid: number;
  argv0: string;
}

/** One `<dir>/<pgid>.json` record. */
export interface ChildRecord extends TrackedChild {
  /** `/proc/<pid>/stat` field 22 (clock ticks since boot) on Linux, else null. */
  startTime: number | null;
  /** ISO time the record was written. */
  recordedAt: string;
}

/**
 * Remembers the process groups of live children on disk while they run.
 *
 * Why: if cc-linker crashes (or is SIGKILLed), its children live on — a Claude Code run keeps
 * working and holding the session. The next start calls `killLeftovers` on the same directory.
 * Both methods are best-effort and never throw: a failure to record must not fail the run; it is
 * logged when a logger is given.
 */
export interface ChildTracker {
  add(info: TrackedChild): void;
  remove(pgid: number): void;
}

/**
 * A tracker writing one file per live child under `dir` (usually `Paths.childrenDir`); files 0600,
 * the directory 0700. Synchronous on purpose: the record must exist before the spawn call returns.
 *
 * @example
 *   const tracker = createChildTracker(paths.childrenDir, { logger });
 *   await runProcess(argv, { tracker });
 */
export function createChildTracker(dir: string, options: { logger?: Logger } = {}): ChildTracker {
  const file = (pgid: number): string => path.join(dir, `${pgid}.json`);
  return {
    add(info) {
      const record: ChildRecord = {
        ...info,
        startTime: readProcStat(info.pid)?.startTime ?? null,
        recordedAt: new Date().toISOString(),
      };
      try {
        makePrivateDirSync(dir);
        fs.writeFileSync(file(info.pgid), `${JSON.stringify(record)}\n`, { mode: 0o600 });
      } catch (err) {
        options.logger?.warn('could not record child process group', { pgid: info.pgid, err });
      }
    },
    remove(pgid) {
      try {
        fs.rmSync(file(pgid), { force: true });
      } catch (err) {
        options.logger?.warn('could not remove child process record', { pgid, err });
      }
    },
  };
}

function readRecord(file: string): ChildRecord | null {
  try {
    const value = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<ChildRecord>;
    const isId = (n: unknown): n is number => Number.isInteger(n) && (n as number) > 1;
    if (!isId(value.pid) || !isId(value.pgid)) return null;
    const startTime = Number.isInteger(value.startTime) ? (value.startTime as number) : null;
    return {
      pid: value.pid,
      pgid: value.pgid,
      argv0: String(value.argv0 ?? ''),
      startTime,
      recordedAt: String(value.recordedAt ?? ''),
    };
  } catch {
    return null;
  }
}

/**
 * Decides whether a record still names our process group:
 * - the leader is running with the recorded start time → ours;
 * - the leader is running with another start time (or none recorded) → the pid was reused: skip;
 * - the leader is gone but live members remain (orphaned grandchildren) → ours, on Linux, because
 *   the kernel does not hand out a pgid number again while that group still exists.
 */
function classify(record: ChildRecord): 'ours' | 'stranger' | 'gone' {
  if (process.platform === 'linux') {
    if (record.pgid === readProcStat(process.pid)?.pgrp) return 'stranger'; // never our own group
    const leader = readProcStat(record.pid);
    if (leader && leader.state !== 'Z' && leader.state !== 'X') {
      return record.startTime !== null && leader.startTime === record.startTime && leader.pgrp === record.pgid
        ? 'ours'
        : 'stranger';
    }
    return record.startTime !== null && isGroupAlive(record.pgid) ? 'ours' : 'gone';
  }
  // Without /proc the start time cannot be checked: a live pid might be a stranger, so leave it.
  return isGroupAlive(record.pgid) ? 'stranger' : 'gone';
}

/**
 * At start-up, after a crash: ends every recorded process group that is still ours (SIGTERM, grace,
 * SIGKILL to the group), skips records whose pid now belongs to someone else, and removes all records.
 *
 * @returns the pgids killed and the pgids skipped as strangers (records of dead groups are in neither).
 * @example
 *   const { killed } = await killLeftovers(paths.childrenDir, { graceMs: 2000 });
 */
export async function killLeftovers(
  dir: string,
  opts: { graceMs?: number } = {},
): Promise<{ killed: number[]; skipped: number[] }> {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return { killed: [], skipped: [] };
  }
  const killed: number[] = [];
  const skipped: number[] = [];
  const graceMs = opts.graceMs ?? DEFAULT_KILL_GRACE_MS;
  await Promise.all(
    names
      .filter((name) => name.endsWith('.json'))
      .map(async (name) => {
        const file = path.join(dir, name);
        const record = readRecord(file);
        if (record) {
          const verdict = classify(record);
          if (verdict === 'ours') {
            await terminateGroup(record.pgid, { graceMs });
            killed.push(record.pgid);
          } else if (verdict === 'stranger') {
            skipped.push(record.pgid);
          }
        }
        try {
          fs.rmSync(file, { force: true });
        } catch {
          // A record we cannot delete is looked at again on the next start; its group is dealt with.
        }
      }),
  );
  return { killed: killed.sort((a, b) => a - b), skipped: skipped.sort((a, b) => a - b) };
}
