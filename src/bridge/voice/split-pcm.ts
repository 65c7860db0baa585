/** How far back from the limit a cut may move to land in a pause, in seconds. */
const SEARCH_SECONDS = 5;
/** Length of the windows whose loudness is compared, in seconds. */
const WINDOW_SECONDS = 0.1;

/** Mean square of `pcm[from, to)`. */
function energy(pcm: Int16Array, from: number, to: number): number {
  let sum = 0;
  for (let i = from; i < to; i += 1) sum += (pcm[i] ?? 0) * (pcm[i] ?? 0);
  return sum / Math.max(1, to - from);
}

/**
 * Splits `pcm` into pieces of at most `maxSeconds` each. A cut goes to the quietest 100 ms window
 * in the last 5 s before the limit (a pause between words, when there is one), so a word is rarely
 * cut in two. The pieces are views of `pcm`, in order, covering it exactly.
 */
export function splitPcm(pcm: Int16Array, sampleRate: number, maxSeconds: number): Int16Array[] {
  const max = Math.floor(sampleRate * maxSeconds);
  const win = Math.max(1, Math.floor(sampleRate * WINDOW_SECONDS));
  const search = Math.min(Math.floor(sampleRate * SEARCH_SECONDS), max - win);
  const pieces: Int16Array[] = [];
  let start = 0;
  while (pcm.length - start > max) {
    let cut = start + max;
    let quietest = Number.POSITIVE_INFINITY;
    for (let from = start + max - search; from + win <= start + max; from += win) {
      const e = energy(pcm, from, from + win);
      if (e < quietest) {
        quietest = e;
        cut = from + Math.floor(win / 2);
      }
    }
    pieces.push(pcm.subarray(start, cut));
    start = cut;
  }
  if (start < pcm.length || pieces.length === 0) pieces.push(pcm.subarray(start));
  return pieces;
}
