import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createOutputCollector } from './output-collector.js';

/** Splits bytes at the given cut points (any positions, so multi-byte characters get split). */
function chunk(bytes: Buffer, cuts: number[]): Buffer[] {
  const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  const parts: Buffer[] = [];
  let last = 0;
  for (const p of [...points, bytes.length]) {
    parts.push(bytes.subarray(last, p));
    last = p;
  }
  return parts;
}

const text = fc.string({ unit: fc.constantFrom('a', '\n', 'é', '中', '😀', 'Ω', ' ', 'ー'), maxLength: 60 });

describe('createOutputCollector', () => {
  it('streams exactly the text and lines, whatever the chunking', () => {
    fc.assert(
      fc.property(text, fc.array(fc.nat(), { maxLength: 20 }), (s, cuts) => {
        const pieces: string[] = [];
        const lines: string[] = [];
        const c = createOutputCollector({
          maxBytes: 1 << 20,
          onText: (t) => pieces.push(t),
          onLine: (l) => lines.push(l),
          onCallbackError: () => undefined,
        });
        for (const part of chunk(Buffer.from(s), cuts)) c.push(part);
        c.finish();
        expect(pieces.join('')).toBe(s);
        expect(pieces.some((p) => p.includes('\uFFFD'))).toBe(false);
        const expected = s.split('\n');
        if (expected.at(-1) === '') expected.pop();
        expect(lines).toEqual(expected);
        expect(c.text()).toBe(s);
        expect(c.truncated).toBe(false);
      }),
    );
  });

  it('keeps the longest whole-character prefix within the cap and counts every byte', () => {
    fc.assert(
      fc.property(text, fc.array(fc.nat(), { maxLength: 20 }), fc.nat({ max: 80 }), (s, cuts, maxBytes) => {
        const bytes = Buffer.from(s);
        const c = createOutputCollector({ maxBytes, onCallbackError: () => undefined });
        for (const part of chunk(bytes, cuts)) c.push(part);
        c.finish();
        const kept = c.text();
        expect(c.bytes).toBe(bytes.length);
        expect(c.truncated).toBe(bytes.length > maxBytes);
        expect(s.startsWith(kept)).toBe(true);
        expect(Buffer.byteLength(kept)).toBeLessThanOrEqual(maxBytes);
        // The next character would not have fitted.
        const next = [...s.slice(kept.length)][0];
        if (next !== undefined) expect(Buffer.byteLength(kept + next)).toBeGreaterThan(maxBytes);
      }),
    );
  });

  it('reports a throwing callback once per throw and keeps going', () => {
    const errors: unknown[] = [];
    const lines: string[] = [];
    const c = createOutputCollector({
      maxBytes: 100,
      onLine: (l) => {
        lines.push(l);
        if (l === 'bad') throw new Error('bad line');
      },
      onCallbackError: (e) => errors.push(e),
    });
    c.push(Buffer.from('ok\nbad\nlast'));
    c.finish();
    expect(lines).toEqual(['ok', 'bad', 'last']);
    expect(errors).toHaveLength(1);
  });

  it('replaces genuinely invalid trailing bytes when not truncated', () => {
    const c = createOutputCollector({ maxBytes: 100, onCallbackError: () => undefined });
    c.push(Buffer.from([0x61, 0xe4, 0xb8]));
    c.finish();
    expect(c.text()).toBe('a\uFFFD');
  });
});
