import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createRng, sessionLines } from '../../test/fixtures/claude-tree.js';
import {
  ANSWER_LINES,
  HUMAN_PROMPT_LINES,
  OTHER_ANSWER_LINES,
  PARSED_USER_LINES,
  probeSpecArb,
  shuffledKeys,
} from '../../test/fixtures/probe-specs.js';
import { lineFacts } from './line-facts.js';
import { decodeText, LineProbe, probeCwd, probeInto, WINDOW, type Probe } from './probe-line.js';

/** Probes `line[start, end)` with `probeInto`, as a fresh `Probe` (a plain object to compare). */
function probeLine(buf: Buffer, start: number, end: number): Probe {
  const p = probeInto(new LineProbe(), buf, start, end);
  switch (p.kind) {
    case 'invalid':
    case 'parse':
      return { kind: p.kind };
    case 'skip':
      return { kind: 'skip', timestamp: p.timestampOf(buf) };
    case 'assistant':
      return {
        kind: 'assistant',
        timestamp: p.timestampOf(buf),
        sidechain: p.sidechain,
        messageId: p.messageIdOf(buf),
        model: p.modelOf(buf),
        mayHaveText: p.mayHaveText,
        answer: p.textStart >= 0 ? decodeText(buf, p.textStart, p.textEnd, p.textEscaped) : null,
      };
    case 'human':
      return { kind: 'human', timestamp: p.timestampOf(buf), sidechain: p.sidechain, text: p.textOf(buf) };
  }
}

const stats = { humans: 0, prompts: 0, answers: 0 };

describe('probeLine', () => {
  it('agrees with JSON.parse + lineFacts whenever it does not ask for a parse (property)', () => {
    fc.assert(
      fc.property(probeSpecArb, fc.nat(), fc.boolean(), (spec, seed, shuffle) => {
        for (const raw of sessionLines(spec, createRng(seed))) {
          const line = shuffle ? shuffledKeys(raw, seed) : raw;
          const buf = Buffer.from(`xx${line}\n`);
          const p = probeLine(buf, 2, buf.length - 1);
          const f = lineFacts(JSON.parse(line));
          expect(p.kind).not.toBe('invalid');
          if (p.kind === 'skip') {
            expect(['human', 'assistant', 'title']).not.toContain(f.kind);
            if (p.timestamp !== null) expect(p.timestamp).toBe(f.timestamp);
          }
          if (p.kind === 'assistant') {
            expect(f.kind).toBe('assistant');
            expect(p.messageId).toBe(f.messageId);
            expect(p.model).toBe(f.model);
            expect(p.sidechain).toBe(f.sidechain);
            if (p.timestamp !== null) expect(p.timestamp).toBe(f.timestamp);
            if (!p.mayHaveText) expect(f.text.trim()).toBe('');
            if (p.answer !== null) {
              expect(p.answer).toBe(f.text);
              stats.answers += 1;
            }
          }
          if (p.kind === 'human') {
            expect(f).toMatchObject({ kind: 'human', text: p.text, sidechain: p.sidechain });
            expect(p.timestamp).toBe(f.timestamp);
            stats.humans += 1;
          }
          if (f.kind === 'human') stats.prompts += 1;
        }
      }),
      { numRuns: 150 },
    );
    // The CLI's own prompt lines (keys in its order) are read without a parse.
    expect(stats.humans).toBeGreaterThan(stats.prompts / 4);
    expect(stats.answers).toBeGreaterThan(0);
  });

  it('reads plain timestamps as byte ranges and decodes the others', () => {
    const out = new LineProbe();
    const plain = Buffer.from('{"type":"queue-operation","timestamp":"2026-05-05T10:30:00.000Z"}');
    probeInto(out, plain, 0, plain.length);
    expect(out.kind).toBe('skip');
    expect(plain.toString('latin1', out.tsStart, out.tsEnd)).toBe('2026-05-05T10:30:00.000Z');
    expect(out.timestamp).toBeNull();
    const escaped = Buffer.from('{"type":"queue-operation","timestamp":"\\u0032026-05-05T10:30:00Z"}');
    probeInto(out, escaped, 0, escaped.length);
    expect(out.tsStart).toBe(-1);
    expect(out.timestamp).toBe('2026-05-05T10:30:00Z');
    const notIso = Buffer.from('{"type":"queue-operation","timestamp":"yesterday"}');
    expect(probeLine(notIso, 0, notIso.length)).toEqual({ kind: 'skip', timestamp: null });
  });

  it('parses what it cannot judge and rejects what is not an object', () => {
    const cases: [string, string][] = [
      ['{"type":"us\\u0065r","message":{}}', 'parse'],
      ['{"type":"custom-title","customTitle":"x"}', 'parse'],
      ['{"leafUuid":"u1","type":"summary","summary":"Fix the build"}', 'parse'],
      ['{"sessionId":"s1","type":"custom-title","customTitle":"x"}', 'parse'],
      ['{"sessionId":"s1","type":"ai-title","aiTitle":"y"}', 'parse'],
      ['{"message":{"content":[]},"type":"assistant"}', 'parse'],
      ['{"message":{"id":"toolu_1"},"type":"assistant"}', 'parse'],
      ['{"type":"assistant","x":{"type":"user"}}', 'parse'],
      ['not json', 'invalid'],
      ['{"type":"user"', 'invalid'],
    ];
    for (const [line, kind] of cases) expect(probeLine(Buffer.from(line), 0, Buffer.byteLength(line)).kind).toBe(kind);
  });
});

