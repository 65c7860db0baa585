import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolvePaths, type Paths } from '../../../core/paths.js';
import { upsertSession } from '../../../sessions/registry/registry.js';
import { createRng, encodeCwd, writeSession } from '../../../../test/fixtures/claude-tree.js';
import { AGENT_IDS, writeAgentTrees } from '../../../../test/fixtures/agent-trees.js';
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
      message_count: 2,
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
      message_count: 1,
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

  it('lists corrupted, empty and untitled sessions after the others (newest first among them), flagged sparse', async () => {
    const sparseHome = await fs.mkdtemp(path.join(os.tmpdir(), 'ccl-console-sparse-'));
    const p = resolvePaths({ HOME: sparseHome, CC_LINKER_HOME: path.join(sparseHome, '.cc-linker') });
    const at = (day: number) => `2026-06-${String(day).padStart(2, '0')}T00:00:00.000Z`;
    const entry = (day: number, over: Record<string, unknown>) => ({
      cwd: '/w/x',
      origin: 'cli' as const,
      title: 'Real work',
      status: 'active' as const,
      message_count: 4,
      last_active: at(day),
      ...over,
    });
    await upsertSession(p, 'old-real', entry(1, {}));
    await upsertSession(p, 'new-empty', entry(9, { message_count: 0 }));
    await upsertSession(p, 'new-untitled', entry(8, { title: null }));
    await upsertSession(p, 'new-corrupted', entry(7, { status: 'corrupted' }));
    await upsertSession(p, 'just-started', entry(6, { status: 'provisioning', message_count: 0, jsonl_path: null }));
    await upsertSession(p, 'mid-real', entry(5, {}));
    try {
      const rows = await createConsoleSessions(p, 'zh').list({});
      expect(rows.map((r) => [r.id, r.sparse])).toEqual([
        ['just-started', false],
        ['mid-real', false],
        ['old-real', false],
        ['new-empty', true],
        ['new-untitled', true],
        ['new-corrupted', true],
      ]);
    } finally {
      await fs.rm(sparseHome, { recursive: true, force: true });
    }
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

describe('createConsoleSessions: every agent’s filter and recent turns', () => {
  let home: string;
  let paths: Paths;
  let files: Awaited<ReturnType<typeof writeAgentTrees>>;
  const NOW = new Date('2026-06-01T12:00:00.000Z');
  const CLAUDE = '55555555-5555-4555-8555-555555555555';
  const ids = {
    evilCodex: '019a0c1e-0000-7000-8000-00000000e1e1',
    linkedQwen: '7c8d9e0f-0000-4000-8000-00000000e2e2',
    claudeAsCodex: '019a0c1e-0000-7000-8000-00000000e3e3',
    mine: '9a9a9a9a-0000-4000-8000-00000000e4e4',
    relative: '019a0c1e-0000-7000-8000-00000000e5e5',
    rootItself: '019a0c1e-0000-7000-8000-00000000e6e6',
  };

  beforeAll(async () => {
    home = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'ccl-csess-agents-')));
    paths = resolvePaths({ HOME: home, CC_LINKER_HOME: path.join(home, '.cc-linker') });
    files = await writeAgentTrees(home, NOW);
    const claudeFile = writeSession(
      paths.claudeDir,
      { id: CLAUDE, cwd: '/w/claude', start: NOW, turns: [{ prompt: 'claude prompt', answer: 'claude answer' }] },
      createRng(5),
    ).file;
    const at = (m: number) => new Date(NOW.getTime() - m * 60_000).toISOString();
    await upsertSession(paths, CLAUDE, {
      cwd: '/w/claude',
      title: 'claude',
      jsonl_path: claudeFile,
      last_active: at(1),
    });
    for (const [agent, id, minutes] of [
      ['codex', AGENT_IDS.codex, 50],
      ['gemini', AGENT_IDS.gemini, 40],
      ['qwen', AGENT_IDS.qwen, 30],
      ['opencode', AGENT_IDS.opencode, 20],
    ] as const)
      await upsertSession(paths, id, {
        agent,
        cwd: `/w/${agent}`,
        title: agent,
        jsonl_path: files[agent],
        last_active: at(minutes),
      });

    // Hostile registry entries: each names a real, readable session file the agent must not show.
    const outside = path.join(home, 'outside');
    await fs.mkdir(outside, { recursive: true });
    const stolen = path.join(outside, 'rollout-2026-05-30T10-00-00-stolen.jsonl');
    await fs.copyFile(files.codex, stolen);
    await upsertSession(paths, ids.evilCodex, { agent: 'codex', cwd: '/w/x', title: 'evil', jsonl_path: stolen });
    // A link inside Qwen's storage to a Qwen file outside it: resolved, so still outside.
    const qwenOutside = path.join(outside, 'qwen.jsonl');
    await fs.copyFile(files.qwen, qwenOutside);
    const link = path.join(paths.qwenHome, 'projects', '-w-x', 'chats', `${ids.linkedQwen}.jsonl`);
    await fs.mkdir(path.dirname(link), { recursive: true });
    await fs.symlink(qwenOutside, link);
    await upsertSession(paths, ids.linkedQwen, { agent: 'qwen', cwd: '/w/x', title: 'linked', jsonl_path: link });
    // Claude's own file, claimed by a Codex entry: outside Codex's storage.
    await upsertSession(paths, ids.claudeAsCodex, { agent: 'codex', cwd: '/w/x', title: 'c', jsonl_path: claudeFile });
    // A configured agent: its files are not read, wherever they are.
    await upsertSession(paths, ids.mine, { agent: 'mine', cwd: '/w/x', title: 'mine', jsonl_path: claudeFile });
    // A path that climbs out of the storage with `..`.
    await upsertSession(paths, ids.relative, {
      agent: 'codex',
      cwd: '/w/x',
      title: 'dots',
      jsonl_path: path.join(paths.codexHome, 'sessions', '..', '..', 'outside', path.basename(stolen)),
    });
    await upsertSession(paths, ids.rootItself, {
      agent: 'codex',
      cwd: '/w/x',
      title: 'root',
      jsonl_path: path.join(paths.codexHome, 'sessions'),
    });
  });
  afterAll(() => fs.rm(home, { recursive: true, force: true }));

  it('filters by agent, with each session’s label', async () => {
    const s = createConsoleSessions(paths, 'en');
    const byAgent = async (agent: string) => (await s.list({ agent })).map((x) => x.title);
    expect(await byAgent('claude')).toEqual(['claude']);
    expect(await byAgent('gemini')).toEqual(['gemini']);
    expect(await byAgent('mine')).toEqual(['mine']);
    expect(await byAgent('nobody')).toEqual([]);
    expect((await s.list({ agent: 'opencode' }))[0]).toMatchObject({ agent: 'opencode', agentLabel: 'OpenCode' });
    expect((await s.list({ agent: 'claude' }))[0]?.agentLabel).toBe('Claude Code');
    expect((await s.list({ agent: 'codex', q: 'evil' })).map((x) => x.title)).toEqual(['evil']);
  });

  it('reads each agent’s recent turns with its own reader', async () => {
    const s = createConsoleSessions(paths, 'en');
    const texts = async (id: string) => (await s.recentTurns(id, 10)).map((t) => `${t.role}: ${t.text}`);
    expect(await texts(AGENT_IDS.codex)).toEqual([
      'user: fix the flaky codex test',
      'assistant: The test waited on a timer; I made it await the event.',
      'user: run it again',
      'assistant: All 12 tests pass now.',
    ]);
    expect(await texts(AGENT_IDS.gemini)).toEqual([
      'user: describe the gemini layout',
      'assistant: It has a header, a grid and a footer.',
    ]);
    expect(await texts(AGENT_IDS.qwen)).toEqual(['user: list the qwen files', 'assistant: There are three files.']);
    expect(await texts(AGENT_IDS.opencode)).toEqual([
      'user: split the opencode router',
      'assistant: Done: three routers, one per resource.',
    ]);
    expect((await s.recentTurns(AGENT_IDS.codex, 1)).map((t) => t.text)).toEqual(['All 12 tests pass now.']);
    expect(await texts(CLAUDE)).toEqual(['user: claude prompt', 'assistant: claude answer']);
  });

  it('shows nothing of a file outside the agent’s own storage, however the registry names it', async () => {
    const s = createConsoleSessions(paths, 'en');
    for (const id of Object.values(ids)) expect(await s.recentTurns(id, 10), id).toEqual([]);
  });

  it('does not read a file over maxFileSize', async () => {
    const size = (await fs.stat(files.opencode)).size;
    expect(
      await createConsoleSessions(paths, 'en', { maxFileSize: size }).recentTurns(AGENT_IDS.opencode, 5),
    ).toHaveLength(2);
    expect(
      await createConsoleSessions(paths, 'en', { maxFileSize: size - 1 }).recentTurns(AGENT_IDS.opencode, 5),
    ).toEqual([]);
  });

  it('follows a storage directory that is itself a link', async () => {
    const real = path.join(home, 'elsewhere-codex');
    await fs.rename(paths.codexHome, real);
    await fs.symlink(real, paths.codexHome);
    try {
      const s = createConsoleSessions(paths, 'en');
      expect(await s.recentTurns(AGENT_IDS.codex, 10)).toHaveLength(4);
      expect(await s.recentTurns(ids.evilCodex, 10)).toEqual([]);
    } finally {
      await fs.rm(paths.codexHome);
      await fs.rename(real, paths.codexHome);
    }
  });
});
