import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createRng, writeSession, type SessionSpec } from '../../../test/fixtures/claude-tree.js';
import { emptyRegistry, type Registry } from '../registry/registry-schema.js';
import { searchContent } from './search-sessions.js';

let tmp: string;
beforeEach(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cc-search-'));
});
afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

const start = new Date('2026-05-01T00:00:00.000Z');
const id = (n: number) => `${String(n).padStart(8, '0')}-0000-4000-8000-000000000000`;

/** Writes the sessions and a registry that lists them (metadata that never matches the queries). */
function treeOf(specs: SessionSpec[]): Registry {
  const registry = emptyRegistry(start);
  for (const spec of specs) {
    const { file } = writeSession(path.join(tmp, '.claude'), spec, createRng(7));
    registry.sessions[spec.id] = {
      agent: 'claude',
      origin: 'cli',
      cwd: spec.cwd,
      project_name: 'p',
      jsonl_path: file,
      project_dir: null,
      created_at: start.toISOString(),
      last_active: start.toISOString(),
      title: null,
      message_count: 0,
      last_message_preview: '',
    };
  }
  return registry;
}

const spec = (n: number, turns: SessionSpec['turns'], extra: Partial<SessionSpec> = {}): SessionSpec => ({
  id: id(n),
  cwd: `/tmp/p${n}`,
  start,
  turns,
  ...extra,
});

describe('searchContent', () => {
  it('finds prompts and answers, not tool output or sidechains, with a snippet of the first match', async () => {
    const registry = treeOf([
      spec(1, [{ prompt: 'Please fix the Flaky Parser', answer: 'The flaky parser is fixed now.' }]),
      spec(2, [
        {
          prompt: 'Read a file',
          answer: 'Done.',
          tools: [{ name: 'Read', input: { file_path: '/x' }, output: 'the flaky parser lives here' }],
        },
      ]),
      spec(3, [{ prompt: 'Nothing relevant', answer: 'Answer mentioning a FLAKY PARSER in capitals.' }]),
      spec(4, [{ prompt: 'Sub-agent work', answer: 'Done.' }], { sidechain: true }),
    ]);
    const hits = await searchContent(registry, 'flaky parser', { maxFileSize: 1 << 30 });
    expect(hits.map((h) => h.id).sort()).toEqual([id(1), id(3)]);
    const first = hits.find((h) => h.id === id(1));
    expect(first?.fields).toEqual(['content']);
    expect(first?.snippet).toBe('Please fix the Flaky Parser'); // the prompt, the file's first match
    // Session 4's sub-agent exchange ("Sub-agent task: list the files" / "sub-agent answer") is not searched.
    expect(await searchContent(registry, 'sub-agent answer', { maxFileSize: 1 << 30 })).toEqual([]);
    expect(await searchContent(registry, 'list the files', { maxFileSize: 1 << 30 })).toEqual([]);
    expect((await searchContent(registry, 'sub-agent work', { maxFileSize: 1 << 30 })).map((h) => h.id)).toEqual([
      id(4),
    ]);
  });

  it('reads past the first read buffer, and skips files over the size limit or gone', async () => {
    const big = 'z'.repeat(300_000);
    const registry = treeOf([
      spec(1, [
        { prompt: 'one', answer: 'a', tools: [{ name: 'Read', input: {}, output: big }] },
        { prompt: 'two', answer: 'b', tools: [{ name: 'Read', input: {}, output: big }] },
        { prompt: 'three', answer: 'b', tools: [{ name: 'Read', input: {}, output: big }] },
        { prompt: 'four', answer: 'b', tools: [{ name: 'Read', input: {}, output: big }] },
        { prompt: 'the needle at the end', answer: 'ok' },
      ]),
      spec(2, [{ prompt: 'a needle in a gone file', answer: 'ok' }]),
    ]);
    expect(fs.statSync(registry.sessions[id(1)]?.jsonl_path as string).size).toBeGreaterThan(1024 * 1024);
    fs.rmSync(registry.sessions[id(2)]?.jsonl_path as string);
    expect((await searchContent(registry, 'needle', { maxFileSize: 1 << 30 })).map((h) => [h.id, h.snippet])).toEqual([
      [id(1), 'the needle at the end'],
    ]);
    expect(await searchContent(registry, 'needle', { maxFileSize: 1000 })).toEqual([]);
  });

  it('stops when its signal is aborted', async () => {
    const registry = treeOf([spec(1, [{ prompt: 'needle', answer: 'ok' }])]);
    const abort = new AbortController();
    abort.abort();
    expect(await searchContent(registry, 'needle', { maxFileSize: 1 << 30, signal: abort.signal })).toEqual([]);
  });
});
