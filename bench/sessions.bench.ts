// The session scanner and the CLI, measured against baselines taken in the same run on two generated
// ~/.claude trees (test/fixtures/claude-bench-trees.ts, deleted afterwards): the "bench" tree
// (≥ 2,000 sessions, ≥ 500 MB, most bytes in large tool results) and the "mixed" tree (as many
// sessions, most lines short — prompts, answers, bookkeeping — with large tool results now and then):
//  1. full `cc-linker init` (cold scan cache, warm page cache) as a ratio to `wc -l` over the same
//     files (median of the ratios of interleaved pairs), on each tree;
//  2. `cc-linker sync` with nothing changed, median wall time as a ratio to `node -e 0` (bench tree);
//  3. `cc-linker list` cold start as a ratio to `node -e 0` (median of interleaved rounds' ratios);
//  4. peak RSS of `init` (/usr/bin/time -f %M, else polling /proc/<pid>/status VmHWM);
//  and, for reference, `cc-linker --version` (what loading the CLI alone costs).
// Run: node --import tsx bench/sessions.bench.ts (needs `npm run build`; runs the `bin`,
// dist/cli/launcher/cc-linker.js; CC_LINKER_BENCH_CLI overrides the CLI entry, SESSIONS/BENCH_MB the
// tree size). Goals: `sync` ≤ 3× and `list` ≤ 2.5× `node -e 0` (what a user meets every day), peak
// RSS ≤ 150 MB; a full `init` runs once, so it is reported without a goal.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { writeBenchTree, writeMixedTree, type WrittenTree } from '../test/fixtures/claude-bench-trees.js';
import { atMost, emitFigure, round } from './report.js';

const SESSIONS = Number(process.env.SESSIONS ?? 2000);
const BYTES = Number(process.env.BENCH_MB ?? 512) * 1024 * 1024;
const CLI = path.resolve(
  process.env.CC_LINKER_BENCH_CLI ?? path.join(import.meta.dirname, '..', 'dist', 'cli', 'launcher', 'cc-linker.js'),
);
const node = process.execPath;
const TIME = fs.existsSync('/usr/bin/time') ? '/usr/bin/time' : null;
/** Interleaved `wc -l` / `init` pairs on the bench tree; the machine's noise needs more than 9. */
const INIT_RUNS = 16;
/** The same on the mixed tree, whose `init` takes a few times longer. */
const MIXED_INIT_RUNS = 9;
/** Interleaved `node -e 0` / `--version` / `list` rounds. */
const LIST_RUNS = 15;

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
}