describe('probeLine on prompt lines', () => {
  it('reads a typed prompt as the CLI writes it without a parse, exactly as lineFacts reads it', () => {
    for (const line of HUMAN_PROMPT_LINES) {
      const p = probeLine(Buffer.from(line), 0, Buffer.byteLength(line));
      const f = lineFacts(JSON.parse(line));
      expect(p, line).toEqual({ kind: 'human', timestamp: f.timestamp, sidechain: f.sidechain, text: f.text });
    }
  });

  it('parses every other user line: wrappers, reminders, meta lines, escapes, other shapes, long lines', () => {
    for (const line of PARSED_USER_LINES)
      expect(probeLine(Buffer.from(line), 0, Buffer.byteLength(line)).kind, line.slice(0, 300)).toBe('parse');
  });
});

describe('probeLine on answer lines', () => {
  it('reads the text of a one-text-block answer from its bytes, exactly as lineFacts reads it', () => {
    for (const line of ANSWER_LINES) {
      const p = probeLine(Buffer.from(line), 0, Buffer.byteLength(line));
      expect(p, line).toMatchObject({ kind: 'assistant', answer: lineFacts(JSON.parse(line)).text });
    }
  });

  it('leaves any other content or message shape to JSON.parse', () => {
    for (const line of OTHER_ANSWER_LINES)
      expect(probeLine(Buffer.from(line), 0, Buffer.byteLength(line)), line).toMatchObject({
        kind: 'assistant',
        answer: null,
      });
  });
});

describe('probeCwd', () => {
  const cwdOf = (line: string): string | null => {
    const buf = Buffer.from(`[1,2]\n${line}\n{"cwd":"/elsewhere"}`); // bytes around the line must not count
    return probeCwd(buf, 6, 6 + Buffer.byteLength(line));
  };

  it('reads a plain, a non-ASCII and an escaped cwd like JSON.parse', () => {
    for (const cwd of ['/home/me/app', '/home/我/项目 一', 'C:\\Users\\me\\app', '/tmp/say "hi"', '/tmp/tab\there']) {
      const line = JSON.stringify({ type: 'user', cwd, sessionId: 's' });
      expect(cwdOf(line)).toBe(cwd);
    }
  });

  it('takes the last cwd of a short line, and looks only at the two ends of a long one', () => {
    expect(cwdOf('{"cwd":"/first","x":{"cwd":"/second"}}')).toBe('/second');
    const pad = 'x'.repeat(3 * WINDOW);
    expect(cwdOf(JSON.stringify({ cwd: '/head', tool: pad }))).toBe('/head');
    expect(cwdOf(JSON.stringify({ tool: pad, cwd: '/tail' }))).toBe('/tail');
    expect(cwdOf(JSON.stringify({ a: pad, cwd: '/middle', b: pad }))).toBeNull();
  });

  it('gives null when there is no cwd or its value does not end in the window', () => {
    expect(cwdOf('{"type":"queue-operation","operation":"enqueue"}')).toBeNull();
    expect(cwdOf('{"cwd":"/unterminated')).toBeNull();
    expect(cwdOf('{"cwd":3}')).toBeNull();
  });
});
