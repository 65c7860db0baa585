import type { CommandLoader } from './command-loaders.js';
import { listCommand } from './commands/list.js';
import { searchCommand } from './commands/search.js';
import { showCommand } from './commands/show.js';

/**
 * The read-only session commands people run most and expect instantly: `list`, `show`,
 * `search`. Their whole closure is cc-linker's own code and Node built-ins, so
 * `scripts/bundle-cli.mjs` bundles them (from `hot-main.ts`) into the one CommonJS file the
 * `cc-linker` binary starts from: no ES-module loader, no 30-odd module files to resolve — about
 * a third of a cold start (issue 2's `list` goal). The build refuses the bundle if anything here
 * reaches a package or `import.meta`.
 */
export const HOT_COMMANDS: readonly CommandLoader[] = [
  ['list', async () => listCommand],
  ['show', async () => showCommand],
  ['search', async () => searchCommand],
];
