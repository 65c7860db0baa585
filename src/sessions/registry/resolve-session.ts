import type { Registry, SessionEntry } from './registry-schema.js';
import { SessionsError } from '../sessions-error.js';

/** A registry entry together with its id (the registry's key). */
export interface SessionRef {
  id: string;
  entry: SessionEntry;
}

/** Candidates listed in an ambiguity error. */
const MAX_CANDIDATES = 10;

/**
 * Finds the session a user means by an id or id prefix (case-insensitive): an exact id wins,
 * else the single id starting with the prefix. None → `SESSION_NOT_FOUND`; several →
 * `SESSION_AMBIGUOUS` whose message and `candidates` list the matching ids (most recent first).
 *
 * @example
 *   const { id, entry } = resolveSession(registry, '8c4b');
 */
export function resolveSession(registry: Registry, input: string): SessionRef {
  const prefix = input.trim().toLowerCase();
  if (!prefix) throw new SessionsError('SESSION_NOT_FOUND', { prefix: input });
  const exact = Object.entries(registry.sessions).find(([id]) => id.toLowerCase() === prefix);
  if (exact) return { id: exact[0], entry: exact[1] };
  const matches = Object.entries(registry.sessions)
    .filter(([id]) => id.toLowerCase().startsWith(prefix))
    .sort((a, b) => Date.parse(b[1].last_active) - Date.parse(a[1].last_active));
  const [first] = matches;
  if (!first) throw new SessionsError('SESSION_NOT_FOUND', { prefix: input });
  if (matches.length === 1) return { id: first[0], entry: first[1] };
  const ids = matches.map(([id]) => id);
  const short = uniquePrefixes(ids);
  const shown =
    short.slice(0, MAX_CANDIDATES).join(', ') +
    (ids.length > MAX_CANDIDATES ? ` (+${ids.length - MAX_CANDIDATES})` : '');
  throw new SessionsError('SESSION_AMBIGUOUS', { prefix: input, candidates: shown }, { candidates: ids });
}

/** The ids cut to the shortest common length (at least 8) at which they are all distinct. */
function uniquePrefixes(ids: string[]): string[] {
  const longest = Math.max(...ids.map((id) => id.length));
  for (let n = 8; n < longest; n += 1) {
    const cut = ids.map((id) => id.slice(0, n));
    if (new Set(cut).size === cut.length) return cut;
  }
  return ids;
}
