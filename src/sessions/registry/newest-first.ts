import type { SessionEntry } from './registry-schema.js';

type Dated = { id: string; entry: Pick<SessionEntry, 'last_active'> };

/**
 * The order sessions are listed in: most recently active first, ties by id, so the numbers a user
 * sees are stable. Used for the list index, `list`, and search results.
 */
export function sortByLastActive<T extends Dated>(items: readonly T[]): T[] {
  return items
    .map((item) => ({ item, t: Date.parse(item.entry.last_active) || 0 }))
    .sort((a, b) => b.t - a.t || (a.item.id < b.item.id ? -1 : a.item.id > b.item.id ? 1 : 0))
    .map((k) => k.item);
}

/** The `limit` most recently active items, in `sortByLastActive` order. */
export function newestFirst<T extends Dated>(items: readonly T[], limit: number): T[] {
  return sortByLastActive(items).slice(0, limit);
}
