import path from 'node:path';

/**
 * This process's PATH without `node_modules/.bin` (npm puts it there when it runs the tests): the
 * repository's dev-only agents (codex-acp, qwen) are then not installed for the command under test,
 * as on a user's machine without them — and `doctor` does not start each of them.
 */
export function pathWithoutDevAgents(): string {
  return (process.env.PATH ?? '/usr/bin:/bin')
    .split(path.delimiter)
    .filter((dir) => !dir.endsWith(path.join('node_modules', '.bin')))
    .join(path.delimiter);
}
