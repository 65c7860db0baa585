#!/usr/bin/env node
// Compares the cold start of two or more builds of the `cc-linker` binary against `node -e 0`, the
// way docs/performance.md says to: every command of every build interleaved in one run, the order
// rotated every round, judged by medians of per-round ratios (never by two numbers taken apart).
//
//   node --import tsx scripts/ab-cold-start.ts --rounds 40 before=/tmp/before/dist/cli/cc-linker.cjs after=dist/cli/launcher/cc-linker.js
//
// Each positional is `<label>=<entry file>` (what the build's `bin` runs). The commands timed are
// `list`, `--version`, `status` and `init` on a small Claude tree (test/fixtures/claude-case-tree.ts's case
// tree, 14 sessions), each build with its own `~/.cc-linker` made by one `init` before the rounds.
// Prints, for wall time and for CPU time (user + system), per command and build: the median, the
// median ratio to `node -e 0`, and for every build after the first its median ratio to the first.
// Needs python3 (its `os.wait4` gives a child's CPU time to the microsecond).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { writeCaseTree } from '../test/fixtures/claude-case-tree.js';

const { values, positionals } = parseArgs({
  options: { rounds: { type: 'string', default: '40' } },
  allowPositionals: true,
});
const builds = positionals.map((p) => {
  const at = p.indexOf('=');
  if (at <= 0) throw new Error(`expected <label>=<entry file>, got ${p}`);
  const entry = path.resolve(p.slice(at + 1));
  if (!fs.existsSync(entry)) throw new Error(`no build at ${entry}`);
  return { label: p.slice(0, at), entry };
});
if (builds.length === 0) {
  console.error('usage: node --import tsx scripts/ab-cold-start.ts [--rounds n] <label>=<entry> [<label>=<entry> …]');
  process.exit(2);
}
const rounds = Number(values.rounds);
const COMMANDS = [['list'], ['--version'], ['status'], ['init']];

const home = fs.mkdtempSync(path.join(os.tmpdir(), 'cc-cold-start-'));
writeCaseTree(path.join(home, '.claude'), new Date());
const envOf = (label: string): NodeJS.ProcessEnv => ({
  PATH: process.env.PATH,
  HOME: home,
  CC_LINKER_HOME: path.join(home, `.cc-linker-${label}`),
  CLAUDE_CONFIG_DIR: path.join(home, '.claude'),
  LANG: 'C',
});

/**
 * Runs `node <args…>` through a small Python shim that forks, execs and reaps it with `wait4`: the
 * child's wall time and its CPU time (user + system, to the microsecond) — on a machine shared with
 * other work the CPU time moves far less than the wall time. stdout goes to /dev/null; stderr is
 * kept for the error message, as the bench runs it.
 */
const SHIM = `
import os, sys, time
devnull = os.open(os.devnull, os.O_WRONLY)
t = time.perf_counter()
pid = os.fork()
if pid == 0:
    os.dup2(devnull, 1)
    os.execv(sys.argv[1], sys.argv[1:])
_, status, ru = os.wait4(pid, 0)
wall = (time.perf_counter() - t) * 1000
os.write(3, f"{os.waitstatus_to_exitcode(status)} {wall} {(ru.ru_utime + ru.ru_stime) * 1000}".encode())
`;
function time(args: string[], env: NodeJS.ProcessEnv): { wall: number; cpu: number } {
  const r = spawnSync('python3', ['-c', SHIM, process.execPath, ...args], {
    env,
    stdio: ['ignore', 'ignore', 'pipe', 'pipe'],
    encoding: 'utf8',
  });
  const [status, wall, cpu] = String(r.output[3] ?? '')
    .split(' ')
    .map(Number);
  if (status !== 0) throw new Error(`node ${args.join(' ')} failed (${status ?? r.error?.message}): ${r.stderr}`);
  return { wall: wall as number, cpu: cpu as number };
}

try {
  for (const b of builds) time([b.entry, 'init'], envOf(b.label));
  // One unit per (build, command), plus `node -e 0`; each round runs them all in a rotated order.
  const units = [
    { name: 'node -e 0', args: ['-e', '0'], env: envOf('bare') },
    ...builds.flatMap((b) =>
      COMMANDS.map((c) => ({ name: `${b.label} ${c.join(' ')}`, args: [b.entry, ...c], env: envOf(b.label) })),
    ),
  ];
  const runs = units.map((): { wall: number; cpu: number }[] => []);
  for (const u of units) time(u.args, u.env); // warm the page cache
  for (let i = 0; i < rounds; i += 1) {
    for (let k = 0; k < units.length; k += 1) {
      const j = (i + k) % units.length;
      const u = units[j] as (typeof units)[number];
      runs[j]?.push(time(u.args, u.env));
    }
    process.stderr.write(`\r${i + 1}/${rounds}`);
  }
  process.stderr.write('\n');
  const median = (a: number[]) => [...a].sort((x, y) => x - y)[a.length >> 1] as number;
  for (const kind of ['wall', 'cpu'] as const) {
    const of = (j: number) => (runs[j] ?? []).map((r) => r[kind]);
    const bare = of(0);
    console.log(
      `\n${kind === 'wall' ? 'Wall' : 'CPU (user + sys)'} time — Node ${process.version}, ${os.cpus().length} CPUs, ${rounds} rounds; node -e 0 ${median(bare).toFixed(1)} ms`,
    );
    for (const c of COMMANDS) {
      const name = c.join(' ');
      const first = of(units.findIndex((u) => u.name === `${builds[0]?.label} ${name}`));
      for (const b of builds) {
        const mine = of(units.findIndex((u) => u.name === `${b.label} ${name}`));
        const vsBare = median(mine.map((v, i) => v / (bare[i] as number)));
        const vsFirst =
          b === builds[0]
            ? ''
            : `  ${median(mine.map((v, i) => v / (first[i] as number))).toFixed(3)}× ${builds[0]?.label}`;
        console.log(
          `${name.padEnd(10)} ${b.label.padEnd(12)} ${median(mine).toFixed(1).padStart(6)} ms  ${vsBare.toFixed(2)}× node -e 0${vsFirst}`,
        );
      }
    }
  }
} finally {
  fs.rmSync(home, { recursive: true, force: true });
}
