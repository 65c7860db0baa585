import path from 'node:path';
import type { Logger } from '../core/logger.js';
import { upsertSession, updateSession, type RegistryPaths } from '../sessions/registry/registry.js';
import { SessionsError } from '../sessions/sessions-error.js';
import { preview } from '../sessions/scan/preview.js';
import type { SessionRecorder } from './session-recorder.js';

/** Registry preview limits (registry-schema.ts). */
const USER_PREVIEW = 80;
const MESSAGE_PREVIEW = 100;
/** Same length as the scanner's title fallback (the first prompt), which replaces it at the next sync. */
const TITLE_PREVIEW = 100;

/**
 * The `SessionRecorder` backed by `~/.cc-linker/registry.json` (src/sessions/registry.ts):
 * `provisioning` upserts the entry (origin, cwd, owner, model, first prompt as title preview),
 * `resolved` / `degraded` set the status, `runFinished` refreshes `last_active`, the previews and
 * the last known model. A resumed session the registry does not know yet (a terminal session never
 * synced) is left alone — the next `sync` adds it with its real metadata.
 * The run's origin is recorded as it is (`cli`, `feishu`, `web`: registry schema v6).
 *
 * @example createEngine(config, { …, sessionRecorder: createRegistrySessionRecorder(paths, logger) })
 */
export function createRegistrySessionRecorder(
  paths: RegistryPaths,
  logger: Logger,
  now: () => Date = () => new Date(),
): SessionRecorder {
  const ignoreUnknown = async (fn: () => Promise<unknown>): Promise<void> => {
    try {
      await fn();
    } catch (err) {
      if (err instanceof SessionsError && err.code === 'SESSION_NOT_FOUND') return;
      throw err;
    }
  };
  return {
    async provisioning(e) {
      const userPreview = preview(e.prompt, USER_PREVIEW);
      await upsertSession(
        paths,
        e.sessionId,
        {
          origin: e.origin,
          cwd: e.cwd,
          project_name: path.basename(e.cwd) || null,
          status: 'provisioning',
          jsonl_path: null,
          pending_jsonl_resolve: true,
          // The chat user (Feishu open_id or `web:owner`): the reconciler restores a lost mapping by it.
          ...(e.userId && e.origin !== 'cli' ? { feishu_user_id: e.userId } : {}),
          ...(e.model ? { lastKnownProvider: e.model } : {}),
          ...(e.agent && e.agent !== 'claude' ? { agent: e.agent } : {}),
          // Without it `/list` shows a chat that just started as "Untitled" until the next sync.
          title: preview(e.prompt, TITLE_PREVIEW) || null,
          last_user_preview: userPreview,
          last_message_preview: preview(e.prompt, MESSAGE_PREVIEW),
        },
        now(),
      );
    },
    async resolved(sessionId, jsonlPath) {
      await ignoreUnknown(() =>
        updateSession(
          paths,
          sessionId,
          { jsonl_path: jsonlPath, status: 'active', pending_jsonl_resolve: false, last_error: null },
          now(),
        ),
      );
    },
    async degraded(sessionId, reason) {
      await ignoreUnknown(() =>
        updateSession(paths, sessionId, { status: 'degraded', pending_jsonl_resolve: true, last_error: reason }, now()),
      );
    },
    async runFinished(e) {
      await ignoreUnknown(() =>
        updateSession(
          paths,
          e.sessionId,
          (entry) => ({
            ...entry,
            last_active: now().toISOString(),
            // One prompt and one answer; the next sync recounts from the file (tool turns included).
            message_count: entry.message_count + 2,
            last_user_preview: preview(e.userPreview, USER_PREVIEW),
            last_assistant_preview: preview(e.assistantPreview, USER_PREVIEW),
            last_message_preview: preview(e.assistantPreview || e.userPreview, MESSAGE_PREVIEW),
            ...(e.model ? { lastKnownProvider: e.model } : {}),
          }),
          now(),
        ),
      );
      logger.debug('registry updated after run', { sessionId: e.sessionId });
    },
  };
}
