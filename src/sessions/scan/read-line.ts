import { lineFacts, type LineFacts } from './line-facts.js';

/**
 * How the scanner reads one line of a session file — the seam between the scanner and the line
 * format. Given the line `buf[start, end)` (UTF-8, without its newline) it returns the line's
 * facts, or null when the line is not a JSON object (an invalid line, or the partial last line of
 * a file still being written).
 *
 * `readLineAsJson` is the reference. Any other implementation must return exactly what the
 * reference returns for every line (and fall back to it when unsure); the case table and the
 * property tests in read-line.test.ts run every implementation in `LINE_READERS` against it.
 */
export type ReadLine = (buf: Buffer, start: number, end: number) => LineFacts | null;

/**
 * The reference implementation: the line read as JSON (`JSON.parse`, so any spelling of the
 * same value — spaces after colons, another key order, `\u` escapes, duplicate keys — gives the
 * same facts), then classified by `lineFacts`. A JSON value that is not an object (`[1]`, `3`) is
 * not a session line.
 */
export function readLineAsJson(buf: Buffer, start: number, end: number): LineFacts | null {
  let value: unknown;
  try {
    value = JSON.parse(buf.toString('utf8', start, end));
  } catch {
    return null;
  }
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? lineFacts(value) : null;
}
