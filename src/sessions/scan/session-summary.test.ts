import fc from 'fast-check';
import { beforeEach, describe, expect, it } from 'vitest';
import { LINE_READERS } from '../../../test/fixtures/scan-line-cases.js';
import type { LineView } from './read-jsonl-lines.js';
import type { ReadLine } from './read-line.js';
import type { ScanWarning } from './scan-warning.js';
import { SessionSummary } from './session-summary.js';

const FILE = '/home/u/.claude/projects/-w/00000000-0000-4000-8000-000000000000.jsonl';
const STAT = { size: 1, mtimeMs: Date.parse('2026-01-01T00:00:00.000Z'), birthtimeMs: 0 };

/** The line reader of the cases being run. */
let readLine: ReadLine;

/** Feeds `lines` through a summary, each as a view into a bigger buffer (as the line reader gives them). */
function summarise(lines: string[]) {
  const summary = new SessionSummary(FILE, STAT, readLine);
  let offset = 0;
  for (const line of lines) {
    const buf = Buffer.from(`garbage before ${line} and after`);
    const start = 'garbage before '.length;
    const view: LineView = {
      buf,
      start,
      end: start + Buffer.byteLength(line),
      offset,
      length: Buffer.byteLength(line),
      truncated: false,
      last: false,
    };
    summary.line(view);
    offset += view.length + 1;
  }
  const warnings: ScanWarning[] = [];
  return summary.finish(warnings).session;
}

const op = (timestamp: string) => JSON.stringify({ type: 'queue-operation', operation: 'enqueue', timestamp });
const human = (timestamp: string, text = 'hi') =>
  JSON.stringify({
    parentUuid: null,
    isSidechain: false,
    type: 'user',
    message: { role: 'user', content: text },
    timestamp,
    cwd: '/w',
  });
const assistant = (id: string, text = '') =>
  JSON.stringify({
    parentUuid: 'p',
    isSidechain: false,
    message: {
      id,
      type: 'message',
      role: 'assistant',
      model: 'm',
      content: [{ type: text ? 'text' : 'tool_use', text, id: 'toolu_x' }],
    },
    type: 'assistant',
    timestamp: '2026-05-01T00:00:00.000Z',
  });

