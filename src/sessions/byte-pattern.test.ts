import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BytePattern } from './byte-pattern.js';

/** What `indexIn` / `lastIndexIn` must equal: Buffer#indexOf on the range, in buffer offsets. */
function reference(h: Buffer, needle: Buffer, from: number, to: number): { first: number; last: number } {
  const w = h.subarray(from, to);
  const first = w.indexOf(needle);
  const last = w.lastIndexOf(needle);
  return { first: first < 0 ? -1 : from + first, last: last < 0 ? -1 : from + last };
}

describe('BytePattern', () => {
  it('finds what Buffer#indexOf / lastIndexOf find in any range, short or long (property)', () => {
    // A small alphabet, so that hits, near-misses and overlaps are common.
    const bytes = fc.array(fc.constantFrom(0x22, 0x3a, 0x74, 0x79, 0x65, 0x61, 0x7b), {
      minLength: 0,
      maxLength: 3000,
    });
    fc.assert(
      fc.property(
        bytes,
        fc.array(fc.constantFrom(0x22, 0x3a, 0x74, 0x79, 0x65, 0x61), { minLength: 1, maxLength: 9 }),
        fc.nat(),
        fc.nat(),
        (hay, pat, a, b) => {
          const h = Buffer.from(hay);
          const needle = Buffer.from(pat);
          const p = new BytePattern(needle.toString('latin1'));
          const from = h.length === 0 ? 0 : a % (h.length + 1);
          const to = from + (h.length - from === 0 ? 0 : b % (h.length - from + 1));
          const want = reference(h, needle, from, to);
          expect(p.indexIn(h, from, to)).toBe(want.first);
          expect(p.lastIndexIn(h, from, to)).toBe(want.last);
          if (want.first >= 0) expect(p.isAt(h, want.first, to)).toBe(true);
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('never reports a match that runs past the end of the range', () => {
    const h = Buffer.from('xx"type":"user"yy');
    const p = new BytePattern('"type":"user"');
    expect(p.indexIn(h, 0, h.length)).toBe(2);
    expect(p.indexIn(h, 0, 14)).toBe(-1);
    expect(p.lastIndexIn(h, 3, h.length)).toBe(-1);
    expect(p.isAt(h, 2, 14)).toBe(false);
  });

  it('rejects an empty pattern', () => {
    expect(() => new BytePattern('')).toThrow(RangeError);
  });
});
