import { setTimeout as sleep } from 'node:timers/promises';
import { locateSessionFile } from '../sessions/scan/locate-session-file.js';
import { encodeProjectDir } from '../sessions/scan/project-dir.js';

/** Where a run came from, as the registry records it. */
export type SessionOrigin = 'feishu' | 'web' | 'cli';

/**
 * What the engine tells the session registry while it runs:
 * 1. `provisioning` as soon as a NEW session's id is known (before the reply is done), so the
 *    user's mapping can point at it even if we crash mid-run;
 * 2. `resolved` when its JSONL file was found by short polling (→ status `active`), or
 *    `degraded` when it was not (the reconciler finishes the job later);
 * 3. `runFinished` after every successful run (new or resumed) with short previews.
 * Implementations must not throw for "unknown session" cases; the engine logs and ignores
 * rejections, a registry problem never fails the user's run.
 */
export interface SessionRecorder {
  provisioning(e: {
    sessionId: string;
    cwd: string;
    origin: SessionOrigin;
    userId?: string;
    model?: string;
    prompt: string;
  }): Promise<void>;
  resolved(sessionId: string, jsonlPath: string): Promise<void>;
  degraded(sessionId: string, reason: string): Promise<void>;
  runFinished(e: { sessionId: string; userPreview: string; assistantPreview: string; model?: string }): Promise<void>;
}

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
