#!/usr/bin/env node
import { buildProgram } from './program.js';

// The `cc-linker` binary (package.json `bin`; `npm start` runs `cc-linker start`). How it starts:
// README.md in this folder.
await (await buildProgram(process.argv)).parseAsync(process.argv);
