#!/usr/bin/env node
// Bundles the SessionStart hook Claude Code runs at every session start (`hook install` points
// Claude at it) into one CommonJS file, dist/sessions/session-start-hook.cjs, from tsc's output:
// one file starts without the ES-module loader resolving a dozen modules. The build fails when the
// bundle would still import anything but a Node built-in at run time, or use `import.meta` (which
// a CommonJS file does not have). Marks the binary, dist/cli/launcher/cc-linker.js, executable.
import fs from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const builtins = new Set([...builtinModules, ...builtinModules.map((m) => `node:${m}`)]);
const outfile = path.join(root, 'dist', 'sessions', 'session-start-hook.cjs');

const result = await build({
  entryPoints: [path.join(root, 'dist', 'sessions', 'session-start-hook.js')],
  outfile,
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  metafile: true,
  logLevel: 'silent',
});
const problems = result.warnings.map((w) => `${w.location?.file ?? '?'}: ${w.text}`);
for (const output of Object.values(result.metafile.outputs))
  for (const imp of output.imports) if (!builtins.has(imp.path)) problems.push(`imports ${imp.path}`);
if (problems.length > 0) {
  fs.rmSync(outfile, { force: true });
  console.error(
    `bundle-hook: the SessionStart hook may import only Node built-ins at run time (and use no import.meta):\n  ${problems.join('\n  ')}`,
  );
  process.exit(1);
}
fs.chmodSync(path.join(root, 'dist', 'cli', 'launcher', 'cc-linker.js'), 0o755);
console.log(`bundle-hook: ${path.relative(root, outfile)} (${fs.statSync(outfile).size} bytes)`);
