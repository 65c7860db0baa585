import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createRng, sessionLines } from '../../../test/fixtures/claude-tree.js';
import { randomSpelling, respell } from '../../../test/fixtures/json-respell.js';
import { big, LINE_CASES, LINE_READERS, sessionSpecArb, toolResult } from '../../../test/fixtures/scan-line-cases.js';
import { readLineAsJson } from './read-line.js';
import { readLineEliding } from './read-line-eliding.js';

/** Reads `line` the way the scanner gives it: a view into a bigger buffer (bytes around it must not count). */
function readAt(read: (typeof LINE_READERS)[number][1], line: string) {
  const bytes = Buffer.from(`{"x":1}\n${line}\n"tail"`);
  const start = Buffer.byteLength('{"x":1}\n');
  return read(bytes, start, start + Buffer.byteLength(line));
}

describe.each(LINE_READERS)('%s', (_name, read) => {
  it.each(LINE_CASES)('the shared case table: %s', (_case, line, expected) => {
    expect(readAt(read, line)).toEqual(expected);
  });

  it('gives the reference facts for any line of a session, however it is spelled (property)', () => {
    fc.assert(
      fc.property(sessionSpecArb, fc.nat(), fc.boolean(), (spec, n, respelled) => {
        for (const compact of sessionLines(spec, createRng(n))) {
          const line = respelled ? respell(JSON.parse(compact), randomSpelling(n)) : compact;
          const expected = readLineAsJson(Buffer.from(compact), 0, Buffer.byteLength(compact));
          expect(expected).not.toBeNull();
          expect(readAt(read, line)).toEqual(expected);
        }
      }),
      { numRuns: 60 },
    );
  });
});

describe('readLineEliding', () => {
  /** `line` with its last `what` replaced: inside the second long string, once eliding has begun. */
  const breakLast = (line: string, what: string, by: string) => {
    const at = line.lastIndexOf(what);
    return `${line.slice(0, at)}${by}${line.slice(at + what.length)}`;
  };

  // Not in the shared table on purpose: the one difference from the reference, on invalid lines only.
  it('does not look inside a long string it leaves out: invalid JSON there goes unnoticed', () => {
    for (const invalid of [
      breakLast(toolResult(big(5000)), 'const', 'con\tst'), // a raw tab
      breakLast(toolResult(big(5000)), 'const', 'con\\qst'), // an unknown escape
    ]) {
      expect(readAt(readLineAsJson, invalid)).toBeNull();
      expect(readAt(readLineEliding, invalid)?.kind).toBe('tool_result');
    }
  });
});
