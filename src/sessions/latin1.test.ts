import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { latin1 } from './latin1.js';

describe('latin1', () => {
  it('is toString("latin1") of any range of any bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), fc.nat(), fc.nat(), (bytes, a, b) => {
        const buf = Buffer.from(bytes);
        const start = bytes.length ? a % (bytes.length + 1) : 0;
        const end = start + (bytes.length - start ? b % (bytes.length - start + 1) : 0);
        expect(latin1(buf, start, end)).toBe(buf.toString('latin1', start, end));
      }),
    );
    expect(latin1(Buffer.from('2026-05-05T10:30:00.000Z msg_01'), 0, 24)).toBe('2026-05-05T10:30:00.000Z');
  });
});
