import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { RecordedCase } from '../../../test/fixtures/transcripts/recorded-case.js';
import { findTurn } from './find-turn.js';

const FIXTURES = path.join(import.meta.dirname, '../../../test/fixtures/transcripts');
const cases = JSON.parse(fs.readFileSync(path.join(FIXTURES, 'cases.json'), 'utf8')) as RecordedCase[];
const recorded = (file: string): RecordedCase => {
  const c = cases.find((x) => x.file === file);
  if (!c) throw new Error(`no recorded case ${file}`);
  return c;
};
const fixture = (file: string) => path.join(FIXTURES, file);

describe('findTurn on transcripts the real Claude Code wrote', () => {
  const finished = cases.filter((c) => c.resultText !== undefined && c.continuations.length === 0);

  it.each(finished.map((c) => [c.file, c] as const))(
    '%s: the prompt is found and the answer is the result text claude returned',
    async (_file, c) => {
      const found = await findTurn(fixture(c.file), { prompt: c.prompt, fromOffset: c.fromOffset });
      expect(found).toMatchObject({ state: 'finished', text: c.resultText, continued: false });
    },
  );

  it('a prompt with CJK, emoji and spaces at both ends matches only verbatim', async () => {
    const c = recorded('sdk-finished-cjk.jsonl');
    expect(c.prompt).toMatch(/🌏[\s\S]*  $/);
    expect(await findTurn(fixture(c.file), { prompt: c.prompt })).toMatchObject({ state: 'finished' });
    expect(await findTurn(fixture(c.file), { prompt: c.prompt.trim() })).toEqual({ state: 'absent' });
    expect(await findTurn(fixture(c.file), { prompt: `${c.prompt} ` })).toEqual({ state: 'absent' });
  });

  it('the answer of a message with thinking is its text; the thinking comes apart', async () => {
    const c = recorded('json-think-finished.jsonl');
    const found = await findTurn(fixture(c.file), { prompt: c.prompt });
    expect(found).toMatchObject({ state: 'finished', text: 'thought: 想一想再回答', thinking: '想一想再回答' });
  });

  it('text written before a tool call is not the answer: the last message is', async () => {
    const c = recorded('sdk-text-and-tool.jsonl');
    const found = await findTurn(fixture(c.file), { prompt: c.prompt });
    expect(found).toMatchObject({ state: 'finished', text: '完成：两步都做了。', toolUses: 1 });
  });

  it('the image-reference lines and a prompt of thousands of characters match whole', async () => {
    for (const file of ['sdk-image-prompt.jsonl', 'sdk-long-prompt.jsonl']) {
      const c = recorded(file);
      expect(await findTurn(fixture(file), { prompt: c.prompt })).toMatchObject({ state: 'finished' });
      expect(await findTurn(fixture(file), { prompt: c.prompt.slice(0, -1) })).toEqual({ state: 'absent' });
    }
    expect(recorded('sdk-long-prompt.jsonl').prompt.length).toBeGreaterThan(8000);
  });

  it('the same prompt sent earlier is skipped: the search starts where the run began', async () => {
    const c = recorded('sdk-repeated-prompt.jsonl');
    expect(c.fromOffset).toBeGreaterThan(0);
    expect(await findTurn(fixture(c.file), { prompt: c.prompt, fromOffset: c.fromOffset })).toMatchObject({
      state: 'finished',
      text: 'answer #2',
    });
    expect(await findTurn(fixture(c.file), { prompt: c.prompt })).toMatchObject({ text: 'answer #1' });
  });

  it('killed while a Bash command ran: cut after the tool call', async () => {
    const c = recorded('stream-json-cut-in-bash.jsonl');
    expect(await findTurn(fixture(c.file), { prompt: c.prompt })).toEqual({
      state: 'cut',
      continued: false,
      toolUses: 1,
      last: 'tool_use',
    });
  });

  it('killed after the tool result, before the answer: cut after the result', async () => {
    const c = recorded('sdk-cut-after-tool-result.jsonl');
    expect(await findTurn(fixture(c.file), { prompt: c.prompt })).toMatchObject({ state: 'cut', last: 'tool_result' });
  });

  it('killed while the answer streamed: the transcript holds only the prompt', async () => {
    const c = recorded('stream-json-cut-in-text.jsonl');
    expect(await findTurn(fixture(c.file), { prompt: c.prompt })).toMatchObject({ state: 'cut', last: 'prompt' });
  });

  it('resumed with a continue instruction: the turn is the prompt, the instruction and the answer after it', async () => {
    const c = recorded('stream-json-continued.jsonl');
    const found = await findTurn(fixture(c.file), { prompt: c.prompt, continuations: c.continuations });
    expect(found).toMatchObject({ state: 'finished', continued: true, text: c.resultText });
    // Not known as ours, the instruction is someone's next prompt: the turn before it stays cut
    // (Claude Code's "[Tool call interrupted…]" result and "No response requested." do not end it).
    expect(await findTurn(fixture(c.file), { prompt: c.prompt })).toMatchObject({ state: 'cut', last: 'tool_result' });
  });

  it('a prompt that is not there, or no file at all, is absent', async () => {
    expect(await findTurn(fixture('sdk-finished-cjk.jsonl'), { prompt: 'echo: 别的' })).toEqual({ state: 'absent' });
    expect(await findTurn(path.join(FIXTURES, 'nope.jsonl'), { prompt: 'x' })).toEqual({ state: 'absent' });
  });
});

