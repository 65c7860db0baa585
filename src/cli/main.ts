#!/usr/bin/env node
import { buildProgram } from './program.js';

/** Entry point of the `cc-linker` binary. */
await buildProgram().parseAsync(process.argv);
