#!/usr/bin/env node
// Bundles the `cc-linker` binary's first stage (dist/cli/hot-main.js: `list`, `show`, `search`)
// into one CommonJS file, dist/cli/cc-linker.cjs, so those commands start without Node's
// ES-module loader (see src/cli/hot-commands.ts). Everything else is handed to dist/cli/main.js,
// which stays external. The build fails when the bundle would reach a package or `import.meta`
// (neither works, or is wanted, in this file).
import fs from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const outfile = path.join(root, 'dist', 'cli', 'cc-linker.cjs');
const builtins = new Set([...builtinModules, ...builtinModules.map((m) => `node:${m}`)]);

const result = await build({
  entryPoints: [path.join(root, 'dist', 'cli', 'hot-main.js')],
  outfile,
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  external: ['./main.js'],
  banner: { js: '#!/usr/bin/env node' },
  metafile: true,
  logLevel: 'silent',
});
const problems = result.warnings.map((w) => `${w.location?.file ?? '?'}: ${w.text}`);
for (const output of Object.values(result.metafile.outputs)) {
  for (const imp of output.imports) if (!builtins.has(imp.path) && imp.path !== './main.js') problems.push(`imports ${imp.path}`);
}
if (problems.length > 0) {
  fs.rmSync(outfile, { force: true });
  console.error(`bundle-cli: the hot commands must use only cc-linker's own code and Node built-ins:\n  ${problems.join('\n  ')}`);
  process.exit(1);
}
fs.chmodSync(outfile, 0o755);
console.log(`bundle-cli: ${path.relative(root, outfile)} (${fs.statSync(outfile).size} bytes, ${Object.keys(result.metafile.inputs).length} modules)`);
