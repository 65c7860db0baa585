import type { SessionEntry } from './registry-schema.js';

/*
 * The order sessions are listed in: most recently active first, ties by id (so numbering is
 * stable). Used for the list index, `list`, and search results.
 */

/** Sorts most recently active first (ties by id, so numbering is stable); parses each time once. */
export function sortByLastActive<T extends { id: string; entry: Pick<SessionEntry, 'last_active'> }>(items: T[]): T[] {
  return newestFirst(items, items.length);
}

/**
 * The `limit` most recently active items, in `sortByLastActive` order, without sorting them all:
 * `cc-linker list` shows 20 of possibly thousands, on every cold start.
 */
export function newestFirst<T extends { id: string; entry: Pick<SessionEntry, 'last_active'> }>(
  items: readonly T[],
  limit: number,
): T[] {
  if (limit * 4 >= items.length)
    return (numericNewestFirst(items) ?? sortedNewestFirst(items) ?? comparatorSorted(items)).slice(0, limit);
  const keyed = items.map((item) => ({ item, t: Date.parse(item.entry.last_active) || 0 }));
  const top: { item: T; t: number }[] = [];
  for (const k of keyed) {
    if (top.length === limit && before(k, top[limit - 1] as { item: T; t: number }) >= 0) continue;
    let i = top.length;
    while (i > 0 && before(k, top[i - 1] as { item: T; t: number }) < 0) i -= 1;
    top.splice(i, 0, k);
    if (top.length > limit) top.pop();
  }
  return top.map((k) => k.item);
}

/**
 * All of `items` in `sortByLastActive` order by one native numeric sort, when their ids already
 * ascend (the registry keeps its sessions sorted by id, so the list index always qualifies): each
 * key is `(newest - t) · 2^bits + index`, an exact integer below 2^53, so equal times fall back
 * to the index, which is the id order. No string is built per item — the string-key sort spent
 * ≈ 3 of its ≈ 5 ms making keys in a cold `init`. Null when the ids do not ascend or the keys
 * would not be exact (a span of times and a count too large together).
 */
function numericNewestFirst<T extends { id: string; entry: Pick<SessionEntry, 'last_active'> }>(
  items: readonly T[],
): T[] | null {
  const n = items.length;
  const times = new Float64Array(n);
  let newest = -Infinity;
  let oldest = Infinity;
  for (let i = 0; i < n; i += 1) {
    const item = items[i] as T;
    if (i > 0 && !((items[i - 1] as T).id < item.id)) return null;
    const t = Date.parse(item.entry.last_active) || 0;
    times[i] = t;
    if (t > newest) newest = t;
    if (t < oldest) oldest = t;
  }
  const slots = 2 ** Math.max(1, Math.ceil(Math.log2(n + 1)));
  if (n === 0 || (newest - oldest + 1) * slots > Number.MAX_SAFE_INTEGER) return n === 0 ? [] : null;
  const keys = new Float64Array(n);
  for (let i = 0; i < n; i += 1) keys[i] = (newest - (times[i] as number)) * slots + i;
  keys.sort();
  const out = new Array<T>(n);
  for (let k = 0; k < n; k += 1) out[k] = items[(keys[k] as number) % slots] as T;
  return out;
}

/** Larger than any `Date.parse` result: `LATEST - t` is a non-negative integer of at most 17 digits. */
const LATEST = 8.64e15;

/**
 * All of `items` in `sortByLastActive` order, sorted by the engine's own string sort: each item
 * gets one key (17 digits of `LATEST - time`, then the id, then its index), so no comparator
 * runs in JavaScript — 2,000 sessions take ~20,000 comparisons, which a cold `init` would run in
 * V8's interpreter while writing the list index. Null when an id holds the separator.
 */
function sortedNewestFirst<T extends { id: string; entry: Pick<SessionEntry, 'last_active'> }>(
  items: readonly T[],
): T[] | null {
  const keys: string[] = [];
  for (let i = 0; i < items.length; i += 1) {
    const item = items[i] as T;
    if (item.id.includes('\u0000')) return null; // would not order like the ids: the comparator sorts those
    const t = Date.parse(item.entry.last_active) || 0;
    keys.push(`${String(LATEST - t).padStart(17, '0')}\u0000${item.id}\u0000${i}`);
  }
  keys.sort();
  return keys.map((k) => items[Number(k.slice(k.lastIndexOf('\u0000') + 1))] as T);
}

function comparatorSorted<T extends { id: string; entry: Pick<SessionEntry, 'last_active'> }>(
  items: readonly T[],
): T[] {
  return items
    .map((item) => ({ item, t: Date.parse(item.entry.last_active) || 0 }))
    .sort(before)
    .map((k) => k.item);
}

/** Newer first, then by id. */
function before(a: { item: { id: string }; t: number }, b: { item: { id: string }; t: number }): number {
  return b.t - a.t || (a.item.id < b.item.id ? -1 : a.item.id > b.item.id ? 1 : 0);
}
