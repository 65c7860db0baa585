import { describe, expect, it } from 'vitest';
import { randomHex } from './random-hex.js';

describe('randomHex', () => {
  it('gives exactly the digits asked for, lowercase hex', () => {
    for (const n of [0, 1, 7, 8, 9, 12, 16, 33]) expect(randomHex(n)).toMatch(new RegExp(`^[0-9a-f]{${n}}$`));
  });

  it('does not repeat over many calls (temp names and lock tokens must not collide)', () => {
    const seen = new Set(Array.from({ length: 20_000 }, () => randomHex(12)));
    expect(seen.size).toBe(20_000);
  });

  it('uses every digit, with the leading zeros kept', () => {
    const digits = new Set(Array.from({ length: 2_000 }, () => randomHex(8)).join(''));
    expect([...digits].sort().join('')).toBe('0123456789abcdef');
  });

  it('refuses a length that is not a non-negative integer', () => {
    expect(() => randomHex(-1)).toThrow(RangeError);
    expect(() => randomHex(2.5)).toThrow(/non-negative integer, got 2.5/);
  });
});
