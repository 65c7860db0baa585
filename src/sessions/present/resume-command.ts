import { shellQuote } from '../../core/shell-quote.js';

/**
 * The command a user pastes into a terminal to continue a session there:
 * `cd <cwd> && claude --resume <id>`, with the directory and the id each quoted for a POSIX shell
 * when they need it (a directory with spaces or `$(…)` is pasted as text, never run). Callers print
 * it only for a session id (`isSessionId`): quoting keeps the shell out, and the id's shape keeps
 * `claude` from reading it as one of its own flags.
 *
 * @example
 *   resumeCommandLine('/w/my app', '8c4b1297-…') // "cd '/w/my app' && claude --resume 8c4b1297-…"
 */
export function resumeCommandLine(cwd: string, id: string): string {
  return `cd ${shellQuote(cwd)} && claude --resume ${shellQuote(id)}`;
}
