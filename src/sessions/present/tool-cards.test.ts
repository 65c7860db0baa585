import { describe, expect, it } from 'vitest';
import type { ExportedTool } from './export-session.js';
import { CARD_LINES, toolCard } from './tool-cards.js';

const tool = (name: string, input: unknown, result: string | null = 'ok', isError = false): ExportedTool => ({
  name,
  input: JSON.stringify(input),
  result,
  isError,
  detail: { input, result },
});

describe('toolCard', () => {
  it('shows a Bash call as its command, with the output and error flag', () => {
    expect(toolCard(tool('Bash', { command: 'npm test', description: 'Run' }, 'boom', true))).toEqual({
      kind: 'bash',
      name: 'Bash',
      command: 'npm test',
      description: 'Run',
      result: 'boom',
      isError: true,
    });
  });

  it('shows a Read as its path with offset and limit', () => {
    expect(toolCard(tool('Read', { file_path: '/r/a.ts', offset: 10, limit: 5 }))).toMatchObject({
      kind: 'read',
      path: '/r/a.ts',
      offset: 10,
      limit: 5,
    });
    expect(toolCard(tool('Read', { file_path: '/r/a.ts' }))).toMatchObject({ offset: null, limit: null });
  });

  it('shows an Edit as hunks of removed and added lines', () => {
    const card = toolCard(tool('Edit', { file_path: '/r/a.ts', old_string: 'a\nb\nc', new_string: 'a\nB\nc\nd' }));
    expect(card).toMatchObject({ kind: 'edit', path: '/r/a.ts', added: 2, removed: 1, truncated: false });
    expect(card.kind === 'edit' && card.hunks[0]?.lines).toEqual([' a', '-b', '+B', ' c', '+d']);
  });

  it('shows a MultiEdit as the hunks of every edit, in order', () => {
    const card = toolCard(
      tool('MultiEdit', {
        file_path: '/r/b.ts',
        edits: [
          { old_string: 'one', new_string: 'uno' },
          { old_string: 'two', new_string: 'dos' },
        ],
      }),
    );
    expect(card.kind === 'edit' && card.hunks.map((h) => h.lines)).toEqual([
      ['-one', '+uno'],
      ['-two', '+dos'],
    ]);
    expect(card).toMatchObject({ added: 2, removed: 2 });
  });

  it('caps the lines of a big edit and of a written file, counting the rest', () => {
    const big = Array.from({ length: CARD_LINES + 50 }, (_, i) => `line ${i}`).join('\n');
    const edit = toolCard(tool('Edit', { file_path: '/r/c.ts', old_string: '', new_string: big }));
    expect(edit).toMatchObject({ kind: 'edit', added: CARD_LINES + 50, truncated: true });
    expect(edit.kind === 'edit' && edit.hunks.flatMap((h) => h.lines)).toHaveLength(CARD_LINES);
    const write = toolCard(tool('Write', { file_path: '/r/d.ts', content: `${big}\n` }));
    expect(write).toMatchObject({ kind: 'write', path: '/r/d.ts', totalLines: CARD_LINES + 50 });
    expect(write.kind === 'write' && write.lines).toHaveLength(CARD_LINES);
  });

  it('shows any other tool, or a known one with an unexpected input, as its pretty input', () => {
    expect(toolCard(tool('Grep', { pattern: 'x' }))).toEqual({
      kind: 'other',
      name: 'Grep',
      input: '{\n  "pattern": "x"\n}',
      result: 'ok',
      isError: false,
    });
    expect(toolCard(tool('Bash', { cmd: 'ls' }))).toMatchObject({ kind: 'other' });
    expect(toolCard(tool('Edit', { file_path: '/x', old_string: 1 }))).toMatchObject({ kind: 'other' });
    // Without details (a summary only), the summary input is shown.
    expect(toolCard({ name: 'Bash', input: '{"command":"ls"}', result: null, isError: false })).toMatchObject({
      kind: 'other',
      input: '{"command":"ls"}',
      result: null,
    });
  });
});
