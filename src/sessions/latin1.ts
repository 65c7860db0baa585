/** `Buffer#latin1Slice`: Node's native decoder behind `toString('latin1', …)`, not in the typings. */
type LatinBuffer = Buffer & { latin1Slice?: (start: number, end: number) => string };

/** Whether this runtime's buffers have it (every Node since long before 20; checked once). */
const NATIVE = typeof (Buffer.prototype as LatinBuffer).latin1Slice === 'function';

/**
 * `buf.toString('latin1', start, end)` as one native call, without `toString`'s argument
 * handling and encoding lookup. For the scanner's plain ASCII values (timestamps, message ids,
 * models), made per line or per file during a cold scan, where that JavaScript wrapper still runs
 * in V8's interpreter. `start`/`end` must lie within `buf`.
 */
export function latin1(buf: Buffer, start: number, end: number): string {
  return NATIVE ? (buf as Required<LatinBuffer>).latin1Slice(start, end) : buf.toString('latin1', start, end);
}
