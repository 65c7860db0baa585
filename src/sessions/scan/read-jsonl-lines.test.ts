import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  fdSource,
  handleSource,
  LONG_LINE_WINDOW,
  readJsonlLines,
  readJsonlLinesSync,
  type LineView,
} from './read-jsonl-lines.js';

let tmp: string;
beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cc-lines-'));
});
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** Reads `text` back through readJsonlLines (sync and async sources) and readJsonlLinesSync, in turn. */
let turn = 0;
async function collect(
  text: string | Buffer,
  opts: { chunkSize?: number; maxLineBytes?: number; knownSize?: boolean } = {},
) {
  const file = path.join(tmp, `f-${Math.random()}.jsonl`);
  fs.writeFileSync(file, text);
  const lines: { text: string; offset: number; length: number; truncated: boolean; last: boolean }[] = [];
  const sink = (l: LineView) =>
    lines.push({
      text: l.buf.toString('utf8', l.start, l.end),
      offset: l.offset,
      length: l.length,
      truncated: l.truncated,
      last: l.last,
    });
  const options = {
    buffer: Buffer.alloc(opts.chunkSize ?? 1024 * 1024),
    maxLineBytes: opts.maxLineBytes,
    size: opts.knownSize ? fs.statSync(file).size : undefined,
  };
  turn = (turn + 1) % 3;
  if (turn !== 0) {
    const fd = fs.openSync(file, 'r');
    try {
      return {
        lines,
        stats:
          turn === 1
            ? await readJsonlLines(fdSource(fd), sink, options)
            : readJsonlLinesSync(fd, { line: sink }, options),
      };
    } finally {
      fs.closeSync(fd);
      fs.rmSync(file);
    }
  }
  const fh = await fs.promises.open(file, 'r');
  try {
    return { lines, stats: await readJsonlLines(handleSource(fh), sink, options) };
  } finally {
    await fh.close();
    fs.rmSync(file);
  }
}

describe('readJsonlLines', () => {
  it('splits like text.split("\\n") for any line lengths and chunk boundaries (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc
            .tuple(fc.string({ unit: 'binary', maxLength: 20 }), fc.nat(150_000), fc.boolean())
            .map(
              ([s, n, crlf]) =>
                `${s.replace(/[\n\r]/g, '')}${'é'.repeat(n % 3 === 0 ? n : n % 500)}${crlf ? '\r' : ''}`,
            ),
          { maxLength: 25 },
        ),
        fc.boolean(),
        async (raw, trailingNewline) => {
          const text = raw.join('\n') + (trailingNewline ? '\n' : '');
          const { lines } = await collect(text, {
            chunkSize: 64 * 1024,
            knownSize: raw.length % 2 === 0,
          });
          const expected = text
            .split('\n')
            .map((l) => l.replace(/\r$/, ''))
            .filter((l) => l.length > 0);
          expect(lines.map((l) => l.text)).toEqual(expected);
          const bytes = Buffer.from(text);
          for (const l of lines)
            expect(bytes.toString('utf8', l.offset, l.offset + Buffer.byteLength(l.text))).toBe(l.text);
        },
      ),
      { numRuns: 40 },
    );
  });

  it('delivers lines longer than the buffer whole, with their offsets', async () => {
    const a = 'a'.repeat(200 * 1024);
    const b = 'b'.repeat(70 * 1024);
    const { lines } = await collect(`${a}\n${b}\nshort\n`, { chunkSize: 64 * 1024 });
    expect(lines.map((l) => [l.text.length, l.offset, l.truncated])).toEqual([
      [a.length, 0, false],
      [b.length, a.length + 1, false],
      [5, a.length + b.length + 2, false],
    ]);
  });

  it('reduces a line over maxLineBytes to its two ends instead of buffering it', async () => {
    const huge = `{"head":1,${'x'.repeat(3 * 1024 * 1024)},"tail":2}`;
    const { lines, stats } = await collect(`${huge}\n{"ok":true}`, { chunkSize: 64 * 1024, maxLineBytes: 1024 * 1024 });
    expect(lines[0]?.truncated).toBe(true);
    expect(lines[0]?.length).toBe(huge.length);
    expect(lines[0]?.text.length).toBe(2 * LONG_LINE_WINDOW);
    expect(lines[0]?.text.startsWith('{"head":1,')).toBe(true);
    expect(lines[0]?.text.endsWith(',"tail":2}')).toBe(true);
    expect(lines[1]).toMatchObject({ text: '{"ok":true}', last: true, truncated: false });
    expect(stats.truncatedLines).toBe(1);
  });

  it('strips CRLF and marks a final line without newline as last', async () => {
    const { lines } = await collect('{"a":1}\r\n{"b":2', { chunkSize: 64 * 1024 });
    expect(lines).toMatchObject([
      { text: '{"a":1}', last: false },
      { text: '{"b":2', last: true },
    ]);
  });

  it('skips blank lines, also CRLF ones', async () => {
    const { lines } = await collect('\r\n{"a":1}\n\n\r\n{"b":2}\n');
    expect(lines.map((l) => l.text)).toEqual(['{"a":1}', '{"b":2}']);
  });

  it('handles an empty file', async () => {
    const { lines, stats } = await collect('');
    expect(lines).toEqual([]);
    expect(stats.lines).toBe(0);
  });
});
