import type { SessionOrigin } from '../sessions/registry/registry-schema.js';

/** Where a run came from, as the registry records it. */
export type { SessionOrigin };

/**
 * What the engine tells the session registry while it runs:
 * 1. `provisioning` as soon as a NEW session's id is known (before the reply is done), so the
 *    user's mapping can point at it even if we crash mid-run;
 * 2. `resolved` when its transcript file was found by short polling (→ status `active`), or
 *    `degraded` when it was not (the reconciler finishes the job later);
 * 3. `runFinished` after every successful run (new or resumed) with short previews.
 * Implementations must not throw for "unknown session" cases; the engine logs and ignores
 * rejections, a registry problem never fails the user's run.
 */
export interface SessionRecorder {
  provisioning(e: {
    sessionId: string;
    cwd: string;
    /** The agent that runs the session (`claude`, `codex`, …). */
    agent?: string;
    origin: SessionOrigin;
    userId?: string;
    model?: string;
    prompt: string;
  }): Promise<void>;
  resolved(sessionId: string, jsonlPath: string): Promise<void>;
  degraded(sessionId: string, reason: string): Promise<void>;
  runFinished(e: { sessionId: string; userPreview: string; assistantPreview: string; model?: string }): Promise<void>;
}
