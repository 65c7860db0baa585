import type { ScanWarning } from '../scan/scan-warning.js';

/**
 * What the registry merge takes from the bridge's user mapping (`user-mapping.json`: which
 * session each chat user is on). The bridge owns that file and reads it for the merge
 * (`bridge/mapping/read-mapped-sessions.ts`); the sync receives the result from its caller.
 *
 * `origin: 'feishu'` marks a session the bridge created (`/new`); `provider` (the user's default
 * model) fills the entry's `lastKnownProvider`.
 */
export interface MappedSession {
  sessionId: string;
  openId: string;
  origin: 'feishu' | null;
  cwd: string | null;
  provider: string | null;
  createdAt: string | null;
}

/** The mapped sessions, and a warning when the mapping exists but cannot be read. */
export interface MappedSessions {
  sessions: MappedSession[];
  warnings: ScanWarning[];
}
