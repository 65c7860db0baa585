import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultConfig } from '../../core/default-config.js';
import { upsertSession } from '../../sessions/registry/registry.js';
import { createRng, encodeCwd, writeSession } from '../../../test/fixtures/claude-tree.js';
import { FIRST_PROMPT, TINY_PNG, transcriptTurns } from '../../../test/fixtures/transcript-session.js';
import {
  consoleOptions,
  fakeBridge,
  loginCookie,
  rawRequest,
  tempHome,
} from '../../../test/helpers/web-console-kit.js';
import { startWebConsole, type WebConsole } from './start-web-console.js';
import { createConsoleSessions } from './console/console-sessions.js';

interface Item {
  n: number;
  role: string;
  html: string;
  thinking: string[];
  images: number[];
  tools: Array<Record<string, unknown>>;
}

describe('GET /api/sessions/:id/transcript (real console, real registry and session file)', () => {
  const ID = '44444444-4444-4444-8444-444444444444';
  const FILLER = 1500;
  let web: WebConsole;
  let dir: string;
  let cookie: string;
  const get = (p: string) => rawRequest(web.port, p, { headers: { Cookie: cookie } });

  beforeAll(async () => {
    const home = await tempHome();
    dir = home.dir;
    const cwd = path.join(dir, 'Git', 'big');
    const written = writeSession(
      home.paths.claudeDir,
      { id: ID, cwd, start: new Date('2026-05-01T10:00:00Z'), turns: transcriptTurns(FILLER) },
      createRng(11),
    );
    await upsertSession(home.paths, ID, {
      cwd,
      origin: 'cli',
      title: 'big',
      project_name: 'big',
      jsonl_path: written.file,
      project_dir: encodeCwd(cwd),
      status: 'active',
      last_active: '2026-05-03T00:00:00.000Z',
      message_count: written.expect.messageCount,
    });
    web = await startWebConsole({
      ...consoleOptions(home.paths, defaultConfig()),
      bridge: fakeBridge([]),
      sessions: createConsoleSessions(home.paths, 'en'),
    });
    cookie = await loginCookie(web.port, new URL(web.url).searchParams.get('token') as string);
  });
  afterAll(async () => {
    await web?.close();
    await fs.rm(dir, { recursive: true, force: true });
  });

  it('pages through the whole history newest first: every message exactly once, in order', async () => {
    const pages: Item[][] = [];
    let before: string | null = null;
    let total = 0;
    do {
      const r = await get(`/api/sessions/${ID}/transcript?limit=100${before ? `&before=${before}` : ''}`);
      expect(r.status).toBe(200);
      const body = JSON.parse(r.body) as { items: Item[]; before: string | null; total: number };
      total = body.total;
      pages.unshift(body.items);
      before = body.before;
    } while (before !== null && pages.length < 100);
    const all = pages.flat();
    expect(total).toBe(2 + FILLER * 2 + 3);
    expect(all.map((i) => i.n)).toEqual(Array.from({ length: total }, (_, i) => i));
    expect(all[0]?.html).toBe(`<p>${FIRST_PROMPT}</p>`);
    expect(pages.length).toBe(Math.ceil(total / 100));
  });

  it('sends markdown as sanitised HTML, tools as cards, thinking, and pasted images from their own URL', async () => {
    const { items } = JSON.parse((await get(`/api/sessions/${ID}/transcript?limit=3`)).body) as { items: Item[] };
    const [prompt, tools, answer] = items;
    expect(prompt).toMatchObject({ role: 'user', html: '<p>look at this screenshot</p>', images: [0] });
    expect(tools?.thinking).toEqual(['The user wants a table; let me check the tests first.']);
    expect(tools?.tools.map((t) => t.kind)).toEqual(['bash', 'read', 'edit']);
    expect(tools?.tools[0]).toMatchObject({ command: 'npm test', result: 'Tests 42 passed', isError: false });
    expect(tools?.tools[2]).toMatchObject({ path: '/repo/src/a.ts', added: 1, removed: 1 });
    expect(answer?.html).toContain('<table>');
    expect(answer?.html).toContain('<em>summary</em>');
    expect(answer?.html).toContain('<code class="language-ts">');
    const img = await get(`/api/sessions/${ID}/transcript/images/0`);
    expect(img.status).toBe(200);
    expect(img.headers['content-type']).toBe('image/png');
    expect(Number(img.headers['content-length'])).toBe(Buffer.from(TINY_PNG, 'base64').length);
    expect(img.headers['x-content-type-options']).toBe('nosniff');
  });

  it('answers 404 for an unknown session or image, 400 for a bad cursor, and keeps GET /api/sessions/:id', async () => {
    expect((await get(`/api/sessions/${ID}/transcript/images/1`)).status).toBe(404);
    expect((await get('/api/sessions/55555555-5555-4555-8555-555555555555/transcript')).status).toBe(404);
    expect((await get(`/api/sessions/${ID}/transcript?before=99999`)).status).toBe(400);
    expect((await get(`/api/sessions/${ID}/transcript?before=abc`)).status).toBe(400);
    const meta = await get(`/api/sessions/${ID}?turns=2`);
    expect(meta.status).toBe(200);
    expect(JSON.parse(meta.body).session.id).toBe(ID);
  });
});
