import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ExportedMessage, ExportedTool } from '../sessions/present/export-session.js';
import { gitStatus } from './git-status.js';
import { turnChanges } from './turn-changes.js';

const dirs: string[] = [];
function tmp(): string {
  const d = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'ws-turns-')));
  dirs.push(d);
  return d;
}
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

const tool = (name: string, value: unknown, result: string | null = 'ok', isError = false): ExportedTool => ({
  name,
  input: '',
  result,
  isError,
  detail: { input: value, result },
});
const user = (text: string, timestamp = '2026-12-01T10:00:00Z'): ExportedMessage => ({ role: 'user', timestamp, text });
const assistant = (...tools: ExportedTool[]): ExportedMessage => ({
  role: 'assistant',
  timestamp: null,
  text: '',
  tools,
});

describe('turnChanges', () => {
  it('outside git: per turn, newest first, the patches built from the tool inputs; failed calls left out', async () => {
    const cwd = tmp();
    const f = path.join(cwd, 'src', 'a.ts');
    const turns = await turnChanges(
      [
        user('first\nsecond line'),
        assistant(tool('Edit', { file_path: f, old_string: 'let x = 1;', new_string: 'let x = 2;' })),
        assistant(tool('Write', { file_path: path.join(cwd, 'new.md'), content: '# hi\n' })),
        assistant(
          tool('Edit', { file_path: path.join(cwd, 'failed.ts'), old_string: 'a', new_string: 'b' }, 'no match', true),
        ),
        assistant(tool('Read', { file_path: f })),
        user('nothing changed here'),
        assistant(tool('Bash', { command: 'ls' })),
        user('multi'),
        assistant(
          tool('MultiEdit', {
            file_path: f,
            edits: [
              { old_string: 'one', new_string: 'uno' },
              { old_string: 'two', new_string: 'dos' },
            ],
          }),
        ),
      ],
      cwd,
      null,
    );
    expect(turns.map((t) => [t.index, t.prompt])).toEqual([
      [2, 'multi'],
      [0, 'first'],
    ]);
    expect(turns[1]!.files.map((x) => [x.path, x.change, x.source])).toEqual([
      ['src/a.ts', 'edit', 'transcript'],
      ['new.md', 'write', 'transcript'],
    ]);
    expect(turns[1]!.files[0]!.diff).toMatch(/--- a\/src\/a\.ts[\s\S]*-let x = 1;\n\+let x = 2;/);
    expect(turns[1]!.files[1]!.diff).toContain('+# hi');
    expect(turns[0]!.files[0]!.diff).toMatch(/-one\n\+uno[\s\S]*-two\n\+dos/);
  });

  it('in git: a file still changed shows the working tree against HEAD; a committed one its transcript patch', async () => {
    const cwd = tmp();
    const git = (...a: string[]) => execFileSync('git', a, { cwd, env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1' } });
    git('init', '-q', '-b', 'main');
    git('config', 'user.email', 't@example.com');
    git('config', 'user.name', 't');
    fs.writeFileSync(path.join(cwd, 'a.txt'), 'alpha\n');
    fs.writeFileSync(path.join(cwd, 'b.txt'), 'beta\n');
    git('add', '.');
    git('commit', '-q', '-m', 'init');
    fs.writeFileSync(path.join(cwd, 'a.txt'), 'ALPHA\n');
    const turns = await turnChanges(
      [
        user('change both'),
        assistant(
          tool('Edit', { file_path: path.join(cwd, 'a.txt'), old_string: 'alpha', new_string: 'ALPHA' }),
          tool('Edit', { file_path: path.join(cwd, 'b.txt'), old_string: 'beta', new_string: 'BETA' }),
        ),
      ],
      cwd,
      await gitStatus(cwd),
    );
    const [a, b] = turns[0]!.files;
    expect(a).toMatchObject({ path: 'a.txt', source: 'git' });
    expect(a!.diff).toMatch(/^diff --git a\/a\.txt b\/a\.txt[\s\S]*-alpha\n\+ALPHA/);
    expect(b).toMatchObject({ path: 'b.txt', source: 'transcript' });
    expect(b!.diff).toContain('+BETA');
  });

  it('in git: a file outside the session directory (the repository reaches above it) keeps its transcript patch', async () => {
    const top = tmp();
    const git = (...a: string[]) =>
      execFileSync('git', a, { cwd: top, env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1' } });
    git('init', '-q', '-b', 'main');
    git('config', 'user.email', 't@example.com');
    git('config', 'user.name', 't');
    fs.mkdirSync(path.join(top, 'app'));
    fs.writeFileSync(path.join(top, 'secret.txt'), 'one\n');
    git('add', '.');
    git('commit', '-q', '-m', 'init');
    fs.writeFileSync(path.join(top, 'secret.txt'), 'two\nthree\n');
    const cwd = path.join(top, 'app');
    const turns = await turnChanges(
      [
        user('x'),
        assistant(tool('Edit', { file_path: path.join(top, 'secret.txt'), old_string: 'one', new_string: 'two' })),
      ],
      cwd,
      await gitStatus(cwd),
    );
    expect(turns[0]!.files[0]).toMatchObject({ source: 'transcript' });
    expect(turns[0]!.files[0]!.diff).not.toContain('three');
  });
});
