import { describe, expect, it } from 'vitest';
import { sessionEntry } from '../../../test/fixtures/session-entry.js';
import fc from 'fast-check';
import { newestFirst, sortByLastActive } from './newest-first.js';
import type { SessionEntry } from './registry-schema.js';

const NOW = new Date('2026-06-01T12:00:00.000Z');
const ago = (ms: number) => new Date(NOW.getTime() - ms).toISOString();
const entry = (over: Partial<SessionEntry>): SessionEntry => sessionEntry(ago(0), over);

describe('newest-first order', () => {
  it('sorts most recent first with stable ties', () => {
    const items = [
      { id: 'b', entry: entry({ last_active: ago(10) }) },
      { id: 'a', entry: entry({ last_active: ago(10) }) },
      { id: 'c', entry: entry({ last_active: ago(0) }) },
    ];
    expect(sortByLastActive(items).map((i) => i.id)).toEqual(['c', 'a', 'b']);
  });

  it('for any times, ids, ties and n: a permutation, newest first, ties by id; newestFirst is its prefix', () => {
    const time = fc.oneof(
      fc.integer({ min: 0, max: 30 }).map((m) => ago(m * 60_000)),
      fc.integer({ min: -8.64e15, max: 8.64e15 }).map((t) => new Date(t).toISOString()),
      fc.constantFrom('not a date', '', '1969-12-31T23:59:59.999Z', '2026-05-05T10:00:00+08:00'),
    );
    const id = fc.oneof(fc.constantFrom('a', 'ab', 'a\u0000', 'b', '😀', 'Z'), fc.string({ maxLength: 4 }));
    const timeOf = (i: { entry: { last_active: string } }) => Date.parse(i.entry.last_active) || 0;
    fc.assert(
      fc.property(fc.array(fc.tuple(id, time), { maxLength: 60 }), fc.integer({ min: 1, max: 70 }), (rows, n) => {
        const items = rows.map(([i, t]) => ({ id: i, entry: entry({ last_active: t }) }));
        const sorted = sortByLastActive(items);
        expect([...sorted].sort((x, y) => items.indexOf(x) - items.indexOf(y))).toEqual(items);
        for (let k = 1; k < sorted.length; k += 1) {
          const [prev, next] = [sorted[k - 1], sorted[k]] as [(typeof items)[0], (typeof items)[0]];
          expect(timeOf(prev)).toBeGreaterThanOrEqual(timeOf(next));
          if (timeOf(prev) === timeOf(next)) expect(prev.id <= next.id).toBe(true);
        }
        expect(newestFirst(items, n)).toEqual(sorted.slice(0, n));
      }),
      { numRuns: 500 },
    );
    // Unparsable times count as the oldest.
    expect(
      sortByLastActive([
        { id: 'x', entry: entry({ last_active: 'not a date' }) },
        { id: 'y', entry: entry({ last_active: ago(5) }) },
      ]).map((i) => i.id),
    ).toEqual(['y', 'x']);
  });
});
