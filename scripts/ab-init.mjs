#!/usr/bin/env node
// Compares the full `init` of two or more builds against `wc -l` over the same files, the way
// docs/performance.md says to: interleaved in one run, the order rotated every round (a fixed order
// charges ≈ 2.5 % to whichever command runs first), judged by medians of per-round ratios.
//
//   node scripts/ab-init.mjs --home /tmp/tree/home --rounds 40 /tmp/a/dist /tmp/b/dist
//
// --home is a directory holding a Claude tree in .claude/projects, e.g. the bench's, written by
//   npx tsx -e "import('./test/fixtures/claude-tree.ts').then((m) => m.writeBenchTree('/tmp/tree/home/.claude', { sessions: 2000, totalBytes: 512 * 2 ** 20 }))"
// Each build is a `dist` directory with a `node_modules` above it (the binary imports commander):
// copy `dist` aside after `npm run build` into a directory that holds a `node_modules` link, or
// build in a scratch git worktree. The tree's
// `.cc-linker` is deleted before every run. Prints the median time of each build, its ratio to
// `wc -l`, and its ratio to the first build.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';

const { values, positionals } = parseArgs({
  options: { home: { type: 'string' }, rounds: { type: 'string', default: '40' } },
  allowPositionals: true,
});
if (!values.home || positionals.length === 0) {
  console.error('usage: node scripts/ab-init.mjs --home <dir with .claude/projects> [--rounds n] <dist> [<dist> …]');
  process.exit(2);
}
const home = path.resolve(values.home);
const rounds = Number(values.rounds);
// The binary of each build; `cli/cc-linker.cjs` in builds made before the launcher moved to `cli/launcher/`.
const clis = positionals.map((d) =>
  [path.resolve(d, 'cli', 'launcher', 'cc-linker.js'), path.resolve(d, 'cli', 'cc-linker.cjs')].find((f) =>
    fs.existsSync(f),
  ),
);
clis.forEach((cli, j) => {
  if (!cli) throw new Error(`no build in ${positionals[j]}`);
});
const projects = path.join(home, '.claude', 'projects');
const files = fs.readdirSync(projects, { withFileTypes: true }).flatMap((d) =>
  d.isDirectory()
    ? fs
        .readdirSync(path.join(projects, d.name))
        .filter((f) => f.endsWith('.jsonl'))
        .map((f) => path.join(projects, d.name, f))
    : [],
);
const env = {
  PATH: process.env.PATH,
  HOME: home,
  CC_LINKER_HOME: path.join(home, '.cc-linker'),
  CLAUDE_CONFIG_DIR: path.join(home, '.claude'),
  LANG: 'C',
};

/** Wall time of one run, stdout discarded and stderr piped, as the bench runs it. */
function time(cmd, args) {
  const t = performance.now();
  const r = spawnSync(cmd, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
  if (r.status !== 0) throw new Error(`${cmd} ${args.slice(0, 2).join(' ')} failed: ${r.stderr}`);
  return performance.now() - t;
}

const wc = [];
const runs = clis.map(() => []);
time('wc', ['-l', ...files]); // warm the page cache
for (let i = 0; i < rounds; i += 1) {
  wc.push(time('wc', ['-l', ...files]));
  for (let k = 0; k < clis.length; k += 1) {
    const j = (i + k) % clis.length;
    fs.rmSync(env.CC_LINKER_HOME, { recursive: true, force: true });
    runs[j].push(time(process.execPath, [clis[j], 'init']));
  }
  process.stderr.write(`\r${i + 1}/${rounds}`);
}
process.stderr.write('\n');
const median = (a) => [...a].sort((x, y) => x - y)[a.length >> 1];
console.log(`${files.length} files; wc -l ${median(wc).toFixed(1)} ms`);
clis.forEach((cli, j) => {
  const vsWc = median(runs[j].map((v, i) => v / wc[i]));
  const vsFirst = j === 0 ? '' : `  ${median(runs[j].map((v, i) => v / runs[0][i])).toFixed(3)}× the first`;
  console.log(`${positionals[j]}: ${median(runs[j]).toFixed(1)} ms, ${vsWc.toFixed(3)}× wc -l${vsFirst}`);
});
