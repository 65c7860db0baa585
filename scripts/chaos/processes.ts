import fs from 'node:fs';

/** A process found by {@link findProcesses}. */
export interface FoundProcess {
  pid: number;
  cmdline: string;
}

function readProc(pid: string, file: 'cmdline' | 'environ'): string {
  try {
    return fs.readFileSync(`/proc/${pid}/${file}`, 'latin1').replace(/\0/g, ' ');
  } catch {
    return '';
  }
}

/**
 * Processes (other than this one) whose command line or environment mentions `needle` — the
 * sandbox root for "leftover processes", or a claude binary path for "kill a claude child".
 * Linux only (reads /proc); elsewhere it finds nothing.
 */
export function findProcesses(needle: string, opts: { inCmdline?: string } = {}): FoundProcess[] {
  let pids: string[] = [];
  try {
    pids = fs.readdirSync('/proc').filter((n) => /^\d+$/.test(n));
  } catch {
    return [];
  }
  const found: FoundProcess[] = [];
  for (const pid of pids) {
    if (Number(pid) === process.pid) continue;
    const cmdline = readProc(pid, 'cmdline');
    if (cmdline === '') continue; // gone, or a zombie
    if (opts.inCmdline !== undefined && !cmdline.includes(opts.inCmdline)) continue;
    if (cmdline.includes(needle) || readProc(pid, 'environ').includes(needle))
      found.push({ pid: Number(pid), cmdline: cmdline.trim().slice(0, 200) });
  }
  return found;
}

/** SIGKILLs one process by id; false when it was already gone. */
export function killPid(pid: number): boolean {
  try {
    process.kill(pid, 'SIGKILL');
    return true;
  } catch {
    return false;
  }
}
