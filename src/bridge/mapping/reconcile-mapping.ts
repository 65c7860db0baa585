import type { Logger } from '../../core/logger.js';
import type { Spool } from '../spool/spool.js';
import type { UserMapping } from './user-mapping.js';

/** What the reconciler needs to know about sessions (wired to the registry by the runtime). */
export interface RegistryView {
  get(
    sessionId: string,
  ): Promise<{ status: string; origin: string; feishuUserId?: string | null; createdAt: string; cwd: string } | null>;
  /** Sessions created from chat by `userId` since `sinceMs` (epoch ms), newest first. */
  recentChatSessions(
    userId: string,
    sinceMs: number,
  ): Promise<Array<{ sessionId: string; status: string; cwd: string; createdAt: string }>>;
}

export interface MappingRepairReport {
  rolledBackClaims: number;
  completedClaims: number;
  droppedMissingSessions: number;
  restoredSessions: number;
  ambiguous: string[];
}

/**
 * The mapping half of the reconciler (see docs/design.md#recovery), run at start and every few
 * minutes. Its rules are deterministic, and it never guesses:
 * - a claim whose run learned its session id is completed; a claim whose message is no longer
 *   queued or running (gone, or failed before a session existed) is rolled back to
 *   `pending_new_session` so the user can retry; a claim whose message is still in progress
 *   (queued, even if not yet routed, or running) is kept;
 * - a mapping that points at a session the registry does not know becomes `pending_new_session`
 *   in the same directory;
 * - exactly one recent chat-created session (still provisioning or degraded) the mapping missed,
 *   and the user has no active target → map it; more than one candidate → leave them and let the
 *   user `/list` + `/switch`.
 */
export async function reconcileMapping(input: {
  mapping: UserMapping;
  spool: Spool;
  registry: RegistryView;
  logger: Logger;
  now: number;
  staleClaimMs: number;
  recentMs: number;
}): Promise<MappingRepairReport> {
  const { mapping, spool, registry, logger } = input;
  const report: MappingRepairReport = {
    rolledBackClaims: 0,
    completedClaims: 0,
    droppedMissingSessions: 0,
    restoredSessions: 0,
    ambiguous: [],
  };
  const data = await mapping.read();
  for (const [userId, entry] of Object.entries(data.entries)) {
    if (entry.type === 'pending_new_session_claimed') {
      const state = await spool.locate(entry.claimedByMessageId);
      const record = state ? await spool.read(state, entry.claimedByMessageId) : null;
      if (record?.sessionId) {
        // The run learned its session id but the mapping never heard: finish the switch.
        if (await mapping.completeClaim(userId, entry.claimedByMessageId, record.sessionId, entry.cwd))
          report.completedClaims += 1;
        continue;
      }
      // A claim whose message is still queued or running is never taken away, however old it is:
      // rolling it back would let a second message create a second session.
      if (state === 'pending' || state === 'processing' || state === 'replied') {
        if (input.now - Date.parse(entry.claimedAt) > input.staleClaimMs)
          logger.warn('a new-session claim is old but its message is still in progress', {
            userId,
            messageId: entry.claimedByMessageId,
          });
        continue;
      }
      if (await mapping.rollbackClaim(userId, entry.claimedByMessageId)) {
        report.rolledBackClaims += 1;
        logger.info('rolled back a new-session claim whose message is gone or failed', {
          userId,
          messageId: entry.claimedByMessageId,
        });
      }
      continue;
    }
    if (entry.type === 'session' && !(await registry.get(entry.sessionUuid))) {
      await mapping.setPendingNew(userId, { cwd: entry.cwd, model: entry.defaultProvider ?? null });
      report.droppedMissingSessions += 1;
      logger.warn('mapping pointed at an unknown session; reset to a pending new session', {
        userId,
        sessionId: entry.sessionUuid,
      });
    }
  }
  // Rule 1 / 2: chat-created sessions the mapping never recorded (crash between id and mapping).
  const after = await mapping.read();
  const users = new Set([...Object.keys(after.entries), ...(after.ownerOpenId ? [after.ownerOpenId] : [])]);
  for (const userId of users) {
    const entry = after.entries[userId];
    if (entry && entry.type !== 'pending_new_session') continue;
    // A pending slot the user set AFTER the session was created is a deliberate choice: keep it.
    const since = entry
      ? Math.max(input.now - input.recentMs, Date.parse(entry.createdAt))
      : input.now - input.recentMs;
    const candidates = (await registry.recentChatSessions(userId, since)).filter(
      (c) => c.status === 'provisioning' || c.status === 'degraded',
    );
    if (candidates.length === 1) {
      const c = candidates[0] as { sessionId: string; cwd: string };
      await mapping.setSession(userId, { sessionUuid: c.sessionId, cwd: c.cwd });
      report.restoredSessions += 1;
    } else if (candidates.length > 1) {
      report.ambiguous.push(userId);
    }
  }
  return report;
}
