/**
 * How Claude Code names a project directory: every character of the absolute cwd that is not
 * `[A-Za-z0-9]` becomes `-`. Lossy (`/tmp/a-b` and `/tmp/a/b` collide), so only ever used to pick
 * among cwds seen in a file, never to recover one.
 *
 * @example
 *   encodeProjectDir('/tmp/a/we.ird_dir name'); // '-tmp-a-we-ird-dir-name'
 */
export function encodeProjectDir(cwd: string): string {
  return cwd.replace(/[^A-Za-z0-9]/g, '-');
}
