import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createRng, sessionLines, type SessionSpec } from '../../test/fixtures/claude-tree.js';
import { lineFacts } from './line-facts.js';
import { LineProbe, probeInto, probeLine, WINDOW } from './probe-line.js';

/** Session specs with the shapes that matter to the probe: tool output around the window sizes, sidechains, titles, CJK. */
const specArb: fc.Arbitrary<SessionSpec> = fc.record({
  seed: fc.nat(),
  outputs: fc.array(fc.constantFrom(0, 10, WINDOW - 300, WINDOW, 2 * WINDOW - 200, 2 * WINDOW + 1, 5 * WINDOW, 40_000), { minLength: 1, maxLength: 3 }),
  sidechain: fc.boolean(),
  title: fc.constantFrom(undefined, 'summary', 'custom-title') as fc.Arbitrary<'summary' | 'custom-title' | undefined>,
  preamble: fc.constantFrom('none', 'slash-command') as fc.Arbitrary<'none' | 'slash-command'>,
  cjk: fc.boolean(),
  model: fc.constantFrom('claude-sonnet-4-5', '<synthetic>'),
}).map((r) => ({
  id: `${String(r.seed % 100_000_000).padStart(8, '0')}-0000-4000-8000-000000000000`,
  cwd: r.cjk ? '/tmp/项目/x' : '/tmp/a-b/c',
  start: new Date('2026-05-01T00:00:00.000Z'),
  model: r.model,
  sidechain: r.sidechain,
  preamble: r.preamble,
  title: r.title ? { type: r.title, text: 'A title' } : undefined,
  turns: r.outputs.map((n, i) => ({
    prompt: r.cjk ? `第${i}个问题 "quoted"` : `Prompt ${i} with "quotes" and \\ backslash`,
    answer: `Answer ${i}`,
    thinking: i === 0 ? 'thinking…' : undefined,
    tools: n > 0 ? [{ name: 'Read', input: { file_path: '/x' }, output: `"type":"assistant" ${'é'.repeat(n % 7)}${'x'.repeat(n)}` }] : undefined,
  })),
}));

/**
 * The line's top-level keys in another order: the probe must not depend on the CLI's order, except
 * that a line whose `type` comes first keeps it first (title lines are only recognised so).
 */
function shuffled(line: string, seed: number): string {
  const obj = JSON.parse(line) as Record<string, unknown>;
  const rng = createRng(seed);
  const [first, ...rest] = Object.keys(obj);
  const keys = first === 'type' ? [first, ...rest.sort(() => rng() - 0.5)] : Object.keys(obj).sort(() => rng() - 0.5);
  return JSON.stringify(Object.fromEntries(keys.map((k) => [k, obj[k]])));
}

describe('probeLine', () => {
  it('agrees with JSON.parse + lineFacts whenever it does not ask for a parse (property)', () => {
    fc.assert(
      fc.property(specArb, fc.nat(), fc.boolean(), (spec, seed, shuffle) => {
        for (const raw of sessionLines(spec, createRng(seed))) {
          const line = shuffle ? shuffled(raw, seed) : raw;
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
          }
        }
      }),
      { numRuns: 150 },
    );
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
      ['{"type":"user","message":{"role":"user","content":"hi"}}', 'parse'],
      ['{"type":"us\\u0065r","message":{}}', 'parse'],
      ['{"parentUuid":null,"type":"user","message":{"role":"user","content":"hi"}}', 'parse'],
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
