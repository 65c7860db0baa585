import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { addManySessions, manyId } from '../../../test/fixtures/many-sessions.js';
import {
  fakeStatus,
  loginCookie,
  rawRequest as request,
  sameOriginPost,
  startTestConsole,
  stopTestConsole,
  tempHome,
  type TestConsole,
} from '../../../test/helpers/web-console-kit.js';
import type { InboundMessage } from '../../bridge/inbound-message.js';
import { createConsoleSessions } from './console/console-sessions.js';

// The sessions list in pages and by project, and the composer of one session's view: its text
// reaches the bridge pinned to that session, and an unknown session is refused before the bridge.
describe('web console: every session reachable, messages aimed at one session', () => {
  let t: TestConsole | null = null;
  let home: { dir: string } | null = null;
  afterEach(async () => {
    if (t) await stopTestConsole(t);
    t = null;
    if (home) await fs.rm(home.dir, { recursive: true, force: true });
    home = null;
  });

  const start = async (n: number) => {
    const h = await tempHome();
    home = h;
    await addManySessions(h.paths, path.join(h.dir, 'Git'), n, { projects: 3 });
    const accepted: InboundMessage[] = [];
    t = await startTestConsole({
      sessions: createConsoleSessions(h.paths, 'en'),
      bridge: {
        accept: async (m) => {
          accepted.push(m);
          return { status: 'accepted' };
        },
        handleAction: async () => ({}),
        status: async () => fakeStatus,
      },
    });
    const port = t.web.port;
    const cookie = await loginCookie(port, t.token);
    const get = async (p: string) => {
      const r = await request(port, p, { headers: { Cookie: cookie } });
      return { status: r.status, body: JSON.parse(r.body) as Record<string, unknown> };
    };
    const post = async (p: string, body: unknown) => {
      const r = await request(port, p, {
        method: 'POST',
        headers: { ...sameOriginPost(port, cookie), 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
      return { status: r.status, body: JSON.parse(r.body) as Record<string, unknown> };
    };
    return { get, post, accepted };
  };
  const titles = (body: Record<string, unknown>) => (body.sessions as Array<{ title: string }>).map((s) => s.title);

  it('pages through all 601 sessions in the list order, with the total and the next offset', async () => {
    const { get } = await start(601);
    const first = await get('/api/sessions');
    expect(first.body).toMatchObject({ total: 601, nextOffset: 100 });
    expect(titles(first.body)[0]).toBe('Session 0001');
    const seen: string[] = [];
    let offset: number | null = 0;
    while (offset !== null) {
      const page: { body: Record<string, unknown> } = await get(`/api/sessions?limit=250&offset=${offset}`);
      seen.push(...titles(page.body));
      offset = page.body.nextOffset as number | null;
    }
    expect(seen).toHaveLength(601);
    expect(new Set(seen).size).toBe(601);
    expect(seen.at(-1)).toBe('Session 0601');
    expect((await get('/api/sessions?offset=9999')).body).toEqual({
      sessions: [],
      total: 601,
      sparse: 0,
      nextOffset: null,
    });
  });

  it('groups by project with the same filters; a group pages on its own', async () => {
    const { get } = await start(601);
    const { projects } = (await get('/api/sessions/projects')).body as {
      projects: Array<{ project: string; count: number; lastActive: string }>;
    };
    expect(projects.map((p) => [p.project, p.count])).toEqual([
      ['proj-1', 201],
      ['proj-2', 200],
      ['proj-0', 200],
    ]);
    const filtered = (await get('/api/sessions/projects?q=Session%200601')).body.projects as unknown[];
    expect(filtered).toEqual([expect.objectContaining({ project: 'proj-1', count: 1 })]);
    const group = await get('/api/sessions?project=proj-0&limit=150&offset=150');
    expect(group.body).toMatchObject({ total: 200, nextOffset: null });
    expect(titles(group.body)).toHaveLength(50);
    expect(titles(group.body).at(-1)).toBe('Session 0600');
  });

  it('sends the composer’s text pinned to its session; a command is not filed under the session', async () => {
    const { get, post, accepted } = await start(3);
    const id = manyId(2);
    const uuid = '11111111-2222-4333-8444-555555555555';
    const r = await post(`/api/sessions/${id}/messages`, { id: uuid, text: 'hello A' });
    expect(r.status).toBe(200);
    expect(r.body.message).toMatchObject({ kind: 'user', text: 'hello A', sessionId: id });
    expect(accepted.map((m) => [m.text, m.sessionId])).toEqual([['hello A', id]]);
    const cmd = await post(`/api/sessions/${id}/messages`, { id: uuid.replace('1111', '2222'), text: '/list' });
    expect(cmd.body.message).not.toHaveProperty('sessionId');
    const history = (await get('/api/bridge/messages')).body.messages as Array<{ text: string; sessionId?: string }>;
    expect(history.map((m) => [m.text, m.sessionId ?? null])).toEqual([
      ['hello A', id],
      ['/list', null],
    ]);
  });

  it('refuses a session the registry does not know with 404 and a clear message; the bridge gets nothing', async () => {
    const { post, accepted } = await start(3);
    const unknown = manyId(999);
    const r = await post(`/api/sessions/${unknown}/messages`, {
      id: '11111111-2222-4333-8444-555555555555',
      text: 'hello?',
    });
    expect(r.status).toBe(404);
    expect(JSON.stringify(r.body)).toContain(`Session ${unknown} is not in the session list`);
    expect(accepted).toHaveLength(0);
  });
});
