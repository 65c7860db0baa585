import { describe, expect, it } from 'vitest';
import { dominantHz, rms } from '../../../test/fakes/voice/tone-analysis.js';
import { downmix, downsample, toInt16 } from './resample-pcm.js';

const sine = (hz: number, rate: number, seconds: number, amplitude: number): Float32Array =>
  Float32Array.from({ length: rate * seconds }, (_, i) => amplitude * Math.sin((2 * Math.PI * hz * i) / rate));

describe('resampling 48 kHz to 16 kHz', () => {
  it('a 440 Hz tone keeps its frequency and its amplitude', () => {
    const out = downsample(sine(440, 48_000, 1, 0.5), 3);
    expect(out).toHaveLength(16_000);
    expect(dominantHz(out, 16_000)).toBe(440);
    // A sine of amplitude 0.5 has an RMS of 0.5/√2; the filter's edges are left out.
    expect(rms(out.subarray(100, -100))).toBeCloseTo(0.5 / Math.SQRT2, 2);
  });

  it('a tone above the new Nyquist frequency is filtered out instead of folding into speech', () => {
    // 10 kHz at 48 kHz: plain decimation would turn it into a loud 6 kHz tone at 16 kHz.
    const out = downsample(sine(10_000, 48_000, 1, 0.5), 3);
    expect(rms(out.subarray(100, -100))).toBeLessThan(0.005);
    const naive = sine(10_000, 48_000, 1, 0.5).filter((_, i) => i % 3 === 0);
    expect(rms(naive)).toBeGreaterThan(0.3);
  });

  it('channels are averaged and samples become clipped 16-bit integers', () => {
    const mixed = downmix([Float32Array.from([1, 0.5, -1]), Float32Array.from([0, 0.5, -1])]);
    expect([...mixed]).toEqual([0.5, 0.5, -1]);
    expect([...toInt16(Float32Array.from([2, 1, 0, -1, -2]))]).toEqual([32767, 32767, 0, -32768, -32768]);
  });

  it('a factor that is not a positive integer is refused', () => {
    expect(() => downsample(new Float32Array(10), 1.5)).toThrow(RangeError);
  });
});
