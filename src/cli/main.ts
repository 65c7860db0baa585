#!/usr/bin/env node
import { tryFastRun } from './fast-run.js';

/**
 * Entry point of the `cc-linker` binary. A plainly well-formed command runs straight away; help,
 * usage errors and anything unusual go through commander (loaded only then).
 */
if (!(await tryFastRun(process.argv.slice(2)))) {
  const { buildProgram } = await import('./program.js');
  await (await buildProgram(process.argv)).parseAsync(process.argv);
}
