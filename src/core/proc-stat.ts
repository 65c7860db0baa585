import fs from 'node:fs';

/**
 * The few fields of `/proc/<pid>/stat` cc-linker needs: the process runner (groups, start times of
 * its children) and the store's locks (is the holder alive, and still the same process).
 */
export interface ProcStat {
  /** One-letter state: R, S, D, T, Z (zombie), X (dead), … */
  readonly state: string;
  /** The process group id (field 5). */
  readonly pgrp: number;
  /** Start time in clock ticks since boot (field 22): with the pid, it names one process for good. */
  readonly startTime: number;
}

/**
 * Reads `/proc/<pid>/stat` (Linux only). Returns null when the process does not exist, on other
 * platforms, or when the file cannot be parsed.
 *
 * Why parse after the last `)`: field 2 is the command name in parentheses and may itself contain
 * spaces and parentheses; everything after the last `)` is space-separated fields starting at field 3.
 */
export function readProcStat(pid: number): ProcStat | null {
  const raw = readStatFile(pid);
  return raw === null ? null : parseProcStat(raw);
}

/** Parses the text of a `/proc/<pid>/stat` file; null when it is not one. */
export function parseProcStat(raw: string): ProcStat | null {
  const fields = statFields(raw);
  if (!fields) return null;
  const state = fields[0];
  const pgrp = Number(fields[5 - 3]);
  const startTime = Number(fields[22 - 3]);
  if (!state || !Number.isInteger(pgrp) || !Number.isInteger(startTime)) return null;
  return { state, pgrp, startTime };
}

/** `readProcStat` plus the parent's pid (field 4), from one read of the file. */
export function readProcStatWithParent(pid: number): (ProcStat & { ppid: number }) | null {
  const raw = readStatFile(pid);
  if (raw === null) return null;
  const stat = parseProcStat(raw);
  const ppid = Number(statFields(raw)?.[4 - 3]);
  return stat && Number.isInteger(ppid) ? { ...stat, ppid } : null;
}

/** The text of `/proc/<pid>/stat`; null off Linux, for a pid that is not one, or a process that is gone. */
function readStatFile(pid: number): string | null {
  if (process.platform !== 'linux' || !Number.isInteger(pid) || pid <= 0) return null;
  try {
    return fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null;
  }
}

/** The fields after the command name: `fields[0]` is field 3 (state), so field N is `fields[N - 3]`. */
function statFields(raw: string): string[] | null {
  const close = raw.lastIndexOf(')');
  if (close < 0) return null;
  return raw
    .slice(close + 2)
    .trim()
    .split(' ');
}
