import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { COMMAND_LOADERS } from './command-loaders.js';
import type { CommandSpec } from './command-spec.js';
import { HOT_COMMANDS } from './hot-commands.js';

describe('HOT_COMMANDS', () => {
  it('names, for each hot command, the very spec the full program registers', async () => {
    for (const hot of HOT_COMMANDS) {
      const mod = (await import(
        pathToFileURL(path.join(import.meta.dirname, hot.module.replace(/\.js$/, '.ts'))).href
      )) as Record<string, CommandSpec>;
      const loader = COMMAND_LOADERS.find(([name]) => name === hot.name);
      expect(loader, hot.name).toBeDefined();
      expect(mod[hot.spec]).toBe(await loader?.[1]());
      expect(mod[hot.spec]?.name).toBe(hot.name);
    }
  });
});