/** Runs a command to completion; returns wall ms and peak RSS in KB (when measurable). */
async function timed(
  argv: string[],
  env: NodeJS.ProcessEnv,
): Promise<{ ms: number; rssKb: number | null; code: number; stderr: string }> {
  const rssFile = path.join(os.tmpdir(), `cc-bench-rss-${process.pid}`);
  const full = TIME ? [TIME, '-f', '%M', '-o', rssFile, ...argv] : argv;
  const t0 = performance.now();
  let hwm = 0;
  const { code, stderr } = await new Promise<{ code: number; stderr: string }>((resolve) => {
    const child = spawn(full[0] as string, full.slice(1), { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    const poll = TIME
      ? null
      : setInterval(() => {
          try {
            const m = /VmHWM:\s+(\d+)/.exec(fs.readFileSync(`/proc/${child.pid}/status`, 'utf8'));
            if (m) hwm = Math.max(hwm, Number(m[1]));
          } catch {
            /* exited */
          }
        }, 5);
    child.on('close', (c) => {
      if (poll) clearInterval(poll);
      resolve({ code: c ?? 1, stderr: err });
    });
  });
  const ms = performance.now() - t0;
  let rssKb: number | null = hwm || null;
  if (TIME) {
    rssKb = Number(fs.readFileSync(rssFile, 'utf8').trim().split('\n').pop());
    fs.rmSync(rssFile, { force: true });
  }
  return { ms, rssKb, code, stderr };
}

/** Writes a tree with `write`, saying how long it took. */
function generate(name: string, write: () => WrittenTree): WrittenTree {
  const t0 = performance.now();
  const tree = write();
  process.stderr.write(
    `${name} tree: ${tree.files.length} sessions, ${(tree.bytes / 1024 / 1024).toFixed(0)} MB, ${tree.lines} lines in ${((performance.now() - t0) / 1000).toFixed(1)} s\n`,
  );
  return tree;
}

/**
 * Full `init` (on a fresh CC_LINKER_HOME) against `wc -l` over the same files, in `pairs`
 * interleaved pairs judged by the median of the per-pair ratios: a slow phase of the machine then
 * slows both sides of a pair instead of skewing one median. The order alternates (wc first, then
 * init first): on this machine whichever command runs first in a round was ≈ 2.5 % slower, which a
 * fixed order would charge to one side every time.
 */
async function initAgainstWc(
  files: string[],
  env: NodeJS.ProcessEnv,
  pairs: number,
): Promise<{ wc: number; init: number; ratio: number; rssKb: number; pairs: number }> {
  // Let the kernel write the new tree back first (its writeback would otherwise run during the
  // first pairs), warm the page cache for both contestants, then interleave runs.
  spawnSync('sync', [], { stdio: 'ignore' });
  spawnSync('wc', ['-l', ...files], { stdio: 'ignore' });
  const wcRuns: number[] = [];
  const initRuns: { ms: number; rssKb: number | null }[] = [];
  const runWc = async () => wcRuns.push((await timed(['wc', '-l', ...files], env)).ms);
  const runInit = async () => {
    fs.rmSync(env.CC_LINKER_HOME as string, { recursive: true, force: true });
    const r = await timed([node, CLI, 'init'], env);
    if (r.code !== 0) throw new Error(`init failed (${r.code}): ${r.stderr}`);
    initRuns.push(r);
  };
  for (let i = 0; i < pairs; i += 1) {
    if (i % 2 === 0) {
      await runWc();
      await runInit();
    } else {
      await runInit();
      await runWc();
    }
  }
  return {
    wc: median(wcRuns),
    init: median(initRuns.map((r) => r.ms)),
    ratio: median(initRuns.map((r, i) => r.ms / (wcRuns[i] as number))),
    rssKb: Math.max(...initRuns.map((r) => r.rssKb ?? 0)),
    pairs,
  };
}

async function main(): Promise<void> {
  if (!fs.existsSync(CLI)) throw new Error(`CLI not built: ${CLI} (run npm run build)`);
  const help = spawnSync(node, [CLI, '--help'], { encoding: 'utf8' });
  if (!/\binit\b/.test(help.stdout) || !/\blist\b/.test(help.stdout))
    throw new Error(
      `${CLI} does not register the session commands (init/list); register them in src/cli/launcher/command-loaders.ts or set CC_LINKER_BENCH_CLI`,
    );

  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cc-bench-sessions-'));
  try {
    const home = path.join(tmp, 'home');
    const claudeDir = path.join(home, '.claude');
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      HOME: home,
      CC_LINKER_HOME: path.join(home, '.cc-linker'),
      CLAUDE_CONFIG_DIR: claudeDir,
      LANG: 'C',
    };
    const { files, bytes } = generate('bench', () =>
      writeBenchTree(claudeDir, { sessions: SESSIONS, totalBytes: BYTES }),
    );
    const bench = await initAgainstWc(files, env, INIT_RUNS);
    const mixedHome = path.join(tmp, 'mixed');
    const mixedClaude = path.join(mixedHome, '.claude');
    const mixedEnv: NodeJS.ProcessEnv = {
      ...env,
      HOME: mixedHome,
      CC_LINKER_HOME: path.join(mixedHome, '.cc-linker'),
      CLAUDE_CONFIG_DIR: mixedClaude,
    };
    const mixedTree = generate('mixed', () => writeMixedTree(mixedClaude, { sessions: SESSIONS }));
    const mixed = await initAgainstWc(mixedTree.files, mixedEnv, MIXED_INIT_RUNS);
    fs.rmSync(mixedHome, { recursive: true, force: true });
    const { wc, init, ratio: initRatio, rssKb: rss } = bench;

    const syncRuns: number[] = [];
    await timed([node, CLI, 'sync'], env);
    for (let i = 0; i < 7; i += 1) {
      const r = await timed([node, CLI, 'sync'], env);
      if (r.code !== 0) throw new Error(`sync failed: ${r.stderr}`);
      syncRuns.push(r.ms);
    }
    const listRuns: number[] = [];
    const nodeRuns: number[] = [];
    const versionRuns: number[] = [];
    for (let i = 0; i < LIST_RUNS; i += 1) {
      nodeRuns.push((await timed([node, '-e', '0'], env)).ms);
      versionRuns.push((await timed([node, CLI, '--version'], env)).ms);
      const r = await timed([node, CLI, 'list'], env);
      if (r.code !== 0) throw new Error(`list failed: ${r.stderr}`);
      listRuns.push(r.ms);
    }

    const sync = median(syncRuns);
    const list = median(listRuns);
    const bare = median(nodeRuns);
    const version = median(versionRuns);
    // As for init: the median of each round's own ratio, so a slow moment slows both sides.
    const listRatio = median(listRuns.map((ms, i) => ms / (nodeRuns[i] as number)));
    const versionRatio = median(versionRuns.map((ms, i) => ms / (nodeRuns[i] as number)));
    const row = (figure: string, value: string, goal: string, baseline: string) =>
      `| ${figure} | ${value} | ${goal} | ${baseline} |`;
    console.log(
      `\nSessions benchmark: ${files.length} sessions, ${(bytes / 1024 / 1024).toFixed(0)} MB, ${os.cpus().length} CPUs, Node ${process.version}\n`,
    );
    console.log('| figure | value | goal | baseline (same run) |');
    console.log('|---|---|---|---|');
    console.log(
      row(
        'full `init` / `wc -l`',
        `${initRatio.toFixed(2)}x (${init.toFixed(0)} ms)`,
        '- (runs once)',
        `wc -l ${wc.toFixed(0)} ms`,
      ),
    );
    console.log(
      row(
        `full \`init\` / \`wc -l\`, mixed tree (${mixedTree.lines} lines)`,
        `${mixed.ratio.toFixed(2)}x (${mixed.init.toFixed(0)} ms)`,
        '-',
        `wc -l ${mixed.wc.toFixed(0)} ms`,
      ),
    );
    const syncRatio = sync / bare;
    console.log(
      row(
        '`sync`, nothing changed / `node -e 0`',
        `${syncRatio.toFixed(2)}x (${sync.toFixed(0)} ms)`,
        '≤ 3.0x',
        `node -e 0 ${bare.toFixed(0)} ms`,
      ),
    );
    console.log(
      row(
        '`list` cold start / `node -e 0`',
        `${listRatio.toFixed(2)}x (${list.toFixed(0)} ms)`,
        '≤ 2.5x',
        `node -e 0 ${bare.toFixed(0)} ms`,
      ),
    );
    console.log(
      row(
        "`--version` cold start / `node -e 0` (the CLI's module-load floor, for reference)",
        `${versionRatio.toFixed(2)}x (${version.toFixed(0)} ms)`,
        '-',
        `node -e 0 ${bare.toFixed(0)} ms`,
      ),
    );
    console.log(
      row(
        'peak RSS of `init`',
        rss ? `${(rss / 1024).toFixed(0)} MB` : 'n/a',
        '≤ 150 MB',
        TIME ? '/usr/bin/time -f %M' : '/proc VmHWM polling',
      ),
    );
    const tree = `${files.length} sessions, ${(bytes / 1024 / 1024).toFixed(0)} MB`;
    emitFigure({
      figure: `full \`init\` / \`wc -l\` over the same files (${tree})`,
      value: round(initRatio),
      unit: '×',
      // A full init runs once, at install; day to day `sync` reads only what changed.
      goal: null,
      baseline: `wc -l: ${wc.toFixed(0)} ms`,
      met: null,
      note: `median of ${bench.pairs} interleaved pairs' ratios; init ${init.toFixed(0)} ms`,
    });
    const mixedName = `${mixedTree.files.length} sessions, ${(mixedTree.bytes / 1024 / 1024).toFixed(0)} MB, ${mixedTree.lines} lines`;
    emitFigure({
      figure: `full \`init\` / \`wc -l\` on the mixed tree (${mixedName})`,
      value: round(mixed.ratio),
      unit: '×',
      goal: null,
      baseline: `wc -l: ${mixed.wc.toFixed(0)} ms`,
      met: null,
      note: `median of ${mixed.pairs} interleaved pairs' ratios; init ${mixed.init.toFixed(0)} ms, peak RSS ${(mixed.rssKb / 1024).toFixed(0)} MB`,
    });
    emitFigure({
      figure: `\`sync\` with nothing changed / \`node -e 0\` (${tree})`,
      value: round(sync / bare),
      unit: '×',
      goal: '≤ 3.0×',
      baseline: `node -e 0: ${bare.toFixed(0)} ms`,
      met: atMost(sync / bare, 3),
      note: `sync ${sync.toFixed(0)} ms, median of ${syncRuns.length}`,
    });
    emitFigure({
      figure: '`cc-linker list` cold start / `node -e 0`',
      value: round(listRatio),
      unit: '×',
      goal: '≤ 2.5×',
      baseline: `node -e 0: ${bare.toFixed(0)} ms`,
      met: atMost(listRatio, 2.5),
      note: `list ${list.toFixed(0)} ms, \`--version\` ${versionRatio.toFixed(2)}× (${version.toFixed(0)} ms); median of ${listRuns.length} interleaved rounds' ratios`,
    });
    emitFigure({
      figure: `peak RSS of \`init\` (${tree})`,
      value: rss ? round(rss / 1024) : null,
      unit: 'MB',
      goal: '≤ 150 MB',
      baseline: null,
      met: rss ? atMost(rss / 1024, 150) : null,
      note: TIME ? '/usr/bin/time -f %M' : '/proc VmHWM polling',
    });
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

await main();
