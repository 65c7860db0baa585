import { lineFacts, type LineFacts } from './line-facts.js';
import { readLineAsJson } from './read-line.js';

/** Lines shorter than this are read by the reference as they are: eliding pays only on long lines. */
const LONG_LINE = 2048;
/** Strings longer than this (in bytes, quotes included) are elided. */
const LONG_STRING = 256;
/** What an elided string becomes: the JSON string `"\u0000"`, whose value is one NUL character. */
const ELIDED = '"\\u0000"';
const NUL = '\u0000';
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * The scanner's fast `ReadLine`: a long line is read as JSON with its long strings left out.
 * Most bytes of a session file are in a few long strings the scanner never looks at (tool output,
 * file contents, thinking, attachments), and decoding them into strings is most of what reading
 * such a line as JSON costs.
 *
 * How: the line's string tokens are found from its start — outside a string the next `"` opens
 * one, and a string ends at the first `"` after it not escaped by an odd run of backslashes (both
 * found with the native byte search) — and each one longer than `LONG_STRING` bytes, key or
 * value, is replaced by `"\u0000"`; the rest is parsed by `JSON.parse`.
 *
 * Why the facts are the reference's (`readLineAsJson`) for every valid line: replacing one string
 * token by another changes nothing but that string's value. `lineFacts` decides only on short
 * values (`type`, flags, block types), and every string it returns (text, timestamp, cwd, id,
 * model, title) is checked: one holding a NUL may come from a left-out string, and then the line
 * is read by the reference instead. A line that ends inside a string (a partial line) is parsed
 * as it is, and fails as it does for the reference. What is not checked is the inside of a
 * left-out string: were it invalid JSON (a raw control character, an unknown escape), the
 * reference would reject the line and this reads it — never the case for a line a JSON writer
 * wrote.
 */
export function readLineEliding(buf: Buffer, start: number, end: number): LineFacts | null {
  if (end - start < LONG_LINE) return readLineAsJson(buf, start, end);
  const line = buf.subarray(start, end);
  let json = '';
  let kept = 0;
  for (let open = line.indexOf(QUOTE); open >= 0;) {
    const close = closingQuote(line, open);
    if (close < 0) break;
    if (close + 1 - open > LONG_STRING) {
      json += `${line.toString('utf8', kept, open)}${ELIDED}`;
      kept = close + 1;
    }
    open = line.indexOf(QUOTE, close + 1);
  }
  if (kept === 0) return readLineAsJson(buf, start, end);
  let value: unknown;
  try {
    value = JSON.parse(json + line.toString('utf8', kept));
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const facts = lineFacts(value);
  return mayBeElided(facts) ? readLineAsJson(buf, start, end) : facts;
}

/** The index of the `"` that closes the string opened at `open`, or -1 when the line ends first. */
function closingQuote(line: Buffer, open: number): number {
  for (let at = line.indexOf(QUOTE, open + 1); at >= 0; at = line.indexOf(QUOTE, at + 1)) {
    let before = at - 1;
    while (line[before] === BACKSLASH) before -= 1;
    if ((at - 1 - before) % 2 === 0) return at; // an even run of backslashes escapes each other, not the quote
  }
  return -1;
}

/** Whether a string of `facts` holds a NUL, as one that came from a left-out string does. */
function mayBeElided(f: LineFacts): boolean {
  return (
    f.text.includes(NUL) ||
    [f.timestamp, f.cwd, f.messageId, f.model, f.title].some((s) => s !== null && s.includes(NUL))
  );
}
