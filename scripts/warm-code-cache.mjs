// Runs one hot command bundle (dist/cli/hot/<name>.cjs) the way the first stage loads it — the same
// wrapped text, compiled with vm.Script — for each argv given, then writes the bundle's V8 code
// cache. A cache made after running holds the bytecode of every function those runs compiled; one
// made before holds only the top level, and each function is then compiled on its first call at
// every cold start (~12 ms of `init`).
//
//   node scripts/warm-code-cache.mjs dist/cli/hot/list.cjs '[["list"],["list","--json"]]'
//
// The caller points HOME, CC_LINKER_HOME and CLAUDE_CONFIG_DIR at a throw-away tree.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import vm from 'node:vm';

const [file, runsJson] = process.argv.slice(2);
const bundle = path.resolve(file);
const { commonJsWrapper, CODE_CACHE_SUFFIX } = await import(
  pathToFileURL(path.join(path.dirname(bundle), '..', 'hot-commands.js')).href
);
const script = new vm.Script(commonJsWrapper(fs.readFileSync(bundle, 'utf8')), { filename: bundle });
const module = { exports: {} };
script.runInThisContext()(module.exports, createRequire(bundle), module, bundle, path.dirname(bundle));
for (const argv of JSON.parse(runsJson)) {
  if (!(await module.exports(argv)))
    throw new Error(`warm-code-cache: ${argv.join(' ')} was not run by ${path.basename(bundle)}`);
}
fs.writeFileSync(`${bundle}${CODE_CACHE_SUFFIX}`, script.createCachedData());
process.exitCode = 0;
