import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { findTurn } from '../../src/sessions/transcript/find-turn.js';

// The chaos run's fake `claude` must leave the session transcript as the real CLI would, or the
// run judges cc-linker's recovery on a transcript the real CLI never writes.
const FAKE = path.join(import.meta.dirname, '../../scripts/chaos/fake-claude.mjs');
const SESSION = 'cccccccc-0000-4000-8000-000000000003';

let home = '';
afterEach(() => {
  if (home) fs.rmSync(home, { recursive: true, force: true });
});

function run(input: string, resume: boolean): { status: number | null; stderr: string } {
  const cwd = path.join(home, 'work');
  fs.mkdirSync(cwd, { recursive: true });
  const flag = resume ? `--resume=${SESSION}` : `--session-id=${SESSION}`;
  const r = spawnSync(process.execPath, [FAKE, '-p', '--output-format', 'json', flag], {
    cwd,
    input,
    env: { PATH: process.env.PATH, HOME: home },
    encoding: 'utf8',
  });
  return { status: r.status, stderr: r.stderr };
}

const transcript = () =>
  path.join(home, '.claude', 'projects', path.join(home, 'work').replace(/[^A-Za-z0-9]/g, '-'), `${SESSION}.jsonl`);

describe('chaos fake claude', () => {
  it('ends an answered turn so that recovery sees it finished', async () => {
    home = fs.mkdtempSync(path.join(os.tmpdir(), 'chaos-fake-claude-'));
    expect(run('question tok1x sleep=0', false).status).toBe(0);
    expect(await findTurn(transcript(), { prompt: 'question tok1x sleep=0', fromOffset: 0 })).toMatchObject({
      state: 'finished',
      text: 'echo: question tok1x sleep=0',
    });
  });

  it('fails on an empty stdin without writing to the session, like the real CLI', async () => {
    home = fs.mkdtempSync(path.join(os.tmpdir(), 'chaos-fake-claude-'));
    expect(run('question tok2x sleep=0', false).status).toBe(0);
    const before = fs.readFileSync(transcript(), 'utf8');
    const r = run('', true);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('Input must be provided');
    expect(fs.readFileSync(transcript(), 'utf8')).toBe(before);
  });
});
