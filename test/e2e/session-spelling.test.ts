/**
 * A session file written by another JSON writer (spaces after colons and commas, as Python's
 * `json.dumps` writes) through the CLI: `init` must index it as the compact original — it was
 * listed as "Untitled, 0 messages" while `export` read its 5 messages.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeCaseTree, type CaseTree } from '../fixtures/claude-case-tree.js';
import { respell, SPACED } from '../fixtures/json-respell.js';
import { runSessionCli } from '../helpers/run-session-cli.js';

const NOW = new Date('2026-06-01T12:00:00.000Z');
const TWIN = '5bace000-0000-4000-8000-000000000005';
let tmp: string;
let env: NodeJS.ProcessEnv;
let tree: CaseTree;

const cli = (...args: string[]) => runSessionCli(args, { env, now: NOW });

beforeAll(() => {
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'cc-spelling-cli-')));
  const home = path.join(tmp, 'home');
  env = { HOME: home, CC_LINKER_HOME: path.join(home, '.cc-linker'), CLAUDE_CONFIG_DIR: path.join(home, '.claude') };
  tree = writeCaseTree(path.join(home, '.claude'), NOW);
  // The basic session (5 messages) again, every line spelled with spaces, under another id.
  const basic = tree.sessions.basic;
  const lines = fs.readFileSync(basic.file, 'utf8').split('\n').filter(Boolean);
  const spaced = lines.map((line) => respell(JSON.parse(line), SPACED).split(basic.id).join(TWIN));
  fs.writeFileSync(path.join(path.dirname(basic.file), `${TWIN}.jsonl`), `${spaced.join('\n')}\n`);
});
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe('a session file spelled with spaces, through the CLI', () => {
  it('init, list, show and export all see its title and its 5 messages', async () => {
    expect((await cli('init')).code).toBe(0);
    const list = await cli('list', '--json', '--limit', '100');
    const entries = JSON.parse(list.stdout) as { session_id: string; title: string | null; message_count: number }[];
    const original = entries.find((e) => e.session_id === tree.sessions.basic.id);
    const twin = entries.find((e) => e.session_id === TWIN);
    expect(twin).toMatchObject({ title: 'Improve README and create acceptance guide', message_count: 5 });
    expect({ ...twin, session_id: '', jsonl_path: '' }).toEqual({ ...original, session_id: '', jsonl_path: '' });
    const show = await cli('show', TWIN.slice(0, 8));
    expect(show.stdout).toContain('Improve README and create acceptance guide');
    expect(show.stdout).toMatch(/消息数:\s+5\n/);
    const exported = await cli('export', TWIN.slice(0, 8), '--format', 'json');
    expect((JSON.parse(exported.stdout) as { messages: unknown[] }).messages).toHaveLength(5);
  });
});
