import { tryFastRun } from './fast-run.js';
import { HOT_COMMANDS } from './hot-commands.js';

/**
 * What the `cc-linker` binary runs first (bundled into `dist/cli/cc-linker.cjs`): a plainly
 * well-formed `list` / `show` / `search` runs right here; everything else — other commands, help,
 * usage errors — is handed to the full ES-module program (`main.js`), which reads `process.argv`
 * itself. Nothing has been loaded or decided when the hand-over happens.
 */
export async function hotMain(argv: readonly string[]): Promise<void> {
  if (await tryFastRun(argv, HOT_COMMANDS)) return;
  await import('./main.js');
}

void hotMain(process.argv.slice(2));
