/** Power of frequency `hz` in `pcm` (Goertzel), normalised by the length. */
export function powerAt(pcm: ArrayLike<number>, rate: number, hz: number): number {
  const w = (2 * Math.PI * hz) / rate;
  const coeff = 2 * Math.cos(w);
  let s1 = 0;
  let s2 = 0;
  for (let i = 0; i < pcm.length; i += 1) {
    const s = (pcm[i] ?? 0) + coeff * s1 - s2;
    s2 = s1;
    s1 = s;
  }
  return (s1 * s1 + s2 * s2 - coeff * s1 * s2) / (pcm.length * pcm.length);
}

/** The strongest frequency of `pcm` on a 10 Hz grid from `fromHz` to `toHz`. */
export function dominantHz(pcm: ArrayLike<number>, rate: number, fromHz = 100, toHz = 4000): number {
  let best = fromHz;
  let bestPower = -1;
  for (let hz = fromHz; hz <= toHz; hz += 10) {
    const p = powerAt(pcm, rate, hz);
    if (p > bestPower) {
      bestPower = p;
      best = hz;
    }
  }
  return best;
}

/** Root mean square of `pcm`, in the units of its samples. */
export function rms(pcm: ArrayLike<number>): number {
  let sum = 0;
  for (let i = 0; i < pcm.length; i += 1) sum += (pcm[i] ?? 0) ** 2;
  return Math.sqrt(sum / Math.max(1, pcm.length));
}

/**
 * What the fake speech services "hear" in a piece of 16 kHz PCM: `tone <hz> Hz` for the strongest
 * tone of its first second, '' for silence — so a test can tell which audio reached the service.
 */
export function hearTone(pcm: Int16Array, rate: number): { hz: number; text: string } {
  const head = pcm.subarray(0, rate);
  if (rms(head) < 300) return { hz: 0, text: '' };
  const hz = dominantHz(head, rate);
  return { hz, text: `tone ${hz} Hz` };
}
