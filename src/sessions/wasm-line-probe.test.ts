import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
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
import { decodeText, LineProbe, probeInJs, probeInto, WINDOW } from './probe-line.js';
import { WasmLineProbe } from './wasm-line-probe.js';

const wasm = WasmLineProbe.shared();
const ROOT = path.resolve(__dirname, '..', '..');

/** What a probe says about a line, in terms that do not depend on where the line lies in its buffer. */
function answer(p: LineProbe, buf: Buffer): Record<string, unknown> {
  if (p.kind === 'invalid' || p.kind === 'parse') return { kind: p.kind };
  const base = { kind: p.kind, timestamp: p.timestampOf(buf) };
  if (p.kind === 'skip') return base;
  if (p.kind === 'human') return { ...base, sidechain: p.sidechain, text: p.textOf(buf) };
  return {
    ...base,
    messageId: p.messageIdOf(buf),
    model: p.modelOf(buf),
    sidechain: p.sidechain,
    mayHaveText: p.mayHaveText,
    answer: p.textStart >= 0 ? decodeText(buf, p.textStart, p.textEnd, p.textEscaped) : null,
  };
}

const stats = { lines: 0, declined: 0 };

/**
 * Probes `line` with the WebAssembly probe (in its buffer, at `offset`) and with the JavaScript
 * probe (in a buffer of its own) and expects the same answer — also from `probeInto`, which picks
 * the probe by buffer. Returns whether the WebAssembly probe declined the line.
 */
function expectSameAnswer(line: Buffer, offset: number): boolean {
  if (!wasm) throw new Error('no WebAssembly here');
  const own = Buffer.concat([Buffer.from('xx'), line, Buffer.from('\n')]);
  const expected = answer(probeInJs(new LineProbe(), own, 2, 2 + line.length), own);
  line.copy(wasm.buffer, offset);
  const out = new LineProbe();
  const handled = wasm.probeInto(out, offset, offset + line.length);
  if (handled) expect(answer(out, wasm.buffer), line.toString('latin1', 0, 200)).toEqual(expected);
  expect(answer(probeInto(new LineProbe(), wasm.buffer, offset, offset + line.length), wasm.buffer)).toEqual(expected);
  stats.lines += 1;
  if (!handled) stats.declined += 1;
  return !handled;
}

/**
 * Pieces of a line as the probe sees them: the envelope keys it searches for, values it reads,
 * and filler around the window size, so random joins put keys across window edges, in nested
 * objects, inside strings, escaped, and at the very ends of a line.
 */
const pieceArb = fc.oneof(
  fc.constantFrom(
    '"type":"',
    'user"',
    'assistant"',
    'text"',
    'summary"',
    'custom-title"',
    'ai-title"',
    'title"',
    '"type":"text"',
    '"tool_result"',
    '"isSidechain":true',
    '"isSidechain":false',
    '"isSidechain":',
    '"message":{',
    '"id":"msg_01A"',
    '"id":"toolu_01"',
    '"id":"',
    '"model":"claude-opus-4-1"',
    '"model":"<synthetic>"',
    '"model":""',
    '"model":"',
    '"timestamp":"2026-05-05T10:30:00.000Z"',
    '"timestamp":"2026-05-05T10:30:00Z"',
    '"timestamp":"yesterday"',
    '"timestamp":"',
    '2026-05-05T10:30:00.000Z"',
    '"cwd":"/tmp/x"',
    '"message":{"role":"user","content":"',
    '"message":',
    '"content":[{"type":"text","text":"',
    '"}]',
    '"content":',
    '<system-reminder>',
    '<command-name>',
    '[Request',
    '"isMeta":true',
    '\\n',
    '\\u0068',
    '\u3000',
    '\u00a0',
    '{',
    '}',
    '[',
    ']',
    ',',
    ':',
    '"',
    '\\"',
    '\\u0065',
    'é',
    '项',
    '\\',
    'x',
  ),
  fc.constantFrom(1, 7, 100, WINDOW - 20, WINDOW - 1, WINDOW, 2 * WINDOW - 30).map((n) => 'y'.repeat(n)),
);