// Every case with every implementation of the line seam.
describe.each(LINE_READERS)('SessionSummary, lines read by %s', (_name, read) => {
  beforeEach(() => {
    readLine = read;
  });

  it('keeps the first and the newest timestamp, whatever their spelling (property)', () => {
    const instant = fc.integer({ min: Date.parse('2000-01-01'), max: Date.parse('2099-12-31') });
    // Canonical (compared as bytes), other ISO spellings (through Date.parse), and from parsed lines.
    const spelled = fc.tuple(instant, fc.constantFrom('canonical', 'seconds', 'offset', 'parsed')).map(([t, how]) => {
      const iso = new Date(t).toISOString();
      const spelling =
        how === 'seconds' ? iso.replace(/\.\d{3}Z$/, 'Z') : how === 'offset' ? iso.replace(/Z$/, '+00:00') : iso;
      return {
        line: how === 'parsed' ? human(spelling) : op(spelling),
        iso: new Date(Date.parse(spelling)).toISOString(),
      };
    });
    fc.assert(
      fc.property(fc.array(spelled, { minLength: 1, maxLength: 30 }), (items) => {
        const s = summarise(items.map((i) => i.line));
        const isos = items.map((i) => i.iso);
        expect(s.createdAt).toBe(isos[0]);
        expect(s.lastActive).toBe([...isos].sort().at(-1));
      }),
      { numRuns: 300 },
    );
  });

  it('takes the cwd and the first time from bookkeeping lines too', () => {
    const system = (fields: Record<string, string>) => JSON.stringify({ type: 'system', subtype: 'info', ...fields });
    const first = summarise([system({ cwd: '/w' }), op('2026-05-01T00:00:01.000Z'), op('2026-05-01T00:00:05.000Z')]);
    expect(first).toMatchObject({
      cwd: '/w',
      createdAt: '2026-05-01T00:00:01.000Z',
      lastActive: '2026-05-01T00:00:05.000Z',
    });
    const late = summarise([
      op('2026-05-01T00:00:01.000Z'),
      op('2026-05-01T00:00:02.000Z'),
      system({ cwd: '/w', timestamp: '2026-05-01T00:00:03.000Z' }),
      op('2026-05-01T00:00:04.000Z'),
    ]);
    expect(late).toMatchObject({
      cwd: '/w',
      createdAt: '2026-05-01T00:00:01.000Z',
      lastActive: '2026-05-01T00:00:04.000Z',
    });
  });

  it('ignores timestamps that are not ISO dates and falls back to the file times', () => {
    const s = summarise([op('yesterday'), op('2026-13-99T99:99Z')]);
    expect(s.createdAt).toBe(new Date(STAT.mtimeMs).toISOString());
    expect(s.lastActive).toBe(new Date(STAT.mtimeMs).toISOString());
  });

  it('counts an assistant message once across its lines, remembering the last 64 ids', () => {
    const ids = Array.from({ length: 70 }, (_, i) => `msg_${i}`);
    expect(
      summarise([assistant('msg_a'), assistant('msg_a'), human('2026-05-01T00:00:00.000Z'), assistant('msg_a')])
        .messageCount,
    ).toBe(2);
    // msg_0 fell out of the ring after 64 newer ids: seen again, it counts again; msg_69 does not.
    expect(summarise([...ids.map((id) => assistant(id)), assistant('msg_0'), assistant('msg_69')]).messageCount).toBe(
      71,
    );
  });

  it('keeps the model of the newest assistant message and matches ids however they are spelled', () => {
    const withModel = (id: string, model: string) =>
      assistant(id).replace('"model":"m"', `"model":${JSON.stringify(model)}`);
    const models = summarise([
      withModel('msg_a', 'claude-a'),
      withModel('msg_a', 'claude-a'),
      withModel('msg_b', 'claude-b'),
      withModel('msg_c', '<synthetic>'),
    ]);
    expect(models.model).toBe('claude-b');
    expect(models.messageCount).toBe(3);
    // One message whose id is once plain, once escaped, and ids that are not ASCII.
    const escaped = assistant('msg_a').replace('"id":"msg_a"', '"id":"msg\\u005fa"');
    expect(summarise([assistant('msg_a'), escaped, assistant('msg_a')]).messageCount).toBe(1);
    expect(
      summarise([assistant('msg_é'), assistant('msg_é'), assistant('msg_x'), assistant('msg_é')]).messageCount,
    ).toBe(2);
  });

  it('a message id seen again after 64 others counts again, whatever the models of the lines between', () => {
    const line = (id: string, model: string) =>
      JSON.stringify({
        parentUuid: 'p',
        isSidechain: false,
        message: { id, type: 'message', role: 'assistant', model, content: [{ type: 'tool_use', id: 'toolu_x' }] },
        type: 'assistant',
        timestamp: '2026-05-01T00:00:00.000Z',
      });
    // Models that are not ASCII between plain ones, and the other way round.
    const between = Array.from({ length: 64 }, (_, i) => line(`msg_${i}`, '模型'));
    expect(summarise([line('msg_a', 'm'), ...between, line('msg_a', 'm')]).messageCount).toBe(66);
    const plain = Array.from({ length: 64 }, (_, i) => line(`msg_${i}`, 'm'));
    expect(summarise([line('msg_x', '模型'), ...plain, line('msg_x', '模型')]).messageCount).toBe(66);
    expect(summarise([line('msg_a', 'm'), line('msg_a', '模型'), line('msg_a', 'm')]).messageCount).toBe(1);
    expect(
      summarise([line('msg_a', 'm'), line('msg_b', '模型'), line('msg_a', 'm'), line('msg_b', 'x')]).messageCount,
    ).toBe(2);
  });

  it('takes the newest assistant text that is not blank for the previews', () => {
    const s = summarise([
      human('2026-05-01T00:00:00.000Z', 'question'),
      assistant('msg_1', 'the answer'),
      assistant('msg_2'),
    ]);
    expect(s.lastAssistantPreview).toBe('the answer');
    expect(s.lastMessagePreview).toBe('the answer');
    expect(s.lastUserPreview).toBe('question');
  });
});
