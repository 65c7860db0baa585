// Resident memory of processes and process groups, read from /proc (Linux only): VmRSS of each
// process, summed over a group. Shared pages are counted once per process, as `ps` does.
import fs from 'node:fs';

/** VmRSS of a process in MB, or null once it is gone. */
export function rssMb(pid: number): number | null {
  try {
    const m = /VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : null;
  } catch {
    return null;
  }
}

/** The pids whose process group is `pgid` (the group leader included while alive). */
export function groupPids(pgid: number): number[] {
  const out: number[] = [];
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8');
      // Fields after the command (which may hold spaces and parentheses): state ppid pgrp …
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[2]) === pgid) out.push(Number(name));
    } catch {
      /* exited while listing */
    }
  }
  return out;
}

/** Sum of VmRSS over the process group `pgid` in MB, with how many processes it counted. */
export function groupRssMb(pgid: number): { mb: number; processes: number } {
  let mb = 0;
  let processes = 0;
  for (const pid of groupPids(pgid)) {
    const r = rssMb(pid);
    if (r === null) continue;
    mb += r;
    processes += 1;
  }
  return { mb, processes };
}
