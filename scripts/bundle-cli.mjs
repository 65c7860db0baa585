#!/usr/bin/env node
// Bundles the `cc-linker` binary's first stage: dist/cli/cc-linker.cjs (src/cli/hot-main.ts) and
// one CommonJS file per hot command, dist/cli/hot/<name>.cjs (see src/cli/hot-commands.ts), so those
// commands start without Node's ES-module loader; likewise the SessionStart hook Claude Code runs,
// dist/sessions/session-start-hook.cjs. Everything else is handed to dist/cli/main.js,
// which stays external. Pure-JS packages the hot commands use (smol-toml) are inlined; the build
// fails when a bundle would still import a package at run time, or use `import.meta` (neither
// works, or is wanted, in these files). Each hot bundle gets a V8 code cache beside it.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { builtinModules } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import vm from 'node:vm';
import { build } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const cliDir = path.join(root, 'dist', 'cli');
const builtins = new Set([...builtinModules, ...builtinModules.map((m) => `node:${m}`)]);
const { HOT_COMMANDS, hotBundlePath, commonJsWrapper, CODE_CACHE_SUFFIX } = await import(
  pathToFileURL(path.join(cliDir, 'hot-commands.js')).href
);

const common = { bundle: true, platform: 'node', format: 'cjs', target: 'node20', metafile: true, logLevel: 'silent' };
const bundles = [
  {
    outfile: path.join(cliDir, 'cc-linker.cjs'),
    entryPoints: [path.join(cliDir, 'hot-main.js')],
    external: ['./main.js'],
    banner: { js: '#!/usr/bin/env node' },
    allowed: ['./main.js'],
  },
  ...HOT_COMMANDS.map((c) => ({
    outfile: path.join(cliDir, hotBundlePath(c.name)),
    stdin: {
      contents: `import { tryFastRun } from './fast-run.js';\nimport { ${c.spec} } from '${c.module}';\nmodule.exports = (argv) => tryFastRun(argv, [['${c.name}', async () => ${c.spec}]]);\n`,
      resolveDir: cliDir,
      sourcefile: `hot-${c.name}.js`,
    },
    allowed: [],
  })),
  // The SessionStart hook, which Claude Code runs at every session start: one file, so it starts
  // without the ES-module loader (`hook install` points Claude at it).
  {
    outfile: path.join(root, 'dist', 'sessions', 'session-start-hook.cjs'),
    entryPoints: [path.join(root, 'dist', 'sessions', 'session-start-hook.js')],
    allowed: [],
  },
];

