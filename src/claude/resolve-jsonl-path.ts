import { setTimeout as sleep } from 'node:timers/promises';
import { locateSessionFile } from '../sessions/scan/locate-session-file.js';
import { encodeProjectDir } from '../sessions/scan/project-dir.js';

/** Waits between lookups of a new session's file: 3.2 s in all, then the session is recorded `degraded`. */
export const JSONL_POLL_DELAYS_MS: readonly number[] = [200, 500, 1000, 1500];

/**
 * Finds `<claudeProjectsDir>/<encoded cwd>/<sessionId>.jsonl`, looking in the directory Claude
 * Code uses for `cwd` first and then in every project directory (a symlinked or renamed cwd lands
 * elsewhere). Tries at once, then after each delay of `delaysMs`; null when still not found.
 * `signal` ends the polling early (null).
 *
 * @example await resolveJsonlPath(paths.claudeProjectsDir, id, '/home/me/Git/app') // '/home/me/.claude/projects/-home-me-Git-app/<id>.jsonl'
 */
export async function resolveJsonlPath(
  claudeProjectsDir: string,
  sessionId: string,
  cwd: string,
  opts: { delaysMs?: readonly number[]; signal?: AbortSignal } = {},
): Promise<string | null> {
  const projectDir = encodeProjectDir(cwd);
  const delays = opts.delaysMs ?? JSONL_POLL_DELAYS_MS;
  for (let attempt = 0; ; attempt += 1) {
    const found = await locateSessionFile(claudeProjectsDir, sessionId, projectDir);
    if (found) return found;
    const delay = delays[attempt];
    if (delay === undefined || opts.signal?.aborted) return null;
    try {
      await sleep(delay, undefined, opts.signal ? { signal: opts.signal } : {});
    } catch {
      return null;
    }
  }
}
