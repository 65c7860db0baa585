/** Node's native decoders behind `toString('latin1' | 'utf8', …)`, not in the typings. */
type NativeSlices = Buffer & {
  latin1Slice?: (start: number, end: number) => string;
  utf8Slice?: (start: number, end: number) => string;
};

/** Whether this runtime's buffers have them (every Node since long before 20; checked once). */
const NATIVE =
  typeof (Buffer.prototype as NativeSlices).latin1Slice === 'function' &&
  typeof (Buffer.prototype as NativeSlices).utf8Slice === 'function';

/*
 * `buf.toString(encoding, start, end)` as one native call, without `toString`'s argument handling
 * and encoding lookup: the scanner makes strings of parts of lines per line and per file, during
 * a cold scan in which that JavaScript wrapper still runs in V8's interpreter. `start`/`end` must
 * lie within `buf`.
 */

/** `buf.toString('latin1', start, end)`: for plain ASCII values (timestamps, message ids, models). */
export function latin1(buf: Buffer, start: number, end: number): string {
  return NATIVE ? (buf as Required<NativeSlices>).latin1Slice(start, end) : buf.toString('latin1', start, end);
}

/** `buf.toString('utf8', start, end)`: for lines to be parsed. */
export function utf8(buf: Buffer, start: number, end: number): string {
  return NATIVE ? (buf as Required<NativeSlices>).utf8Slice(start, end) : buf.toString('utf8', start, end);
}