const problems = [];
let bytes = 0;
for (const { allowed, ...options } of bundles) {
  const result = await build({ ...common, ...options });
  const name = path.relative(root, options.outfile);
  for (const w of result.warnings) problems.push(`${name}: ${w.location?.file ?? '?'}: ${w.text}`);
  for (const output of Object.values(result.metafile.outputs)) {
    for (const imp of output.imports)
      if (!builtins.has(imp.path) && !allowed.includes(imp.path)) problems.push(`${name}: imports ${imp.path}`);
  }
  bytes += fs.statSync(options.outfile).size;
  // The first stage compiles hot bundles with vm.Script (for the code cache), where a dynamic
  // import() that esbuild left in place would fail at run time.
  if (options.outfile !== bundles[0].outfile && /\bimport\(/.test(fs.readFileSync(options.outfile, 'utf8')))
    problems.push(`${name}: a dynamic import() remains`);
}
if (problems.length > 0) {
  for (const b of bundles) fs.rmSync(b.outfile, { force: true });
  console.error(
    `bundle-cli: the first stage, the hot commands and the hook may import only Node built-ins at run time (and use no import.meta):\n  ${problems.join('\n  ')}`,
  );
  process.exit(1);
}
fs.chmodSync(bundles[0].outfile, 0o755);
// A V8 code cache beside each hot bundle, for this Node: the first stage compiles the bundle with
// it. Made by running each command once on a small throw-away session tree
// (scripts/warm-code-cache.mjs), so it also holds the functions the command calls: `init` starts
// ~12 ms sooner than with a cache of the top level alone, which is what is written if that run fails.
const warmHome = fs.mkdtempSync(path.join(os.tmpdir(), 'cc-linker-build-'));
try {
  const claudeDir = writeWarmUpTree(warmHome);
  const env = {
    PATH: process.env.PATH,
    HOME: warmHome,
    CC_LINKER_HOME: path.join(warmHome, '.cc-linker'),
    CLAUDE_CONFIG_DIR: claudeDir,
    LANG: 'C',
  };
  const runs = {
    init: [['init']],
    sync: [['sync'], ['sync']],
    list: [['list'], ['list', '--json']],
    show: [
      ['show', 'a1b2'],
      ['show', 'a1b2', '--json'],
    ],
    search: [
      ['search', 'README'],
      ['search', 'README', '--json'],
    ],
  };
  for (const c of HOT_COMMANDS) {
    const bundle = path.join(cliDir, hotBundlePath(c.name));
    if (c.name === 'init' || c.name === 'sync') fs.rmSync(env.CC_LINKER_HOME, { recursive: true, force: true });
    const r = spawnSync(
      process.execPath,
      [path.join(root, 'scripts', 'warm-code-cache.mjs'), bundle, JSON.stringify(runs[c.name] ?? [])],
      { env, encoding: 'utf8', timeout: 60_000 },
    );
    if (r.status !== 0) {
      console.warn(
        `bundle-cli: ${c.name} did not run for its code cache (${(r.stderr || r.error?.message || '').trim().split('\n')[0]}); caching its top level only`,
      );
      const script = new vm.Script(commonJsWrapper(fs.readFileSync(bundle, 'utf8')), { filename: bundle });
      fs.writeFileSync(`${bundle}${CODE_CACHE_SUFFIX}`, script.createCachedData());
    }
  }
} finally {
  fs.rmSync(warmHome, { recursive: true, force: true });
}
console.log(
  `bundle-cli: ${path.relative(root, bundles[0].outfile)} + ${HOT_COMMANDS.length} hot commands + the SessionStart hook (${bytes} bytes)`,
);

/**
 * A small Claude Code tree for the code-cache runs: two projects, the line types a scan meets (a
 * title, prompts, assistant text and tool use, a tool result longer than the probe's windows, a
 * queue operation, a sidechain). Returns the tree's directory.
 */
function writeWarmUpTree(home) {
  const claudeDir = path.join(home, '.claude');
  const sessions = [
    { id: 'a1b2c3d4-0000-4000-8000-000000000001', cwd: '/tmp/warm/app', title: 'Improve README' },
    { id: 'b2c3d4e5-0000-4000-8000-000000000002', cwd: '/tmp/warm/lib', title: null },
  ];
  for (const [n, s] of sessions.entries()) {
    const dir = path.join(claudeDir, 'projects', s.cwd.replace(/[^a-zA-Z0-9]/g, '-'));
    fs.mkdirSync(dir, { recursive: true });
    const at = (i) => new Date(Date.UTC(2026, 4, 5, 10, n, i)).toISOString();
    const env = (i, uuid) => ({
      parentUuid: null,
      isSidechain: false,
      userType: 'external',
      cwd: s.cwd,
      sessionId: s.id,
      version: '2.0.0',
      uuid,
      timestamp: at(i),
    });
    const lines = [
      { type: 'queue-operation', operation: 'enqueue', timestamp: at(0), sessionId: s.id },
      { ...env(1, 'u1'), type: 'user', message: { role: 'user', content: `Update the README of ${s.cwd}` } },
      {
        ...env(2, 'a1'),
        type: 'assistant',
        message: {
          id: `msg_${n}1`,
          type: 'message',
          role: 'assistant',
          model: 'claude-sonnet-4-5',
          content: [{ type: 'text', text: 'Reading it first.' }],
        },
      },
      {
        ...env(3, 'a2'),
        type: 'assistant',
        message: {
          id: `msg_${n}1`,
          type: 'message',
          role: 'assistant',
          model: 'claude-sonnet-4-5',
          content: [{ type: 'tool_use', id: `toolu_${n}1`, name: 'Read', input: { file_path: `${s.cwd}/README.md` } }],
        },
      },
      {
        ...env(4, 'u2'),
        type: 'user',
        message: {
          role: 'user',
          content: [{ type: 'tool_result', tool_use_id: `toolu_${n}1`, content: '# README\n'.repeat(1000) }],
        },
      },
      {
        ...env(5, 's1'),
        isSidechain: true,
        type: 'assistant',
        message: {
          id: `msg_${n}s`,
          type: 'message',
          role: 'assistant',
          model: 'claude-haiku-4-5',
          content: [{ type: 'text', text: 'side' }],
        },
      },
      {
        ...env(6, 'a3'),
        type: 'assistant',
        message: {
          id: `msg_${n}2`,
          type: 'message',
          role: 'assistant',
          model: 'claude-sonnet-4-5',
          content: [{ type: 'text', text: 'Done: the README has a quick start.' }],
        },
      },
      ...(s.title ? [{ type: 'summary', summary: s.title, leafUuid: 'a3' }] : []),
    ];
    fs.writeFileSync(path.join(dir, `${s.id}.jsonl`), `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
  }
  return claudeDir;
}
