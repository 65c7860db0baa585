import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { newestFirst, sortByLastActive } from './newest-first.js';
import type { SessionEntry } from './registry-schema.js';

const NOW = new Date('2026-06-01T12:00:00.000Z');
const ago = (ms: number) => new Date(NOW.getTime() - ms).toISOString();
const entry = (over: Partial<SessionEntry>): SessionEntry => ({
  origin: 'cli',
  cwd: '/w',
  project_name: 'w',
  jsonl_path: null,
  project_dir: null,
  created_at: ago(0),
  last_active: ago(0),
  title: null,
  message_count: 0,
  last_message_preview: '',
  ...over,
});

describe('newest-first order', () => {
  it('sorts most recent first with stable ties', () => {
    const items = [
      { id: 'b', entry: entry({ last_active: ago(10) }) },
      { id: 'a', entry: entry({ last_active: ago(10) }) },
      { id: 'c', entry: entry({ last_active: ago(0) }) },
    ];
    expect(sortByLastActive(items).map((i) => i.id)).toEqual(['c', 'a', 'b']);
  });

  it('newestFirst and sortByLastActive order like the plain comparator, for any times, ids, ties and n', () => {
    /** Newer first (unparsable times count as 0), then by id, stable. */
    const reference = <T extends { id: string; entry: { last_active: string } }>(items: T[]) =>
      items
        .map((item) => ({ item, t: Date.parse(item.entry.last_active) || 0 }))
        .sort((a, b) => b.t - a.t || (a.item.id < b.item.id ? -1 : a.item.id > b.item.id ? 1 : 0))
        .map((k) => k.item);
    const time = fc.oneof(
      fc.integer({ min: 0, max: 30 }).map((m) => ago(m * 60_000)),
      fc.integer({ min: -8.64e15, max: 8.64e15 }).map((t) => new Date(t).toISOString()),
      fc.constantFrom('not a date', '', '1969-12-31T23:59:59.999Z', '2026-05-05T10:00:00+08:00'),
    );
    const id = fc.oneof(
      fc.constantFrom('a', 'ab', 'a\u0000', 'a\u0000b', 'b', '😀', 'Z'),
      fc.string({ maxLength: 4 }),
      fc.string({ unit: 'binary', maxLength: 3 }),
    );
    fc.assert(
      fc.property(fc.array(fc.tuple(id, time), { maxLength: 60 }), fc.integer({ min: 1, max: 70 }), (rows, n) => {
        const items = rows.map(([i, t]) => ({ id: i, entry: entry({ last_active: t }) }));
        const want = reference(items);
        expect(sortByLastActive(items)).toEqual(want);
        expect(newestFirst(items, n)).toEqual(want.slice(0, n));
      }),
      { numRuns: 500 },
    );
    // Items whose ids already ascend, as the registry keeps them (the numeric sort's case), with
    // ties, unparsable times and times far apart (where the numeric keys would not be exact).
    fc.assert(
      fc.property(
        fc.uniqueArray(id, { maxLength: 80 }),
        fc.array(time, { minLength: 80, maxLength: 80 }),
        fc.integer({ min: 1, max: 90 }),
        (ids, times, n) => {
          const items = [...ids].sort().map((i, k) => ({ id: i, entry: entry({ last_active: times[k] as string }) }));
          const want = reference(items);
          expect(sortByLastActive(items)).toEqual(want);
          expect(newestFirst(items, n)).toEqual(want.slice(0, n));
        },
      ),
      { numRuns: 500 },
    );
    const tied = Array.from({ length: 3000 }, (_, k) => ({
      id: `id-${String(k).padStart(5, '0')}`,
      entry: entry({ last_active: ago((k * 7919) % 11) }),
    }));
    expect(sortByLastActive(tied)).toEqual(reference(tied));
    // An id holding the sort key's separator still sorts like the ids (a prefix first).
    const same = ago(0);
    expect(
      sortByLastActive([
        { id: 'a\u0000', entry: entry({ last_active: same }) },
        { id: 'a', entry: entry({ last_active: same }) },
      ]).map((i) => i.id),
    ).toEqual(['a', 'a\u0000']);
  });
});
