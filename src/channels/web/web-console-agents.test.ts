import fs from 'node:fs/promises';
import { FAKE_AGENT_CATALOG } from '../../../test/fakes/fake-agent-catalog.js';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentCatalog } from '../../bridge/commands/agent-catalog.js';
import { UserMapping } from '../../bridge/mapping/user-mapping.js';
import type { ConsoleSessionSummary, SessionFilter } from './console/console-sessions.js';
import {
  fakeSessions,
  loginCookie,
  rawRequest as request,
  sameOriginPost,
  startTestConsole,
  stopTestConsole,
  type TestConsole,
} from '../../../test/helpers/web-console-kit.js';
import { WEB_USER_ID } from './web-channel.js';

const CATALOG = FAKE_AGENT_CATALOG;

const summary = (id: string, agent: string): ConsoleSessionSummary => ({
  id,
  agent,
  agentLabel: agent,
  title: id,
  project: 'p',
  cwd: '~/p',
  origin: 'cli',
  status: 'active',
  createdAt: '2026-01-01T00:00:00.000Z',
  lastActive: '2026-01-01T00:00:00.000Z',
  messageCount: 1,
  preview: '',
  sparse: false,
});

// The console and the agents: which agents it offers, how sessions are named and filtered by
// agent, and how a new session's agent reaches the bridge as `/new … --agent <name>`.
describe('web console: agents', () => {
  let t: TestConsole | null = null;
  const filters: SessionFilter[] = [];
  afterEach(async () => {
    filters.length = 0;
    if (t) await stopTestConsole(t);
    t = null;
  });

  const start = async (agents?: AgentCatalog) => {
    t = await startTestConsole({
      ...(agents ? { agents } : {}),
      sessions: {
        ...fakeSessions,
        page: async (f) => {
          filters.push(f);
          const sessions = [summary('a', 'claude'), summary('b', 'codex'), summary('c', 'mine')];
          return { sessions, total: sessions.length, sparse: 0, nextOffset: null };
        },
        get: async (id) => (id === 'b' ? summary('b', 'codex') : null),
      },
    });
    const cookie = await loginCookie(t.web.port, t.token);
    const get = async (p: string) => {
      const r = await request((t as TestConsole).web.port, p, { headers: { Cookie: cookie } });
      return { status: r.status, body: JSON.parse(r.body) as Record<string, unknown> };
    };
    const post = async (p: string, body: unknown) => {
      const port = (t as TestConsole).web.port;
      const r = await request(port, p, {
        method: 'POST',
        headers: { ...sameOriginPost(port, cookie), 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
      return { status: r.status, body: JSON.parse(r.body) as Record<string, unknown> };
    };
    return { get, post, t };
  };

  it('GET /api/agents lists the catalog; the default follows the console user’s /agent choice', async () => {
    const { get, t } = await start(CATALOG);
    expect((await get('/api/agents')).body).toEqual({
      agents: [
        { name: 'claude', label: 'Claude Code', available: true, default: true },
        { name: 'codex', label: 'Codex', available: true, default: false },
        { name: 'qwen', label: 'Qwen Code', available: false, default: false },
      ],
    });
    const mapping = new UserMapping(t.paths.userMappingFile);
    await mapping.setDefaultAgent(WEB_USER_ID, 'codex');
    const agents = (await get('/api/agents')).body.agents as Array<{ name: string; default: boolean }>;
    expect(agents.filter((a) => a.default).map((a) => a.name)).toEqual(['codex']);
    // A choice of an agent no longer configured falls back to agents.default.
    await mapping.setDefaultAgent(WEB_USER_ID, 'gone');
    const again = (await get('/api/agents')).body.agents as Array<{ name: string; default: boolean }>;
    expect(again.filter((a) => a.default).map((a) => a.name)).toEqual(['claude']);
  });

  it('without a catalog, Claude Code alone', async () => {
    const { get } = await start();
    expect((await get('/api/agents')).body).toEqual({
      agents: [{ name: 'claude', label: 'Claude Code', available: true, default: true }],
    });
  });

  it('passes the agent filter through and names each session’s agent as the catalog does', async () => {
    const { get } = await start(CATALOG);
    const r = await get('/api/sessions?agent=codex&origin=cli');
    expect(filters.at(-1)).toMatchObject({ agent: 'codex', origin: 'cli' });
    expect((r.body.sessions as ConsoleSessionSummary[]).map((s) => [s.agent, s.agentLabel])).toEqual([
      ['claude', 'Claude Code'],
      ['codex', 'Codex'],
      ['mine', 'mine'],
    ]);
    await get('/api/sessions');
    expect(filters.at(-1)?.agent).toBeUndefined();
    const detail = await get('/api/sessions/b');
    expect(detail.body.session).toMatchObject({ agent: 'codex', agentLabel: 'Codex' });
  });

  it('starts a new session with the picked agent through the bridge', async () => {
    const { post, t } = await start(CATALOG);
    const dir = path.join(t.dir, 'Git', 'app');
    await fs.mkdir(dir, { recursive: true });
    const id = (n: number) => `00000000-0000-4000-8000-00000000000${n}`;
    expect((await post('/api/sessions/new', { id: id(1), dir, agent: 'codex', prompt: 'fix it' })).status).toBe(200);
    expect((await post('/api/sessions/new', { id: id(2), dir, agent: 'claude' })).status).toBe(200);
    expect((await post('/api/sessions/new', { id: id(3), dir, prompt: 'hi' })).status).toBe(200);
    expect(t.accepted).toEqual([
      `/new ${dir} --agent codex -- fix it`,
      `/new ${dir} --agent claude`,
      `/new ${dir} -- hi`,
    ]);
  });

  it('refuses an agent that is not configured, or not a name, and sends nothing', async () => {
    const { post, t } = await start(CATALOG);
    const dir = path.join(t.dir, 'Git', 'app');
    await fs.mkdir(dir, { recursive: true });
    const id = '00000000-0000-4000-8000-000000000009';
    const unknown = await post('/api/sessions/new', { id, dir, agent: 'gemini', prompt: 'x' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toBe('No agent named gemini is configured (available: claude, codex, qwen)');
    for (const agent of ['codex -- rm -rf', 'Codex', '--agent', 42, ['codex'], 'x'.repeat(5000)]) {
      const r = await post('/api/sessions/new', { id, dir, agent, prompt: 'x' });
      expect(r.status, JSON.stringify(agent).slice(0, 40)).toBe(400);
    }
    expect(t.accepted).toEqual([]);
  });

  it('refuses a directory that /new would read differently once --agent is in the line', async () => {
    const { post, t } = await start(CATALOG);
    const dir = path.join(t.dir, 'Git', 'two  spaces');
    await fs.mkdir(dir, { recursive: true });
    const id = '00000000-0000-4000-8000-00000000000a';
    const r = await post('/api/sessions/new', { id, dir, agent: 'codex', prompt: 'x' });
    expect(r.status).toBe(400);
    expect(r.body.error).toBe('Invalid request: dir');
    // Without an agent option the line keeps the directory whole, as before.
    expect((await post('/api/sessions/new', { id, dir, prompt: 'x' })).status).toBe(200);
    expect(t.accepted).toEqual([`/new ${dir} -- x`]);
  });
});
