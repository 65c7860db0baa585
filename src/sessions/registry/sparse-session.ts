import { statusOf, type SessionEntry } from './registry-schema.js';

/**
 * True for a session there is little to come back to: corrupted (cannot be resumed), empty (no
 * message) or untitled (no title and no first prompt). Lists show these after the others, with
 * their count, so the sessions a user works in come first. A session being created
 * (`provisioning`: its file is not found yet, its count is still 0) is not sparse — it is the one
 * the user just started.
 */
export function isSparseSession(entry: Pick<SessionEntry, 'status' | 'message_count' | 'title'>): boolean {
  const status = statusOf(entry);
  if (status === 'corrupted') return true;
  if (status === 'provisioning') return false;
  return entry.message_count === 0 || !entry.title?.trim();
}
