/**
 * A fixed byte string to look for inside a range of a buffer, with precomputed Horspool skip
 * tables. Why not `Buffer#indexOf`: the scanner searches a few short keys in every line of every
 * session file, mostly in short, quote-dense JSON envelopes, where the native search costs
 * ~100 ns a call plus ~0.7 ns a byte (it rebuilds its tables each call and starts from the first
 * byte, a `"`); this loop, once optimised, costs a fraction of that. It also searches a range
 * without making a `subarray`.
 *
 * @example
 *   const TS = new BytePattern('"timestamp":"');
 *   const at = TS.indexIn(buf, lineStart, lineEnd); // -1 when absent
 */
/**
 * From this range length on, the native search is used: over long runs of text (a tool output in a
 * window of a long line) its per-byte speed wins over its per-call cost.
 */
const NATIVE_FROM = 1024;

export class BytePattern {
  /** The bytes (latin1 of the text given). */
  readonly bytes: Buffer;
  /** Forward shift by the byte under the last position of the window. */
  private readonly skip = new Uint8Array(256);
  /** Backward shift by the byte under the first position of the window. */
  private readonly back = new Uint8Array(256);

  constructor(text: string) {
    const n = Buffer.from(text, 'latin1');
    const m = n.length;
    if (m === 0 || m > 255) throw new RangeError('BytePattern: 1 to 255 bytes');
    this.bytes = n;
    this.skip.fill(m);
    for (let j = 0; j < m - 1; j += 1) this.skip[n[j] as number] = m - 1 - j;
    this.back.fill(m);
    for (let j = m - 1; j >= 1; j -= 1) this.back[n[j] as number] = j;
  }

  get length(): number {
    return this.bytes.length;
  }

  /** The first index in `[from, to)` where the whole pattern lies inside that range, or -1. */
  indexIn(h: Buffer, from: number, to: number): number {
    if (to - from >= NATIVE_FROM) {
      const at = h.subarray(from, to).indexOf(this.bytes);
      return at < 0 ? -1 : from + at;
    }
    const n = this.bytes;
    const m = n.length;
    const skip = this.skip;
    const last = n[m - 1];
    for (let i = from + m - 1; i < to; i += skip[h[i] as number] as number) {
      if (h[i] !== last) continue;
      let j = m - 2;
      let k = i - 1;
      while (j >= 0 && h[k] === n[j]) {
        j -= 1;
        k -= 1;
      }
      if (j < 0) return k + 1;
    }
    return -1;
  }

  /** The last index in `[from, to)` where the whole pattern lies inside that range, or -1. */
  lastIndexIn(h: Buffer, from: number, to: number): number {
    if (to - from >= NATIVE_FROM) {
      const at = h.subarray(from, to).lastIndexOf(this.bytes);
      return at < 0 ? -1 : from + at;
    }
    const n = this.bytes;
    const m = n.length;
    const back = this.back;
    const first = n[0];
    for (let i = to - m; i >= from; i -= back[h[i] as number] as number) {
      if (h[i] !== first) continue;
      let j = 1;
      while (j < m && h[i + j] === n[j]) j += 1;
      if (j === m) return i;
    }
    return -1;
  }

  /** Whether the pattern lies at `at`, entirely before `to`. */
  isAt(h: Buffer, at: number, to: number): boolean {
    const n = this.bytes;
    if (at < 0 || at + n.length > to) return false;
    for (let j = 0; j < n.length; j += 1) if (h[at + j] !== n[j]) return false;
    return true;
  }
}
