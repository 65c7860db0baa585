import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/**
 * The command that runs `cc-linker mcp` with the same code as this daemon: this Node binary
 * (`process.execPath`, not a `node` looked up on PATH) and the entry script next to this module —
 * `dist/cli/launcher/cc-linker.js` for the installed package and `npm start`; from the sources (the
 * tests run the daemon under tsx) `src/cli/launcher/cc-linker.ts` with tsx's loader, named by its
 * absolute URL because the agent starts the server in the session's directory, where `tsx` does
 * not resolve. Not `process.argv[1]`: a daemon embedded in another program (a test runner) has
 * that program's script there.
 */
export function mcpLaunchCommand(moduleUrl: string = import.meta.url): { command: string; args: string[] } {
  const launcher = path.join(path.dirname(fileURLToPath(moduleUrl)), '..', 'launcher');
  const built = path.join(launcher, 'cc-linker.js');
  if (fs.existsSync(built)) return { command: process.execPath, args: [built, 'mcp'] };
  const source = path.join(launcher, 'cc-linker.ts');
  const tsx = path.join(path.dirname(createRequire(moduleUrl).resolve('tsx/package.json')), 'dist', 'loader.mjs');
  return { command: process.execPath, args: ['--import', pathToFileURL(tsx).href, source, 'mcp'] };
}
