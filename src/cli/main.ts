#!/usr/bin/env node
import { COMMAND_LOADERS } from './command-loaders.js';
import { tryFastRun } from './fast-run.js';

/**
 * Entry point of the `cc-linker` binary. A plainly well-formed command runs straight away; help,
 * usage errors and anything unusual go through commander (loaded only then).
 */
if (!(await tryFastRun(process.argv.slice(2), COMMAND_LOADERS))) {
  const { buildProgram } = await import('./program.js');
  await (await buildProgram(process.argv)).parseAsync(process.argv);
}
