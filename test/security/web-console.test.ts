/**
 * Security review, check 5: the web console over the real bridge and gateway. Every route —
 * enumerated from the server code itself (the ROUTES table of console/api-routes.ts, the page, asset
 * and own API paths of http/web-server.ts, the UI folder), so a route added later is covered without
 * editing this test — is refused without the token and with a wrong one (401, no data, nothing
 * changes); cross-origin state-changing requests get 403; a foreign Host (DNS rebinding) gets 421; no
 * CORS header is ever sent; CSP and X-Frame-Options are on every answer; the token never appears in
 * a body. A logout ends its login for every route; the start URL redirects only within the console.
 */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpMessages } from '../../src/channels/web/http/http-messages.js';
import { OWNER, startLiveSystem, type LiveSystem } from './live-system.js';
import { REPO } from './system-run.js';

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

let sys: LiveSystem;
let port: number;
let cookie: string;
const SESSION = '7e57c0de-0000-4000-8000-00000000beef';
const w = httpMessages('zh');

/** One HTTP request with full control of the headers (Host included; `Host: null` sends none). */
function request(
  method: string,
  p: string,
  headers: Record<string, string | null> = {},
  body?: string,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const h: Record<string, string> = {};
    for (const [k, v] of Object.entries(headers)) if (v !== null) h[k] = v;
    const noHost = headers.Host === null;
    if (!noHost && !('Host' in h)) h.Host = `127.0.0.1:${port}`;
    const req = http.request({ host: '127.0.0.1', port, method, path: p, headers: h, setHost: false }, (res) => {
      let data = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (data += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: data }));
      // The event stream never ends by itself: take what came first.
      if ((res.headers['content-type'] ?? '').includes('text/event-stream'))
        setTimeout(
          () => (req.destroy(), resolve({ status: res.statusCode ?? 0, headers: res.headers, body: data })),
          300,
        );
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** Every route the server serves, with a concrete path: from the source, not a hand-kept list. */
function enumerateRoutes(): Array<{ method: string; path: string }> {
  // The route table and the tables it joins in (`console/*-routes.ts`, the file routes among them).
  const consoleDir = path.join(REPO, 'src/channels/web/console');
  const src = fs
    .readdirSync(consoleDir)
    .filter((f) => f.endsWith('-routes.ts'))
    .map((f) => fs.readFileSync(path.join(consoleDir, f), 'utf8'))
    .join('\n');
  const routes: Array<{ method: string; path: string }> = [];
  for (const m of src.matchAll(/\{\s*method: '(GET|POST)',\s*path: \/\^(.+?)\$\//g)) {
    const concrete = (m[2] as string)
      .replace(/\(\[0-9a-zA-Z-\]\{1,64\}\)/g, SESSION)
      .replace(/\(\[\\w-\]\{1,80\}\)/g, 'chat-1')
      .replace(/\(\\d\{1,6\}\)/g, '0')
      .replace(/\(\[0-9a-f\]\{32\}\)/g, '0'.repeat(32))
      .replace(/\\\//g, '/');
    expect(concrete, `could not make a path of route /^${m[2]}$/`).toMatch(/^\/api\/[\w/-]*$/);
    routes.push({ method: m[1] as string, path: concrete });
  }
  const server = fs.readFileSync(path.join(REPO, 'src/channels/web/http/web-server.ts'), 'utf8');
  expect(server).toContain("url.pathname === '/login'");
  expect(server).toContain("url.pathname.startsWith('/assets/')");
  // The API routes the server answers itself (each a POST), behind the same checks as the others.
  for (const m of server.matchAll(/url\.pathname === '(\/api\/[\w/-]+)'/g))
    routes.push({ method: 'POST', path: m[1] as string });
  const ui = fs.readdirSync(path.join(REPO, 'src/channels/web/ui')).filter((f) => !f.endsWith('.test.js'));
  routes.push(
    { method: 'GET', path: '/' },
    { method: 'GET', path: '/index.html' },
    ...ui.map((f) => ({ method: 'GET', path: `/assets/${f}` })),
    { method: 'GET', path: '/no-such-page' },
    { method: 'GET', path: '/api/no-such-route' },
  );
  return routes;
}

let routes: Array<{ method: string; path: string }>;
const json = (o: unknown) => JSON.stringify(o);
const bodyFor = (route: { method: string; path: string }) =>
  route.method === 'POST'
    ? json({
        id: crypto.randomUUID(),
        text: '/new /tmp -- pwned',
        provider: 'openai',
        dir: '/tmp',
        button: 0,
        messageId: 'x',
      })
    : undefined;

beforeAll(async () => {
  sys = await startLiveSystem({ web: true });
  port = Number(new URL(sys.base).port);
  await sys.addSession(SESSION, path.join(sys.home, 'Git', 'alpha'));
  routes = enumerateRoutes();
  const login = await request('GET', `/?token=${encodeURIComponent(sys.token)}`);
  expect(login.status).toBe(303);
  cookie = String(login.headers['set-cookie']?.[0]).split(';')[0] as string;
});
afterAll(async () => sys?.close());

describe('the routes', () => {
  it('are all found in the server code', () => {
    const api = routes.filter((r) => r.path.startsWith('/api/') && r.path !== '/api/no-such-route');
    expect(api.length).toBeGreaterThanOrEqual(17);
    expect(api).toEqual(
      expect.arrayContaining([
        { method: 'GET', path: '/api/events' },
        { method: 'POST', path: '/api/bridge/actions' },
        { method: 'POST', path: '/api/sessions/new' },
        { method: 'GET', path: `/api/sessions/${SESSION}` },
        { method: 'POST', path: '/api/uploads' },
        { method: 'GET', path: `/api/files/sent/${'0'.repeat(32)}` },
        { method: 'POST', path: '/api/logout' },
      ]),
    );
  });
});

describe('without the token, or with a wrong one', () => {
  it('every route answers 401 with no data, whatever the method', async () => {
    const [cookieName, cookieValue] = cookie.split('=') as [string, string];
    const wrong: Array<{ name: string; headers: Record<string, string> }> = [
      { name: 'no token', headers: {} },
      { name: 'wrong bearer', headers: { Authorization: `Bearer ${sys.token.slice(0, -1)}X` } },
      { name: 'bearer prefix', headers: { Authorization: `Bearer ${sys.token.slice(0, 10)}` } },
      { name: 'empty bearer', headers: { Authorization: 'Bearer ' } },
      { name: 'basic auth', headers: { Authorization: `Basic ${Buffer.from(`x:${sys.token}`).toString('base64')}` } },
      { name: 'cookie under another name', headers: { Cookie: `${cookieName}x=${cookieValue}` } },
      { name: 'forged cookie value', headers: { Cookie: `${cookieName}=${'A'.repeat(43)}` } },
      { name: 'the token as the cookie', headers: { Cookie: `${cookieName}=${sys.token}` } },
    ];
    for (const route of routes) {
      for (const method of [route.method, 'PUT', 'DELETE', 'PATCH', 'OPTIONS']) {
        for (const { name, headers } of wrong) {
          const r = await request(
            method,
            route.path,
            {
              ...headers,
              'Content-Type': 'application/json',
              Origin: `http://127.0.0.1:${port}`,
              'Sec-Fetch-Site': 'same-origin',
            },
            method === 'POST' ? bodyFor(route) : undefined,
          );
          const label = `${name} ${method} ${route.path}`;
          expect(r.status, label).toBe(401);
          expect(JSON.parse(r.body), label).toEqual({ error: w('unauthorized') });
          expect(r.headers['set-cookie'], label).toBeUndefined();
        }
      }
    }
  });

  it('a browser without the token gets the script-free login form and nothing else', async () => {
    for (const p of ['/', '/index.html', '/assets/app.js', '/api/status']) {
      const r = await request('GET', p, { Accept: 'text/html' });
      expect(r.status).toBe(401);
      expect(r.body).toContain('<form method="post" action="/login">');
      expect(r.body).not.toMatch(/<script|\/api\/|Git|alpha|ou_/);
    }
    const bad = await request('GET', '/?token=wrong-token-0123456789');
    expect(bad.status).toBe(401);
    expect(bad.headers['set-cookie']).toBeUndefined();
    const badForm = await request(
      'POST',
      '/login',
      {
        'Content-Type': 'application/x-www-form-urlencoded',
        Origin: `http://127.0.0.1:${port}`,
        'Sec-Fetch-Site': 'same-origin',
      },
      'token=wrong-token-0123456789',
    );
    expect(badForm.status).toBe(401);
    expect(badForm.headers['set-cookie']).toBeUndefined();
  });

  it('refused requests changed nothing: no message, no chat, no session, no click', async () => {
    expect(sys.engine.requests).toEqual([]);
    expect(sys.openai.requests).toEqual([]);
    const chats = await request('GET', '/api/chats', { Cookie: cookie });
    expect(JSON.parse(chats.body)).toEqual({ chats: [] });
    const messages = await request('GET', '/api/bridge/messages', { Cookie: cookie });
    expect(JSON.parse(messages.body)).toEqual({ messages: [] });
    expect(await sys.mapping('web:owner')).toBeNull();
  });
});

describe('cross-origin and DNS rebinding', () => {
  const posts = () => routes.filter((r) => r.method === 'POST');

  it('every state-changing route refuses a cross-origin request with the cookie (403), before doing anything', async () => {
    const evil: Array<Record<string, string>> = [
      { Origin: 'http://evil.example' },
      { Origin: 'http://evil.example', 'Sec-Fetch-Site': 'same-origin' },
      { Origin: `http://127.0.0.1:${port}`, 'Sec-Fetch-Site': 'cross-site' },
      { Origin: `http://127.0.0.1:${port}`, 'Sec-Fetch-Site': 'same-site' },
      { Origin: `http://localhost:${port + 1}` },
      { Origin: 'null' },
      {},
    ];
    for (const route of [...posts(), { method: 'POST', path: '/login' }]) {
      for (const headers of evil) {
        const r = await request(
          'POST',
          route.path,
          {
            Cookie: cookie,
            'Content-Type': route.path === '/login' ? 'application/x-www-form-urlencoded' : 'application/json',
            ...headers,
          },
          route.path === '/login' ? `token=${sys.token}` : bodyFor(route),
        );
        expect(r.status, `${route.path} ${JSON.stringify(headers)}`).toBe(403);
        expect(r.headers['set-cookie']).toBeUndefined();
      }
      // A bearer token does not make a foreign page's request acceptable either.
      const bearer = await request(
        'POST',
        route.path,
        { Authorization: `Bearer ${sys.token}`, Origin: 'http://evil.example', 'Content-Type': 'application/json' },
        bodyFor(route),
      );
      expect(bearer.status, route.path).toBe(403);
    }
    expect(sys.engine.requests).toEqual([]);
    expect(sys.openai.requests).toEqual([]);
  });

  it('every route refuses a foreign Host, even with the token (421)', async () => {
    for (const route of routes) {
      for (const host of [
        'evil.example',
        `evil.example:${port}`,
        `127.0.0.1.nip.io:${port}`,
        `localhost.evil.example:${port}`,
        `127.0.0.1:${port + 1}`,
        `[::2]:${port}`,
        null,
      ]) {
        const r = await request(
          route.method,
          route.path,
          {
            Host: host,
            Cookie: cookie,
            Authorization: `Bearer ${sys.token}`,
            'Content-Type': 'application/json',
            Origin: `http://${host}`,
          },
          bodyFor(route),
        );
        if (host === null) {
          // No Host at all: Node's HTTP/1.1 parser answers 400 before the console sees the request.
          expect(r.status, `${route.method} ${route.path} without Host`).toBe(400);
          expect(r.body).toBe('');
          continue;
        }
        expect(r.status, `${route.method} ${route.path} Host=${host}`).toBe(421);
        expect(JSON.parse(r.body)).toEqual({ error: w('badHost') });
      }
    }
    // The token login is refused under a foreign Host too (no cookie for the rebinding origin).
    const login = await request('GET', `/?token=${sys.token}`, { Host: `evil.example:${port}` });
    expect(login.status).toBe(421);
    expect(login.headers['set-cookie']).toBeUndefined();
  });

  it('the names of this console are accepted (127.0.0.1, localhost, ::1)', async () => {
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `LOCALHOST:${port}`, `[::1]:${port}`])
      expect((await request('GET', '/api/status', { Host: host, Cookie: cookie })).status, host).toBe(200);
  });
});

describe('headers and bodies', () => {
  it('no answer ever carries a CORS header; every answer has CSP, X-Frame-Options and nosniff', async () => {
    const answers: Answer[] = [];
    for (const route of routes) {
      answers.push(
        await request(
          route.method,
          route.path,
          {
            Cookie: cookie,
            Origin: 'http://evil.example',
            'Access-Control-Request-Method': 'POST',
            'Content-Type': 'application/json',
          },
          bodyFor(route),
        ),
      );
      answers.push(
        await request('OPTIONS', route.path, {
          Origin: 'http://evil.example',
          'Access-Control-Request-Method': 'POST',
          'Access-Control-Request-Headers': 'content-type',
        }),
      );
      answers.push(await request(route.method === 'GET' ? 'GET' : 'HEAD', route.path, { Cookie: cookie }));
      answers.push(await request('GET', route.path, { Host: 'evil.example' }));
    }
    for (const a of answers) {
      expect(Object.keys(a.headers).filter((h) => h.startsWith('access-control-'))).toEqual([]);
      expect(a.headers['content-security-policy']).toMatch(/frame-ancestors 'none'/);
      expect(a.headers['content-security-policy']).not.toMatch(/unsafe-inline|unsafe-eval|\*/);
      expect(a.headers['x-frame-options']).toBe('DENY');
      expect(a.headers['x-content-type-options']).toBe('nosniff');
      expect(a.headers['referrer-policy']).toBe('no-referrer');
    }
  });

  it('the login cookie is HttpOnly, SameSite=Strict and is not the token', async () => {
    const login = await request('GET', `/?token=${encodeURIComponent(sys.token)}`);
    const set = String(login.headers['set-cookie']?.[0]);
    expect(set).toMatch(/; HttpOnly/);
    expect(set).toMatch(/; SameSite=Strict/);
    expect(set).not.toContain(sys.token);
    expect(login.headers.location).toBe('/');
  });

  it('the token (and the cookie value) never appear in any page or API body, authorised or not', async () => {
    await sys.say(OWNER, '/status'); // some bridge activity for the status view
    const cookieValue = cookie.split('=')[1] as string;
    for (const route of routes.filter((r) => r.method === 'GET')) {
      const variants: Array<Record<string, string>> = [
        { Cookie: cookie },
        { Authorization: `Bearer ${sys.token}` },
        {},
        { Accept: 'text/html' },
      ];
      for (const headers of variants) {
        const r = await request('GET', route.path, headers);
        expect(r.body.includes(sys.token), `${route.path} ${Object.keys(headers).join()}`).toBe(false);
        expect(r.body.includes(cookieValue), route.path).toBe(false);
      }
    }
  });
});

describe('login lifetime', () => {
  it('after POST /api/logout the login is refused on every route; other logins go on', async () => {
    const login = await request('GET', `/?token=${encodeURIComponent(sys.token)}`);
    const mine = String(login.headers['set-cookie']?.[0]).split(';')[0] as string;
    const same = { Origin: `http://127.0.0.1:${port}`, 'Sec-Fetch-Site': 'same-origin' };
    const out = await request('POST', '/api/logout', { Cookie: mine, ...same });
    expect(out.status).toBe(204);
    expect(String(out.headers['set-cookie']?.[0])).toMatch(/=; HttpOnly; SameSite=Strict; Path=\/; Max-Age=0$/);
    for (const route of routes) {
      const r = await request(
        route.method,
        route.path,
        { Cookie: mine, 'Content-Type': 'application/json', ...same },
        bodyFor(route),
      );
      expect(r.status, `${route.method} ${route.path}`).toBe(401);
    }
    expect((await request('GET', '/api/status', { Cookie: cookie })).status).toBe(200);
  });

  it('the start URL never redirects off the console (/.//evil.com?token=… → /)', async () => {
    for (const p of ['/.//evil.com', '/..//evil.com', '/%2F%2Fevil.com', '/%5Cevil.com']) {
      const r = await request('GET', `${p}?token=${encodeURIComponent(sys.token)}`);
      expect(r.status, p).toBe(303);
      expect(r.headers.location, p).toBe('/');
    }
  });
});
