import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Small fake child programs for the process runner's tests and benchmark, written to a temp dir and
 * run with `process.execPath`, plus an independent probe of whether a process group is gone.
 */
const SCRIPTS = {
  /** `exit.cjs <code>` — exits with that code. */
  exit: `process.exit(Number(process.argv[2] ?? 0));`,
  /** `signal.cjs <SIG>` — kills itself with that signal. */
  signal: `process.kill(process.pid, process.argv[2]); setInterval(() => {}, 1000);`,
  /** `bytes.cjs <text> <stdout|stderr>` — writes the UTF-8 bytes of text one byte per write, 3 ms apart. */
  bytes: `
    const bytes = Buffer.from(process.argv[2], 'utf8');
    const stream = process.argv[3] === 'stderr' ? process.stderr : process.stdout;
    let i = 0;
    const next = () => { if (i >= bytes.length) return; stream.write(bytes.subarray(i, i + 1), () => setTimeout(next, 3)); i += 1; };
    next();`,
  /** `flood.cjs <stdoutBytes> <stderrBytes>` — writes that many 'o' / 'e' bytes. */
  flood: `
    process.stdout.write(Buffer.alloc(Number(process.argv[2]), 'o'));
    process.stderr.write(Buffer.alloc(Number(process.argv[3]), 'e'));`,
  /** `ticker.cjs <everyMs> <forMs>` — prints a line at once and every everyMs for forMs, then exits 0. */
  ticker: `
    const every = Number(process.argv[2]); const until = Date.now() + Number(process.argv[3]);
    process.stdout.write('start\\n');
    const t = setInterval(() => { process.stdout.write('tick\\n'); if (Date.now() >= until) { clearInterval(t); } }, every);`,
  /** `silent.cjs` — prints 'ready' once, then sleeps silently forever. */
  silent: `process.stdout.write('ready\\n'); setInterval(() => {}, 1000);`,
  /** `echo-stdin.cjs` — copies stdin to stdout, upper-cased, and exits when stdin ends. */
  echoStdin: `
    const parts = []; process.stdin.on('data', (c) => parts.push(c));
    process.stdin.on('end', () => process.stdout.write(Buffer.concat(parts).toString('utf8').toUpperCase()));`,
  /** `lines.cjs` — 'one\\ntwo\\n三\\npartial' with no final newline. */
  lines: `process.stdout.write('one\\ntwo\\n三\\npartial');`,
  /**
   * `stubborn.cjs <n>` — ignores SIGTERM, starts n grandchildren in its group that also ignore SIGTERM
   * and inherit its stdout (so they hold the pipe), prints 'gc-ready <pid>' per grandchild and then
   * 'ready', and sleeps forever.
   */
  stubborn: `
    const { spawn } = require('node:child_process');
    process.on('SIGTERM', () => {});
    const n = Number(process.argv[2] ?? 0);
    const gc = "process.on('SIGTERM', () => {}); process.stdout.write('gc-ready ' + process.pid + '\\\\n'); setInterval(() => {}, 1000);";
    let ready = 0;
    for (let i = 0; i < n; i += 1) {
      const c = spawn(process.execPath, ['-e', gc], { stdio: ['ignore', 'pipe', 'inherit'] });
      c.stdout.once('data', (d) => { process.stdout.write(d); ready += 1; if (ready === n) process.stdout.write('ready\\n'); });
      c.stdout.on('data', () => {});
    }
    if (n === 0) process.stdout.write('ready\\n');
    setInterval(() => {}, 1000);`,
  /**
   * `orphan.cjs` — starts a grandchild that inherits stdout and lives on, prints 'bye', and exits 0
   * at once: the pipes stay open after the direct child is gone.
   */
  orphan: `
    const { spawn } = require('node:child_process');
    const c = spawn(process.execPath, ['-e', "process.stdout.write('gc-ready\\\\n'); setInterval(() => {}, 1000);"], { stdio: ['ignore', 'inherit', 'inherit'] });
    setTimeout(() => { process.stdout.write('bye ' + c.pid + '\\n'); process.exit(0); }, 200);`,
} as const;

/** Paths of the written scripts, by name. */
export type FakeChildren = { readonly dir: string } & { readonly [K in keyof typeof SCRIPTS]: string };

/** Writes every fake child script into a new temp dir; remove it with `removeFakeChildren`. */
export function writeFakeChildren(): FakeChildren {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cc-linker-fake-children-'));
  const files: Record<string, string> = { dir };
  for (const [name, source] of Object.entries(SCRIPTS)) {
    const file = path.join(dir, `${name}.cjs`);
    fs.writeFileSync(file, source);
    files[name] = file;
  }
  return files as FakeChildren;
}

/** Deletes the temp dir of `writeFakeChildren`. */
export function removeFakeChildren(children: FakeChildren): void {
  fs.rmSync(children.dir, { recursive: true, force: true });
}

/**
 * True when no running process of group `pgid` is left. Independent of the runner's own check: the
 * signal probe first, then `ps` (a zombie — state Z — waiting for a parent that never reaps it in
 * some containers is not running and cannot be killed, so it does not count).
 */
export function isGroupGone(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ESRCH';
  }
  const rows = execFileSync('ps', ['-eo', 'pgid=,stat='], { encoding: 'utf8' }).split('\n');
  return !rows.some((row) => {
    const [group, stat] = row.trim().split(/\s+/);
    return Number(group) === pgid && stat !== undefined && !stat.startsWith('Z');
  });
}

/** Polls `isGroupGone` for up to `timeoutMs`; true as soon as the group is gone. */
export async function waitGroupGone(pgid: number, timeoutMs = 5000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (isGroupGone(pgid)) return true;
    if (Date.now() >= deadline) return false;
    await sleep(25);
  }
}

/** Test clean-up: SIGKILL whatever is left of these groups. */
export function killGroups(pgids: Iterable<number>): void {
  for (const pgid of pgids) {
    try {
      process.kill(-pgid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
}
