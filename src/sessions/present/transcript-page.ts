/** One page of a transcript: `items[i]` is message `start + i`; `before` is the cursor of the earlier page. */
export interface TranscriptPage<T> {
  items: T[];
  start: number;
  before: string | null;
  total: number;
}

/** Largest page. */
export const MAX_PAGE = 100;

/**
 * The page of `all` that ends just before the cursor `before` (the newest page without one), at
 * most `limit` (1…`MAX_PAGE`) items, oldest first. The cursor is the number of the first message
 * of the page after it, so walking `before` from the newest page to null covers every message
 * exactly once, in order; messages appended meanwhile do not move it. A cursor that is not a
 * number in range yields null (the caller answers 400).
 *
 * @example
 *   transcriptPage(['a', 'b', 'c'], null, 2) // { items: ['b', 'c'], start: 1, before: '1', total: 3 }
 */
export function transcriptPage<T>(all: T[], before: string | null, limit: number): TranscriptPage<T> | null {
  const total = all.length;
  let end = total;
  if (before !== null) {
    if (!/^\d{1,9}$/.test(before)) return null;
    end = Number(before);
    if (end > total) return null;
  }
  const size = Math.min(Math.max(1, Math.floor(limit) || 1), MAX_PAGE);
  const start = Math.max(0, end - size);
  return { items: all.slice(start, end), start, before: start > 0 ? String(start) : null, total };
}