/** A line of pieces, usually an object (`{"type":"` first, or not), sometimes not. */
const lineArb = fc
  .tuple(
    fc.constantFrom('{"type":"', '{"parentUuid":null,', '{', ''),
    fc.array(pieceArb, { maxLength: 24 }),
    fc.constantFrom('}', '"}', '}}', ''),
  )
  .map(([head, pieces, tail]) => Buffer.from(head + pieces.join('') + tail));

describe.skipIf(!wasm)('WasmLineProbe', () => {
  it('answers as the JavaScript probe for every line of generated sessions (property)', () => {
    const before = { ...stats };
    fc.assert(
      fc.property(probeSpecArb, fc.nat(), fc.boolean(), fc.nat(4096), (spec, seed, shuffle, offset) => {
        for (const raw of sessionLines(spec, createRng(seed)))
          expectSameAnswer(Buffer.from(shuffle ? shuffledKeys(raw, seed) : raw), offset);
      }),
      { numRuns: 150 },
    );
    // Generated sessions are plain ASCII envelopes: the WebAssembly probe takes nearly all of them.
    expect(stats.declined - before.declined).toBeLessThan((stats.lines - before.lines) / 10);
  });

  it('reads the same prompt lines as the JavaScript probe, and leaves the same ones to JSON.parse', () => {
    for (const line of HUMAN_PROMPT_LINES) {
      for (const offset of [0, 1, 4096]) expect(expectSameAnswer(Buffer.from(line), offset), line).toBe(false);
      const buf = Buffer.from(line);
      buf.copy(wasm?.buffer as Buffer, 7);
      expect(wasm?.probeCode(7, 7 + buf.length)).toBe(5); // human, in the module itself
    }
    for (const line of PARSED_USER_LINES) for (const offset of [0, 4096]) expectSameAnswer(Buffer.from(line), offset);
  });

  it('reads the same answer texts as the JavaScript probe, and leaves the same ones', () => {
    for (const line of [...ANSWER_LINES, ...OTHER_ANSWER_LINES])
      for (const offset of [0, 3, 4096]) expect(expectSameAnswer(Buffer.from(line), offset), line).toBe(false);
  });

  it('answers as the JavaScript probe for random joins of envelope pieces, or declines (property)', () => {
    const before = { ...stats };
    fc.assert(
      fc.property(lineArb, fc.nat(4096), (line, offset) => {
        expectSameAnswer(line, offset);
      }),
      { numRuns: 4000 },
    );
    // Declining is for values that need decoding, not a way out of every line.
    expect(stats.declined - before.declined).toBeLessThan((stats.lines - before.lines) / 2);
  });

  it('declines a line whose values need decoding, and probeInto gives the JavaScript answer', () => {
    const lines = [
      '{"type":"us\\u0065r","message":{}}',
      '{"type":"queue-operation","timestamp":"\\u0032026-05-05T10:30:00Z"}',
      '{"parentUuid":null,"type":"assistant","message":{"id":"msg_\\u0031","model":"m"}}',
      '{"parentUuid":null,"type":"assistant","message":{"id":"msg_1","model":"模型"}}',
    ];
    for (const line of lines) expect(expectSameAnswer(Buffer.from(line), 0)).toBe(true);
  });

  it('answers edge cases of the envelope as the JavaScript probe', () => {
    const ts = '"timestamp":"2026-05-05T10:30:00.000Z"';
    const lines = [
      // isSidechain read at the top-level key, not from a nested object, and found after a bracket
      `{"parentUuid":null,"isSidechain":false,"type":"assistant","message":{"id":"msg_1","model":"m","content":[{"type":"tool_use","input":{"isSidechain":true}}]},${ts}}`,
      `{"parentUuid":null,"isSidechain":true,"type":"assistant","message":{"id":"msg_1","model":"m","content":[{"type":"tool_use","input":{"isSidechain":false}}]},${ts}}`,
      `{"message":{"id":"msg_1","model":"m","content":[]},"type":"assistant","isSidechain":true,${ts}}`,
      // the CLI's placeholder model, an empty one, a tool-use id, a title type not first
      `{"type":"x","message":{"id":"msg_1","model":"<synthetic>"},"parentUuid":null,"isSidechain":false,"y":{"type":"assistant"},${ts}}`,
      `{"parentUuid":null,"type":"assistant","message":{"id":"msg_1","model":""},${ts}}`,
      `{"parentUuid":null,"type":"assistant","message":{"id":"toolu_01"},${ts}}`,
      `{"sessionId":"s","type":"ai-title","aiTitle":"t",${ts}}`,
      // windows: a long tool result whose type is only in the head, a timestamp only in the tail
      `{"parentUuid":null,"type":"user","message":{"content":[{"type":"tool_result","content":"${'z'.repeat(3 * WINDOW)}"}]},${ts}}`,
      `{"parentUuid":null,"type":"assistant","message":{"id":"msg_2","model":"m","content":[{"type":"tool_use","input":"${'z'.repeat(3 * WINDOW)}"}]},${ts}}`,
      `{"parentUuid":null,"type":"assistant","message":{"id":"msg_2","model":"m","content":[{"type":"tool_use","input":"${'z'.repeat(3 * WINDOW)}"},{"type":"text","text":"hi"}]},${ts}}`,
    ];
    // A line of exactly two windows is read whole: a key across its middle counts.
    const head = `{"type":"queue-operation","pad":"${'p'.repeat(WINDOW - 40)}",`;
    const twoWindows = `${head}${ts},"pad2":"`;
    lines.push(`${twoWindows}${'q'.repeat(2 * WINDOW - twoWindows.length - 2)}"}`);
    expect(Buffer.byteLength(lines.at(-1) as string)).toBe(2 * WINDOW);
    for (const line of lines) expect(expectSameAnswer(Buffer.from(line), 5), line.slice(0, 120)).toBe(false);
    const p = new LineProbe();
    const first = Buffer.from(lines[0] as string);
    first.copy(wasm?.buffer as Buffer, 0);
    expect(probeInto(p, wasm?.buffer as Buffer, 0, first.length).sidechain).toBe(false);
  });

  it('reads only the line: bytes around it in the buffer change nothing', () => {
    const line = Buffer.from(
      '{"parentUuid":null,"type":"assistant","message":{"id":"msg_1","model":"m","content":[{"type":"text","text":"hi"}]},"timestamp":"2026-05-05T10:30:00.000Z"}',
    );
    const noise = Buffer.from(
      '"type":"user" "timestamp":"2026-06-06T00:00:00.000Z" "isSidechain":true {"type":"summary"}',
    );
    for (const fill of [0x00, 0x22, 0x7b, 0x7d]) {
      wasm?.buffer.fill(fill, 0, 8192);
      noise.copy(wasm?.buffer as Buffer, 4096 - noise.length);
      noise.copy(wasm?.buffer as Buffer, 4096 + line.length);
      expect(expectSameAnswer(line, 4096)).toBe(false);
    }
  });

  it('is the compile of assembly/line-probe.ts (npm run build:wasm)', () => {
    const check = spawnSync(process.execPath, [path.join(ROOT, 'scripts', 'build-wasm.mjs'), '--check'], {
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect(check.stderr).toBe('');
    expect(check.status).toBe(0);
    const stale = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'cc-wasm-')), 'module.ts');
    fs.writeFileSync(stale, "export const LINE_PROBE_WASM = '';\n");
    const detect = spawnSync(
      process.execPath,
      [path.join(ROOT, 'scripts', 'build-wasm.mjs'), '--check', '--out', stale],
      { encoding: 'utf8', timeout: 120_000 },
    );
    expect(detect.status).toBe(1);
    expect(detect.stderr).toContain('run `npm run build:wasm`');
    fs.rmSync(path.dirname(stale), { recursive: true, force: true });
  }, 240_000);
});
