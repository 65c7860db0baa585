import { describe, expect, it } from 'vitest';
import { splitPcm } from './split-pcm.js';

const RATE = 100; // a small rate keeps the arrays small; the rule is the same at 16 kHz

describe('splitPcm', () => {
  it('a short recording is one piece', () => {
    const pcm = new Int16Array(RATE * 30).fill(1000);
    expect(splitPcm(pcm, RATE, 60)).toEqual([pcm]);
  });

  it('130 s become three pieces of at most 60 s that cover every sample once', () => {
    const pcm = Int16Array.from({ length: RATE * 130 }, (_, i) => (i % 7) * 1000);
    const pieces = splitPcm(pcm, RATE, 60);
    expect(pieces).toHaveLength(3);
    for (const p of pieces) expect(p.length).toBeLessThanOrEqual(RATE * 60);
    expect(pieces.reduce((n, p) => n + p.length, 0)).toBe(pcm.length);
    expect(Int16Array.from(pieces.flatMap((p) => [...p]))).toEqual(pcm);
  });

  it('cuts in the pause before the limit rather than mid-word', () => {
    // Loud everywhere except a pause from 57 s to 58 s.
    const pcm = Int16Array.from({ length: RATE * 90 }, (_, i) => (i >= RATE * 57 && i < RATE * 58 ? 0 : 8000));
    const [first] = splitPcm(pcm, RATE, 60);
    expect(first?.length).toBeGreaterThanOrEqual(RATE * 57);
    expect(first?.length).toBeLessThan(RATE * 58);
  });
});
