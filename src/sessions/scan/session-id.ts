import path from 'node:path';

/**
 * Claude Code names every session by a UUID, `8-4-4-4-12` hex digits (it writes them in lower
 * case; any case is accepted here), and its file `<id>.jsonl`. Nothing else is a session id: a
 * file named `--dangerously-skip-permissions.jsonl` or `$(touch x).jsonl` is not a session, so its
 * name never reaches a `claude` command line or a printed command.
 */
const SESSION_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** True when `id` has the shape of a Claude Code session id. */
export function isSessionId(id: string): boolean {
  return SESSION_ID.test(id);
}

/** The session id a session file's name gives (`<id>.jsonl`), or null when its name is not one. */
export function sessionIdOfFile(file: string): string | null {
  const id = path.basename(file, '.jsonl');
  return isSessionId(id) ? id : null;
}
