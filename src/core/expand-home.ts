import os from 'node:os';
import path from 'node:path';

/**
 * Expands a leading `~` (alone or followed by `/`) to the user's home directory.
 * Claude Code has no `--cwd` flag and `spawn` does not expand `~`, so every path that came from a
 * user (config, `/new ~/Git/x`) goes through here before it is used.
 */
export function expandHome(input: string, home: string = os.homedir()): string {
  if (input === '~') return home;
  if (input.startsWith('~/') || input.startsWith(`~${path.sep}`)) return path.join(home, input.slice(2));
  return input;
}
