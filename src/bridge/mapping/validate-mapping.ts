import type { MappingEntry, UserMappingData } from './mapping-entry.js';

const str = (v: unknown): v is string => typeof v === 'string';
const optStr = (v: unknown): boolean => v === undefined || v === null || typeof v === 'string';

/** Checks `user-mapping.json`'s stored shape; a wrong shape makes the read fail with `STORE_CORRUPT` naming the file. */
export function validateMapping(raw: unknown): UserMappingData {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw new Error('data is not an object');
  const data = raw as { ownerOpenId?: unknown; entries?: unknown };
  if (!(data.ownerOpenId === null || data.ownerOpenId === undefined || str(data.ownerOpenId)))
    throw new Error('ownerOpenId must be a string or null');
  if (!data.entries || typeof data.entries !== 'object' || Array.isArray(data.entries))
    throw new Error('entries must be an object');
  for (const [user, value] of Object.entries(data.entries as Record<string, unknown>)) {
    const e = value as Record<string, unknown> | null;
    const common =
      e && typeof e === 'object' && str(e.cwd) && str(e.createdAt) && str(e.casToken) && str(e.lastActiveAt);
    const ok =
      common &&
      optStr(e.agent) &&
      ((e.type === 'session' && str(e.sessionUuid) && optStr(e.defaultProvider)) ||
        (e.type === 'pending_new_session' && optStr(e.model)) ||
        (e.type === 'pending_new_session_claimed' && str(e.claimedByMessageId) && str(e.claimedAt) && optStr(e.model)));
    if (!ok) throw new Error(`entry for ${user} is not a valid mapping entry`);
  }
  const agents = (data as { defaultAgents?: unknown }).defaultAgents;
  if (
    agents !== undefined &&
    (!agents || typeof agents !== 'object' || Array.isArray(agents) || !Object.values(agents).every(str))
  )
    throw new Error('defaultAgents must map user ids to agent names');
  const owners = (data as { channelOwners?: unknown }).channelOwners;
  if (
    owners !== undefined &&
    (!owners || typeof owners !== 'object' || Array.isArray(owners) || !Object.values(owners).every(str))
  )
    throw new Error('channelOwners must map channel ids to user ids');
  return {
    ownerOpenId: str(data.ownerOpenId) ? data.ownerOpenId : null,
    entries: data.entries as Record<string, MappingEntry>,
    ...(agents ? { defaultAgents: agents as Record<string, string> } : {}),
    ...(owners ? { channelOwners: owners as Record<string, string> } : {}),
  };
}
