import { describe, expect, it } from 'vitest';
import { TextRing } from './text-ring.js';

/** A fake session file: assistant lines at known offsets, read back through `reread`. */
function file(lines: string[]): {
  offsets: number[];
  reread: (offset: number, length: number) => Buffer;
  reads: number[];
} {
  const text = lines.join('\n');
  const bytes = Buffer.from(text);
  const offsets: number[] = [];
  let at = 0;
  for (const l of lines) {
    offsets.push(at);
    at += Buffer.byteLength(l) + 1;
  }
  const reads: number[] = [];
  return { offsets, reads, reread: (offset, length) => (reads.push(offset), bytes.subarray(offset, offset + length)) };
}

const answer = (text: string) =>
  JSON.stringify({ type: 'assistant', message: { id: 'm', content: [{ type: 'text', text }] } });
const toolUse = JSON.stringify({
  type: 'assistant',
  message: { id: 'm', content: [{ type: 'tool_use', id: 't', name: 'Read', input: {} }] },
});

describe('TextRing', () => {
  it('gives nothing when nothing was added', () => {
    expect(new TextRing().newest(() => Buffer.alloc(0))).toBeNull();
  });

  it('gives the newest text, parsing a probed line only when it is the one needed', () => {
    const f = file([answer('first'), answer('second'), answer('third 为什么')]);
    const ring = new TextRing();
    ring.addLine(1, f.offsets[0] as number, Buffer.byteLength(answer('first')));
    ring.addText(2, 'parsed text');
    ring.addLine(3, f.offsets[2] as number, Buffer.byteLength(answer('third 为什么')));
    expect(ring.newest(f.reread)).toEqual({ seq: 3, text: 'third 为什么' });
    expect(f.reads).toEqual([f.offsets[2]]);
  });

  it('falls back to older lines when the newest have no text (blank, tool use, not JSON)', () => {
    const lines = [answer('kept'), answer('   '), toolUse, '{"type":"assistant",'];
    const f = file(lines);
    const ring = new TextRing();
    lines.forEach((l, i) => ring.addLine(i + 1, f.offsets[i] as number, Buffer.byteLength(l)));
    expect(ring.newest(f.reread)).toEqual({ seq: 1, text: 'kept' });
    expect(f.reads).toEqual([...(f.offsets as number[])].reverse());
  });

  it('decodes a text remembered by its place, reading only those bytes (with its quotes when escaped)', () => {
    const lines = [answer('plain 完成'), answer('two\nlines "quoted"')];
    const f = file(lines);
    const ring = new TextRing();
    const at = (i: number) => {
      const line = lines[i] as string;
      const q = line.indexOf('"text":"') + '"text":"'.length;
      const close = line.lastIndexOf('"}]');
      return {
        offset: (f.offsets[i] as number) + Buffer.byteLength(line.slice(0, q)),
        length: Buffer.byteLength(line.slice(q, close)),
      };
    };
    ring.addTextAt(1, at(0).offset, at(0).length, false);
    expect(ring.newest(f.reread)).toEqual({ seq: 1, text: 'plain 完成' });
    expect(f.reads).toEqual([at(0).offset]);
    ring.addTextAt(2, at(1).offset, at(1).length, true);
    expect(ring.newest(f.reread)).toEqual({ seq: 2, text: 'two\nlines "quoted"' });
    expect(f.reads.at(-1)).toBe(at(1).offset - 1);
  });

  it('remembers only the last eight lines', () => {
    const ring = new TextRing();
    ring.addText(1, 'old answer');
    for (let seq = 2; seq <= 9; seq += 1) ring.addText(seq, ' ');
    expect(ring.newest(() => Buffer.alloc(0))).toBeNull();
    ring.addText(10, 'new answer');
    expect(ring.newest(() => Buffer.alloc(0))).toEqual({ seq: 10, text: 'new answer' });
  });

  it('keeps order across many wrap-arounds', () => {
    const ring = new TextRing();
    for (let seq = 1; seq <= 100; seq += 1) ring.addText(seq, seq % 7 === 0 ? `answer ${seq}` : '');
    expect(ring.newest(() => Buffer.alloc(0))).toEqual({ seq: 98, text: 'answer 98' });
  });
});
