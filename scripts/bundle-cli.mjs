#!/usr/bin/env node
// Bundles the `cc-linker` binary's first stage: dist/cli/cc-linker.cjs (src/cli/hot-main.ts) and
// one CommonJS file per hot command, dist/cli/hot/<name>.cjs (see src/cli/hot-commands.ts), so those
// commands start without Node's ES-module loader. Everything else is handed to dist/cli/main.js,
// which stays external. Pure-JS packages the hot commands use (smol-toml) are inlined; the build
// fails when a bundle would still import a package at run time, or use `import.meta` (neither
// works, or is wanted, in these files). Each hot bundle gets a V8 code cache beside it.
import fs from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import vm from 'node:vm';
import { build } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const cliDir = path.join(root, 'dist', 'cli');
const builtins = new Set([...builtinModules, ...builtinModules.map((m) => `node:${m}`)]);
const { HOT_COMMANDS, hotBundlePath, commonJsWrapper, CODE_CACHE_SUFFIX } = await import(pathToFileURL(path.join(cliDir, 'hot-commands.js')).href);

const common = { bundle: true, platform: 'node', format: 'cjs', target: 'node20', metafile: true, logLevel: 'silent' };
const bundles = [
  { outfile: path.join(cliDir, 'cc-linker.cjs'), entryPoints: [path.join(cliDir, 'hot-main.js')], external: ['./main.js'], banner: { js: '#!/usr/bin/env node' }, allowed: ['./main.js'] },
  ...HOT_COMMANDS.map((c) => ({
    outfile: path.join(cliDir, hotBundlePath(c.name)),
    stdin: {
      contents: `import { tryFastRun } from './fast-run.js';\nimport { ${c.spec} } from '${c.module}';\nmodule.exports = (argv) => tryFastRun(argv, [['${c.name}', async () => ${c.spec}]]);\n`,
      resolveDir: cliDir,
      sourcefile: `hot-${c.name}.js`,
    },
    allowed: [],
  })),
];

const problems = [];
let bytes = 0;
for (const { allowed, ...options } of bundles) {
  const result = await build({ ...common, ...options });
  const name = path.relative(root, options.outfile);
  for (const w of result.warnings) problems.push(`${name}: ${w.location?.file ?? '?'}: ${w.text}`);
  for (const output of Object.values(result.metafile.outputs)) {
    for (const imp of output.imports) if (!builtins.has(imp.path) && !allowed.includes(imp.path)) problems.push(`${name}: imports ${imp.path}`);
  }
  bytes += fs.statSync(options.outfile).size;
  // The first stage compiles hot bundles with vm.Script (for the code cache), where a dynamic
  // import() that esbuild left in place would fail at run time.
  if (options.outfile !== bundles[0].outfile && /\bimport\(/.test(fs.readFileSync(options.outfile, 'utf8'))) problems.push(`${name}: a dynamic import() remains`);
}
if (problems.length > 0) {
  for (const b of bundles) fs.rmSync(b.outfile, { force: true });
  console.error(`bundle-cli: the first stage and the hot commands may import only Node built-ins at run time (and use no import.meta):\n  ${problems.join('\n  ')}`);
  process.exit(1);
}
fs.chmodSync(bundles[0].outfile, 0o755);
// A V8 code cache beside each hot bundle, for this Node: the first stage compiles the bundle with
// it (~2 ms instead of 4–6 ms). Made from the same wrapped text the first stage compiles; nothing
// in the bundle runs here.
for (const b of bundles.slice(1)) {
  const script = new vm.Script(commonJsWrapper(fs.readFileSync(b.outfile, 'utf8')), { filename: b.outfile });
  fs.writeFileSync(`${b.outfile}${CODE_CACHE_SUFFIX}`, script.createCachedData());
}
console.log(`bundle-cli: ${path.relative(root, bundles[0].outfile)} + ${HOT_COMMANDS.length} hot commands (${bytes} bytes)`);
