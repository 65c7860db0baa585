// `npm run bench`: runs every bench/*.bench.ts in its own child process, one after the other (never
// in parallel: the figures are timings), collects each bench's figures (BENCH lines, see report.ts;
// a markdown table for a bench that does not print them), writes bench/results/latest.json and the
// table between the `<!-- bench:start -->` / `<!-- bench:end -->` markers of README.md.
//   npm run bench -- [--only <name>[,<name>…]] [--quick] [--no-write]
// --only: run just these benches (the others keep their last result in latest.json and the README);
// --quick: smaller sizes for a fast check (marked "(quick)" in the table); --no-write: print only.
// A bench exits non-zero or times out → its row says so and the exit code is 1; a missed goal is a
// result, not a failure.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { collectFigures } from './collect-figures.js';
import { renderSection, spliceReadme } from './readme-section.js';
import { machineInfo, type BenchResults, type BenchRun } from './report.js';

const BENCH_DIR = import.meta.dirname;
const ROOT = path.resolve(BENCH_DIR, '..');
const RESULTS = path.join(BENCH_DIR, 'results', 'latest.json');
const README = path.join(ROOT, 'README.md');
/** Run order (cheap first) and the benches the issues ask for: a missing one is reported as skipped. */
const EXPECTED = ['runner', 'bridge', 'feishu', 'ccexec', 'ask', 'engine', 'warm', 'stop', 'sessions'];
/** Smaller sizes for --quick (benches read CC_LINKER_BENCH_QUICK; sessions.bench reads SESSIONS/BENCH_MB). */
const QUICK_ENV: Record<string, string> = { CC_LINKER_BENCH_QUICK: '1', SESSIONS: '200', BENCH_MB: '40' };

const { values: args } = parseArgs({
  options: {
    only: { type: 'string', multiple: true },
    quick: { type: 'boolean', default: false },
    'no-write': { type: 'boolean', default: false },
  },
  allowPositionals: false,
});
const quick = args.quick ?? false;
const timeoutMs = (quick ? 5 : 15) * 60_000;

function discover(): string[] {
  const present = fs
    .readdirSync(BENCH_DIR)
    .filter((f) => f.endsWith('.bench.ts'))
    .map((f) => f.slice(0, -'.bench.ts'.length));
  const rank = (n: string) => (EXPECTED.includes(n) ? EXPECTED.indexOf(n) : EXPECTED.length);
  return [...new Set([...EXPECTED, ...present])].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
}

let current: number | undefined;
process.on('SIGINT', () => {
  try {
    if (current !== undefined) process.kill(-current, 'SIGKILL');
  } catch {
    /* already gone */
  }
  process.exit(130);
});

