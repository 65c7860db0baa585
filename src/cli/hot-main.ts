import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import vm from 'node:vm';
import { CODE_CACHE_SUFFIX, commonJsWrapper, hotBundlePath, HOT_COMMANDS, type HotRun } from './hot-commands.js';

/**
 * What the `cc-linker` binary runs first (bundled into `dist/cli/cc-linker.cjs`): a plainly
 * well-formed `list`, `show`, `search`, `sync` or `init` runs from that command's own bundle;
 * everything else — other commands, help, usage errors — is handed to the full ES-module program
 * (`main.js`), which reads `process.argv` itself. Nothing has been loaded or decided when the
 * hand-over happens.
 */
export async function hotMain(argv: readonly string[]): Promise<void> {
  const hot = HOT_COMMANDS.find((c) => c.name === argv[0]);
  const run = hot ? loadHot(hot.name) : null;
  if (run && (await run(argv))) return;
  await import('./main.js');
}

/**
 * The hot bundle of `name`, or null when it is missing (a partial build): the full program then
 * runs it. Compiled with the V8 code cache the build wrote beside it (`<bundle>.cache`, see
 * `scripts/bundle-cli.mjs`) when there is one: about 2 ms instead of 4–6 ms of a ~55 ms cold
 * start. A cache V8 rejects (another Node version) or a missing one only costs that compile.
 */
function loadHot(name: string): HotRun | null {
  const file = path.join(__dirname, hotBundlePath(name));
  let source: string;
  try {
    source = fs.readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
  let cachedData: Buffer | undefined;
  try {
    cachedData = fs.readFileSync(`${file}${CODE_CACHE_SUFFIX}`);
  } catch {
    cachedData = undefined;
  }
  // What Node's CommonJS loader does for a file, with the cached compilation added.
  const script = new vm.Script(commonJsWrapper(source), { filename: file, ...(cachedData ? { cachedData } : {}) });
  const module = { exports: {} as unknown };
  const init = script.runInThisContext() as (
    exports: unknown,
    require: NodeJS.Require,
    module: { exports: unknown },
    filename: string,
    dirname: string,
  ) => void;
  init(module.exports, createRequire(file), module, file, path.dirname(file));
  return module.exports as HotRun;
}

void hotMain(process.argv.slice(2));
