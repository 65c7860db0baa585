import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolvePaths, type Paths } from '../../../core/paths.js';
import { upsertSession } from '../../../sessions/registry/registry.js';
import { createRng, encodeCwd, writeSession } from '../../../../test/fixtures/claude-tree.js';
import { createConsoleSessions } from './console-sessions.js';

describe('createConsoleSessions (over the real registry and transcripts)', () => {
  let home: string;
  let paths: Paths;
  const A = '11111111-1111-4111-8111-111111111111';
  const B = '22222222-2222-4222-8222-222222222222';
  const C = '33333333-3333-4333-8333-333333333333';

  beforeAll(async () => {
    home = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'ccl-csess-')));
    paths = resolvePaths({
      HOME: home,
      CC_LINKER_HOME: path.join(home, '.cc-linker'),
      CLAUDE_CONFIG_DIR: path.join(home, '.claude'),
    });
    const cwdA = path.join(home, 'Git', 'alpha');
    const rng = createRng(7);
    const written = writeSession(
      paths.claudeDir,
      {
        id: A,
        cwd: cwdA,
        start: new Date('2026-05-01T10:00:00Z'),
        turns: [
          {
            prompt: '解释 README',
            answer: 'README 说明了 **安装**。',
            tools: [{ name: 'Read', input: { file_path: 'README.md' }, output: '# cc-linker' }],
          },
          { prompt: 'second question', answer: 'second answer' },
        ],
      },
      rng,
    );
    await upsertSession(paths, A, {
      cwd: cwdA,
      origin: 'cli',
      title: 'Explain README',
      project_name: 'alpha',
      jsonl_path: written.file,
      project_dir: encodeCwd(cwdA),
      status: 'active',
      last_active: '2026-05-03T00:00:00.000Z',
      message_count: 5,
      last_message_preview: 'second answer',
    });
    await upsertSession(paths, B, {
      cwd: path.join(home, 'Git', 'beta'),
      origin: 'feishu',
      title: '飞书里的会话',
      project_name: 'beta',
      jsonl_path: null,
      status: 'archived',
      last_active: '2026-05-04T00:00:00.000Z',
    });
    // A registry path outside Claude's projects directory is never read.
    await fs.writeFile(
      path.join(home, 'secret.jsonl'),
      '{"type":"user","message":{"role":"user","content":"secret"}}\n',
    );
    await upsertSession(paths, C, {
      cwd: path.join(home, 'Git', 'gamma'),
      origin: 'cli',
      title: 'escape',
      project_name: 'gamma',
      jsonl_path: path.join(home, 'secret.jsonl'),
      status: 'active',
      last_active: '2026-05-02T00:00:00.000Z',
    });
  });
  afterAll(() => fs.rm(home, { recursive: true, force: true }));

  it('lists most recent first with ~ paths, and filters by search, origin, status and project', async () => {
    const s = createConsoleSessions(paths, 'en');
    expect((await s.list({})).map((x) => x.id)).toEqual([B, A, C]);
    expect((await s.list({}))[1]).toMatchObject({
      id: A,
      title: 'Explain README',
      project: 'alpha',
      cwd: '~/Git/alpha',
      origin: 'cli',
      status: 'active',
      messageCount: 5,
    });
    expect((await s.list({ q: 'readme' })).map((x) => x.id)).toEqual([A]);
    expect((await s.list({ q: '飞书' })).map((x) => x.id)).toEqual([B]);
    expect((await s.list({ origin: 'feishu' })).map((x) => x.id)).toEqual([B]);
    expect((await s.list({ status: 'active' })).map((x) => x.id)).toEqual([A, C]);
    expect((await s.list({ project: 'ALPHA' })).map((x) => x.id)).toEqual([A]);
    expect(await s.list({ limit: 1 })).toHaveLength(1);
    expect(await s.get('nope')).toBeNull();
  });

  it('returns the last n turns with tool summaries; nothing for missing or outside files', async () => {
    const s = createConsoleSessions(paths, 'en');
    const all = await s.recentTurns(A, 50);
    expect(all.map((t) => t.role)).toEqual(['user', 'assistant', 'assistant', 'user', 'assistant']);
    expect(all[0]?.text).toBe('解释 README');
    expect(all.flatMap((t) => t.tools)).toEqual([expect.objectContaining({ name: 'Read', isError: false })]);
    const last = await s.recentTurns(A, 2);
    expect(last.map((t) => t.text)).toEqual(['second question', 'second answer']);
    expect(await s.recentTurns(B, 5)).toEqual([]);
    expect(await s.recentTurns(C, 5)).toEqual([]);
    expect(await s.recentTurns('nope', 5)).toEqual([]);
  });

  it('shows an empty list before the registry exists', async () => {
    const empty = resolvePaths({
      HOME: home,
      CC_LINKER_HOME: path.join(home, 'none'),
      CLAUDE_CONFIG_DIR: path.join(home, '.claude'),
    });
    expect(await createConsoleSessions(empty, 'zh').list({})).toEqual([]);
  });
});

describe('createConsoleSessions: the agent of each session', () => {
  it('lists and gets every session with its agent', async () => {
    const home = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'ccl-csess-agent-')));
    try {
      const paths = resolvePaths({ HOME: home, CC_LINKER_HOME: path.join(home, '.cc-linker') });
      await upsertSession(paths, '44444444-4444-4444-8444-444444444444', { cwd: '/w/a', title: 'Claude' });
      await upsertSession(paths, '019a0c1e-7f3a-7b21-9c4d-0a1b2c3d4e5f', {
        agent: 'codex',
        cwd: '/w/c',
        title: 'Codex',
      });
      const s = createConsoleSessions(paths, 'en');
      expect(Object.fromEntries((await s.list({})).map((x) => [x.title, x.agent]))).toEqual({
        Claude: 'claude',
        Codex: 'codex',
      });
      expect((await s.get('019a0c1e-7f3a-7b21-9c4d-0a1b2c3d4e5f'))?.agent).toBe('codex');
    } finally {
      await fs.rm(home, { recursive: true, force: true });
    }
  });
});