/** Runs one bench to completion (or its timeout), echoing its human output. */
async function runBench(name: string): Promise<BenchRun> {
  const file = path.join(BENCH_DIR, `${name}.bench.ts`);
  const base = { name, measuredAt: new Date().toISOString(), quick, loadAverage: machineInfo().loadAverage };
  if (!fs.existsSync(file))
    return {
      ...base,
      status: 'skipped',
      reason: `bench/${name}.bench.ts not present`,
      durationMs: 0,
      source: 'none',
      figures: [],
    };
  process.stdout.write(`\n━━ ${name} (load average ${base.loadAverage.join(' / ')}) ━━\n`);
  const env = { ...process.env };
  if (quick) for (const [k, v] of Object.entries(QUICK_ENV)) env[k] ??= v;
  const t0 = performance.now();
  const child = spawn(process.execPath, ['--import', 'tsx', file, ...(quick ? ['--quick'] : [])], {
    cwd: ROOT,
    env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  current = child.pid;
  let stdout = '';
  let stderr = '';
  let echoed = 0;
  child.stdout.on('data', (d: Buffer) => {
    stdout += d.toString();
    // Echo whole lines only, without the BENCH protocol lines (the human table says the same).
    const upTo = stdout.lastIndexOf('\n') + 1;
    process.stdout.write(stdout.slice(echoed, upTo).replace(/^BENCH .*\n/gm, ''));
    echoed = Math.max(echoed, upTo);
  });
  child.stderr.on('data', (d: Buffer) => {
    stderr = (stderr + d.toString()).slice(-8000);
    process.stderr.write(d);
  });
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
  }, timeoutMs);
  const code = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
  clearTimeout(timer);
  // Whatever the bench left in its group (it should have cleaned up) goes with it.
  try {
    if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
  } catch {
    /* group already gone */
  }
  current = undefined;
  const { figures, source } = collectFigures(stdout);
  const durationMs = Math.round(performance.now() - t0);
  if (timedOut)
    return {
      ...base,
      status: 'timeout',
      reason: `no result within ${timeoutMs / 60_000} min`,
      durationMs,
      source,
      figures,
      stderrTail: stderr.slice(-2000),
    };
  if (code !== 0) {
    const lines = stderr.trim().split('\n');
    const last =
      lines.find((l) => /^\s*(\w*Error|AppError)\b[^:]*:/.test(l)) ??
      lines.filter((l) => !/^\s+at /.test(l)).pop() ??
      '';
    return {
      ...base,
      status: 'failed',
      reason: `exit ${code}: ${last.slice(0, 200)}`,
      durationMs,
      source,
      figures,
      stderrTail: stderr.slice(-2000),
    };
  }
  return { ...base, status: 'ok', durationMs, source, figures };
}

function previous(): BenchRun[] {
  try {
    return (JSON.parse(fs.readFileSync(RESULTS, 'utf8')) as BenchResults).benches ?? [];
  } catch {
    return [];
  }
}

async function main(): Promise<number> {
  const all = discover();
  const only = (args.only ?? [])
    .flatMap((o) => o.split(','))
    .map((o) => o.trim().replace(/\.bench\.ts$/, ''))
    .filter(Boolean);
  const unknown = only.filter((o) => !all.includes(o));
  const selected = only.length > 0 ? [...all.filter((n) => only.includes(n)), ...unknown] : all;
  const results: BenchResults = { measuredAt: new Date().toISOString(), machine: machineInfo(), benches: [] };
  process.stdout.write(
    `cc-linker benchmarks${quick ? ' (--quick)' : ''}: ${selected.join(', ')} — ${results.machine.cores} cores, load average ${results.machine.loadAverage.join(' / ')}, Node ${results.machine.node}\n`,
  );

  const ran = new Map<string, BenchRun>();
  for (const name of selected) ran.set(name, await runBench(name));
  const kept = previous().filter((b) => !ran.has(b.name) && all.includes(b.name));
  const byName = new Map([...kept, ...ran.values()].map((b) => [b.name, b]));
  results.benches = [...all, ...unknown].map((n) => byName.get(n)).filter((b): b is BenchRun => b !== undefined);

  const section = renderSection(results);
  process.stdout.write(`\n${section}\n`);
  fs.mkdirSync(path.dirname(RESULTS), { recursive: true });
  fs.writeFileSync(RESULTS, `${JSON.stringify(results, null, 2)}\n`);
  process.stdout.write(`\nresults: ${path.relative(ROOT, RESULTS)}\n`);
  if (!args['no-write']) {
    // Re-read right before writing: README.md is edited by hand too; only the marked part changes.
    const readme = fs.existsSync(README) ? fs.readFileSync(README, 'utf8') : null;
    fs.writeFileSync(README, spliceReadme(readme, section));
    process.stdout.write(
      `README.md: performance section ${readme === null ? 'created (README.md did not exist)' : 'updated'}\n`,
    );
  }
  return [...ran.values()].some((b) => b.status === 'failed' || b.status === 'timeout') ? 1 : 0;
}

process.exitCode = await main();
