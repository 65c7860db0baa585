import { hotBundlePath, HOT_COMMANDS, type HotRun } from './hot-commands.js';

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

/** The hot bundle of `name`, or null when it is missing (a partial build): the full program then runs it. */
function loadHot(name: string): HotRun | null {
  try {
    // A plain CommonJS require (this file runs as CommonJS): the ES-module loader is what we avoid.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    return require(hotBundlePath(name)) as HotRun;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'MODULE_NOT_FOUND') return null;
    throw err;
  }
}

void hotMain(process.argv.slice(2));
