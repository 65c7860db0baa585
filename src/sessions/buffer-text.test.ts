import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { latin1, utf8 } from './buffer-text.js';

describe('latin1 / utf8', () => {
  it('are toString("latin1" / "utf8") of any range of any bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), fc.nat(), fc.nat(), (bytes, a, b) => {
        const buf = Buffer.from(bytes);
        const start = bytes.length ? a % (bytes.length + 1) : 0;
        const end = start + (bytes.length - start ? b % (bytes.length - start + 1) : 0);
        expect(latin1(buf, start, end)).toBe(buf.toString('latin1', start, end));
        expect(utf8(buf, start, end)).toBe(buf.toString('utf8', start, end));
      }),
    );
    const line = Buffer.from('{"t":"2026-05-05T10:30:00.000Z","x":"为什么 😀"}');
    expect(latin1(line, 6, 30)).toBe('2026-05-05T10:30:00.000Z');
    expect(JSON.parse(utf8(line, 0, line.length))).toEqual({ t: '2026-05-05T10:30:00.000Z', x: '为什么 😀' });
  });
});