// --- synthetic edge cases, in the shapes the real files have ---
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ccl-turn-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
let n = 0;
function file(lines: object[]): string {
  n += 1;
  const f = path.join(dir, `s${n}.jsonl`);
  fs.writeFileSync(f, lines.map((l) => `${JSON.stringify(l)}\n`).join(''));
  return f;
}
const user = (content: unknown, at = '2026-01-01T00:00:10.000Z', extra: object = {}) => ({
  type: 'user',
  message: { role: 'user', content },
  timestamp: at,
  ...extra,
});
const assistant = (id: string, content: object[], stop: string | null, extra: object = {}) => ({
  type: 'assistant',
  message: { id, role: 'assistant', model: 'claude-x', content, stop_reason: stop },
  ...extra,
});
const text = (t: string) => ({ type: 'text', text: t });
const toolUse = { type: 'tool_use', id: 'toolu_1', name: 'Bash', input: { command: 'make' } };
const toolResult = [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'built' }];

describe('findTurn edge cases', () => {
  it('a prompt equal to one written before the message was accepted is not this one', async () => {
    const f = file([
      user('继续', '2026-01-01T00:00:01.000Z'),
      assistant('m1', [text('old answer')], 'end_turn'),
      user('继续', '2026-01-01T00:00:20.000Z'),
    ]);
    expect(await findTurn(f, { prompt: '继续', after: '2026-01-01T00:00:10.000Z' })).toMatchObject({
      state: 'cut',
      last: 'prompt',
    });
    // An offset past the end (the file was rewritten) falls back to the time.
    expect(await findTurn(f, { prompt: '继续', fromOffset: 1e9, after: '2026-01-01T00:00:10.000Z' })).toMatchObject({
      state: 'cut',
    });
  });

  it('cut after a tool result, and cut inside text that did not end the turn', async () => {
    const afterResult = file([user('build it'), assistant('m1', [toolUse], 'tool_use'), user(toolResult)]);
    expect(await findTurn(afterResult, { prompt: 'build it' })).toMatchObject({ state: 'cut', last: 'tool_result' });
    const inText = file([user('build it'), assistant('m1', [text('half an ans')], null)]);
    expect(await findTurn(inText, { prompt: 'build it' })).toMatchObject({ state: 'cut', last: 'text' });
  });

  it('an answer whose blocks came on several lines is joined; only the final stop reason counts', async () => {
    const f = file([
      user('q'),
      assistant('m1', [{ type: 'thinking', thinking: 'hmm' }], null),
      assistant('m1', [text('part one')], null),
      assistant('m1', [text('part two')], 'end_turn'),
    ]);
    expect(await findTurn(f, { prompt: 'q' })).toMatchObject({
      state: 'finished',
      text: 'part one\npart two',
      thinking: 'hmm',
    });
  });

  it("images beside the text, a system reminder inside it, another user's next prompt after it", async () => {
    const image = { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'AAAA' } };
    const f = file([
      user([image, text('这张图里是什么？')]),
      assistant('m1', [text('一只猫')], 'end_turn'),
      user('下一个问题'),
      assistant('m2', [toolUse], 'tool_use'),
    ]);
    expect(await findTurn(f, { prompt: '这张图里是什么？' })).toMatchObject({ state: 'finished', text: '一只猫' });
    const reminded = file([
      user('<system-reminder>\nbe nice\n</system-reminder>\nfix the bug'),
      assistant('m1', [text('done')], 'end_turn'),
    ]);
    expect(await findTurn(reminded, { prompt: 'fix the bug' })).toMatchObject({ state: 'finished', text: 'done' });
  });

  it('sub-agent lines, meta lines and synthetic messages do not end or open the turn', async () => {
    const f = file([
      user('q'),
      assistant('m1', [text('answer')], 'end_turn'),
      assistant('s1', [toolUse], 'tool_use', { isSidechain: true }),
      user('caveat', undefined, { isMeta: true }),
      {
        type: 'assistant',
        message: {
          id: 'x',
          model: '<synthetic>',
          content: [text('No response requested.')],
          stop_reason: 'stop_sequence',
        },
      },
    ]);
    expect(await findTurn(f, { prompt: 'q' })).toMatchObject({ state: 'finished', text: 'answer' });
  });

  it('an interruption after the answer started leaves the turn cut', async () => {
    const f = file([
      user('q'),
      assistant('m1', [toolUse], 'tool_use'),
      user('[Request interrupted by user for tool use]'),
    ]);
    expect(await findTurn(f, { prompt: 'q' })).toMatchObject({ state: 'cut', last: 'interrupted' });
  });

  it('a torn last line and lines that are not JSON are skipped', async () => {
    const f = file([user('q'), assistant('m1', [text('answer')], 'end_turn')]);
    fs.appendFileSync(f, 'not json\n{"type":"assistant","message":{"id":"m2"');
    expect(await findTurn(f, { prompt: 'q' })).toMatchObject({ state: 'finished', text: 'answer' });
  });
});
