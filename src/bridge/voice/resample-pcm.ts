/** Taps of the anti-alias filter: odd, so it has a centre and delays every frequency alike. */
const TAPS = 95;

/** Averages the channels into one (a mono file is returned as is). */
export function downmix(channels: readonly Float32Array[]): Float32Array {
  const first = channels[0];
  if (!first) return new Float32Array(0);
  if (channels.length === 1) return first;
  const length = Math.min(...channels.map((c) => c.length));
  const out = new Float32Array(length);
  for (const channel of channels) for (let i = 0; i < length; i += 1) out[i] = (out[i] ?? 0) + (channel[i] ?? 0);
  for (let i = 0; i < length; i += 1) out[i] = (out[i] ?? 0) / channels.length;
  return out;
}

/**
 * A windowed-sinc low-pass (Blackman window) with its cut-off at `cutoff` × the input rate, scaled
 * to a gain of exactly 1 at 0 Hz so a tone well below the cut-off keeps its amplitude.
 */
function lowPass(cutoff: number): Float64Array {
  const h = new Float64Array(TAPS);
  const mid = (TAPS - 1) / 2;
  let sum = 0;
  for (let k = 0; k < TAPS; k += 1) {
    const n = k - mid;
    const sinc = n === 0 ? 2 * cutoff : Math.sin(2 * Math.PI * cutoff * n) / (Math.PI * n);
    const w = 0.42 - 0.5 * Math.cos((2 * Math.PI * k) / (TAPS - 1)) + 0.08 * Math.cos((4 * Math.PI * k) / (TAPS - 1));
    h[k] = sinc * w;
    sum += sinc * w;
  }
  for (let k = 0; k < TAPS; k += 1) h[k] = (h[k] ?? 0) / sum;
  return h;
}

/**
 * Resamples by an integer factor (48 kHz → 16 kHz is 3): low-pass below the new Nyquist frequency
 * (0.45 × the new rate, so 7.2 kHz for 16 kHz), then keep every `factor`-th sample. Plain
 * decimation would fold everything above 8 kHz back into the speech band.
 */
export function downsample(input: Float32Array, factor: number): Float32Array {
  if (!Number.isInteger(factor) || factor < 1) throw new RangeError(`resample factor must be a positive integer`);
  if (factor === 1) return input;
  const h = lowPass(0.45 / factor);
  const mid = (TAPS - 1) / 2;
  const out = new Float32Array(Math.floor(input.length / factor));
  for (let n = 0; n < out.length; n += 1) {
    const centre = n * factor;
    let acc = 0;
    for (let k = 0; k < TAPS; k += 1) {
      const i = centre + k - mid;
      if (i >= 0 && i < input.length) acc += (h[k] ?? 0) * (input[i] ?? 0);
    }
    out[n] = acc;
  }
  return out;
}

/** Float samples (−1…1) as 16-bit integers, clipped. */
export function toInt16(input: Float32Array): Int16Array {
  const out = new Int16Array(input.length);
  for (let i = 0; i < input.length; i += 1) {
    const v = Math.max(-1, Math.min(1, input[i] ?? 0));
    out[i] = Math.round(v < 0 ? v * 32768 : v * 32767);
  }
  return out;
}
