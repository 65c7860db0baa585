#!/usr/bin/env node
// Compares the full `init` of two or more builds of the CLI on the benchmark's two trees (the
// "bench" tree, most bytes in large tool results; the "mixed" tree, many short lines as well as
// large tool results — test/fixtures/claude-bench-trees.ts), against `wc -l` over the same files.
// Everything runs in one script: per tree, rounds of `wc -l` and each build's `init` on a fresh
// CC_LINKER_HOME, the order rotated every round (in a fixed order the first command after `wc`
// ran ≈ 2.5 % slower, enough to flip a verdict), judged by medians of per-round ratios so a slow
// phase of the machine slows both sides of a round instead of one median.
//
//   node --import tsx scripts/ab-scan.mjs [--dir /tmp/cc-ab-trees] [--trees mixed,bench] [--rounds 9] <dist> [<dist> …]
//
// Each build is a `dist` directory (copy `dist` aside after `npm run build`). The trees are
// written under --dir on first use (with 2,000 sessions each) and kept for the next run. Prints,
// per tree and build: the median `init` time, its ratio to `wc -l`, its ratio to the first build
// (below 1: faster), and the peak RSS (`/usr/bin/time -f %M`, when present).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';

const { values, positionals } = parseArgs({
  options: {
    dir: { type: 'string', default: path.join(os.tmpdir(), 'cc-ab-trees') },
    trees: { type: 'string', default: 'mixed,bench' },
    rounds: { type: 'string', default: '9' },
  },
  allowPositionals: true,
});
if (positionals.length === 0) {
  console.error(
    'usage: node --import tsx scripts/ab-scan.mjs [--dir d] [--trees mixed,bench] [--rounds n] <dist> [<dist> …]',
  );
  process.exit(2);
}
const rounds = Number(values.rounds);
// The entry point of a build: today's launcher, or the single-file entry of builds before it.
const ENTRIES = [path.join('cli', 'launcher', 'cc-linker.js'), path.join('cli', 'cc-linker.cjs')];
const clis = positionals.map((d) => {
  const found = ENTRIES.map((e) => path.resolve(d, e)).find((f) => fs.existsSync(f));
  if (!found) throw new Error(`no build in ${path.resolve(d)} (looked for ${ENTRIES.join(', ')})`);
  return found;
});
const TIME = fs.existsSync('/usr/bin/time') ? '/usr/bin/time' : null;
const rssFile = path.join(os.tmpdir(), `cc-ab-rss-${process.pid}`);

/** The tree's home (with `.claude/projects`), written on first use; its session files. */
async function tree(name) {
  const home = path.join(path.resolve(values.dir), name, 'home');
  const claudeDir = path.join(home, '.claude');
  if (!fs.existsSync(path.join(home, 'complete'))) {
    fs.rmSync(home, { recursive: true, force: true });
    const trees = await import('../test/fixtures/claude-bench-trees.ts');
    const t = performance.now();
    const written =
      name === 'mixed'
        ? trees.writeMixedTree(claudeDir, { sessions: 2000 })
        : trees.writeBenchTree(claudeDir, { sessions: 2000, totalBytes: 512 * 2 ** 20 });
    process.stderr.write(
      `${name}: wrote ${written.files.length} files in ${((performance.now() - t) / 1000).toFixed(0)} s\n`,
    );
    fs.writeFileSync(path.join(home, 'complete'), '');
    spawnSync('sync', [], { stdio: 'ignore' }); // the writeback would otherwise run during the first rounds
  }
  const projects = path.join(claudeDir, 'projects');
  const files = fs.readdirSync(projects, { withFileTypes: true }).flatMap((d) =>
    d.isDirectory()
      ? fs
          .readdirSync(path.join(projects, d.name))
          .filter((f) => f.endsWith('.jsonl'))
          .map((f) => path.join(projects, d.name, f))
      : [],
  );
  const bytes = files.reduce((n, f) => n + fs.statSync(f).size, 0);
  return { home, files, bytes };
}

/** Wall time (and peak RSS in KB when measurable) of one run; stdout discarded, stderr piped. */
function time(env, cmd, args) {
  const argv = TIME ? [TIME, '-f', '%M', '-o', rssFile, cmd, ...args] : [cmd, ...args];
  const t = performance.now();
  const r = spawnSync(argv[0], argv.slice(1), { env, stdio: ['ignore', 'ignore', 'pipe'], maxBuffer: 64 << 20 });
  const ms = performance.now() - t;
  if (r.status !== 0) throw new Error(`${cmd} ${args.slice(0, 2).join(' ')} failed: ${r.stderr}`);
  const rss = TIME ? Number(fs.readFileSync(rssFile, 'utf8').trim().split('\n').pop()) : null;
  return { ms, rss };
}

const median = (a) => {
  const s = [...a].sort((x, y) => x - y);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

for (const name of values.trees.split(',')) {
  const { home, files, bytes } = await tree(name);
  const env = {
    PATH: process.env.PATH,
    HOME: home,
    CC_LINKER_HOME: path.join(home, '.cc-linker'),
    CLAUDE_CONFIG_DIR: path.join(home, '.claude'),
    LANG: 'C',
  };
  const wc = [];
  const runs = clis.map(() => []);
  time(env, 'wc', ['-l', ...files]); // warm the page cache
  for (let i = 0; i < rounds; i += 1) {
    // Round i runs wc, then the builds, starting at build i (mod n+1 places: wc rotates too).
    const order = [-1, ...clis.keys()];
    const shift = i % order.length;
    for (const j of [...order.slice(shift), ...order.slice(0, shift)]) {
      if (j < 0) {
        wc.push(time(env, 'wc', ['-l', ...files]).ms);
        continue;
      }
      fs.rmSync(env.CC_LINKER_HOME, { recursive: true, force: true });
      runs[j].push(time(env, process.execPath, [clis[j], 'init']));
    }
    process.stderr.write(`\r${name}: ${i + 1}/${rounds}`);
  }
  process.stderr.write('\n');
  console.log(
    `\n${name} tree: ${files.length} files, ${(bytes / 2 ** 20).toFixed(0)} MB; wc -l ${median(wc).toFixed(0)} ms (median of ${rounds})`,
  );
  console.log('| build | init (median) | / wc -l | / first build | peak RSS |');
  console.log('|---|---|---|---|---|');
  clis.forEach((_, j) => {
    const ms = runs[j].map((r) => r.ms);
    const vsWc = median(ms.map((v, i) => v / wc[i]));
    const vsFirst = j === 0 ? '1' : median(ms.map((v, i) => v / runs[0][i].ms)).toFixed(3);
    const rss = TIME ? `${(Math.max(...runs[j].map((r) => r.rss)) / 1024).toFixed(0)} MB` : 'n/a';
    console.log(`| ${positionals[j]} | ${median(ms).toFixed(0)} ms | ${vsWc.toFixed(2)}× | ${vsFirst} | ${rss} |`);
  });
}
fs.rmSync(rssFile, { force: true });
