import fs from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { BridgeStatus } from '../../bridge/commands/command-context.js';
import type { Config } from '../../core/config-schema.js';
import { defaultConfig } from '../../core/default-config.js';
import { silentLogger } from '../../core/logger.js';
import { resolvePaths, type Paths } from '../../core/paths.js';
import type { ConsoleBridge } from './api-routes.js';
import type { ConsoleGateway } from './console-gateway.js';
import type { ConsoleSessions } from './console-sessions.js';
import { startWebConsole, type WebConsole } from './web-server.js';

/** Raw HTTP so that Host / Origin / Cookie are exactly what the test says (fetch would rewrite some). */
function request(
  port: number,
  p: string,
  o: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        path: p,
        method: o.method ?? 'GET',
        headers: { Host: `127.0.0.1:${port}`, ...o.headers },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => {
          chunks.push(c);
          // SSE never ends: one chunk is enough to see what we got.
          if (String(res.headers['content-type']).startsWith('text/event-stream')) res.destroy();
        });
        res.on('close', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }),
        );
        res.on('error', () => undefined);
      },
    );
    req.on('error', reject);
    req.end(o.body);
  });
}

const fakeGateway: ConsoleGateway = {
  availability: async () => ({ status: 'available', reason: 'ChainlessChain 0.165.7', version: '0.165.7' }),
  providers: () => [{ id: 'openai', label: 'OpenAI', model: 'gpt-test', tools: true }],
  newChat: () => {
    throw new Error('not in this test');
  },
  audit: async () => [],
};
const fakeSessions: ConsoleSessions = { list: async () => [], get: async () => null, recentTurns: async () => [] };
const status: BridgeStatus = {
  pending: 1,
  processing: 0,
  failed: 0,
  running: 0,
  channels: [{ id: 'feishu', connected: false }],
  pendingPrompts: 0,
};
const accepted: string[] = [];
const fakeBridge: ConsoleBridge = {
  accept: async (m) => {
    accepted.push(m.text);
    return { status: 'accepted' };
  },
  handleAction: async () => ({ toast: { type: 'success', text: 'ok' } }),
  status: async () => status,
};

describe('web console server: token, cookie, origin', () => {
  let dir: string;
  let paths: Paths;
  let config: Config;
  let web: WebConsole;
  let token: string;

  beforeEach(async () => {
    dir = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'ccl-web-')));
    paths = resolvePaths({
      HOME: dir,
      CC_LINKER_HOME: path.join(dir, '.cc-linker'),
      CLAUDE_CONFIG_DIR: path.join(dir, '.claude'),
    });
    config = defaultConfig();
    web = await startWebConsole({
      config,
      paths,
      lang: 'en',
      logger: silentLogger,
      bridge: fakeBridge,
      gateway: fakeGateway,
      sessions: fakeSessions,
      port: 0,
    });
    token = new URL(web.url).searchParams.get('token') as string;
    accepted.length = 0;
  });
  afterEach(async () => {
    await web.close();
    await fs.rm(dir, { recursive: true, force: true });
  });

  const cookieFor = async (): Promise<string> => {
    const r = await request(web.port, `/?token=${encodeURIComponent(token)}`);
    return String(r.headers['set-cookie']?.[0]).split(';')[0] as string;
  };

  it('generates a 32-byte token once, stores it 0600 and puts it in the start URL', async () => {
    expect(web.url).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${web.port}/\\?token=`));
    expect(Buffer.from(token, 'base64url')).toHaveLength(32);
    const st = await fs.stat(paths.webTokenFile);
    expect(st.mode & 0o777).toBe(0o600);
    expect((await fs.readFile(paths.webTokenFile, 'utf8')).trim()).toBe(token);
    const outbox = await fs.stat(path.join(paths.home, 'web', 'outbox.jsonl'));
    expect(outbox.mode & 0o777).toBe(0o600);
  });

  it('refuses EVERY route without the token: pages, assets, API and the event stream', async () => {
    const routes: Array<[string, string]> = [
      ['GET', '/'],
      ['GET', '/index.html'],
      ['GET', '/assets/app.js'],
      ['GET', '/assets/styles.css'],
      ['GET', '/assets/i18n.js'],
      ['GET', '/assets/nope.js'],
      ['GET', '/api/events'],
      ['GET', '/api/status'],
      ['GET', '/api/chat/providers'],
      ['GET', '/api/chat/availability'],
      ['GET', '/api/chats'],
      ['GET', '/api/audit'],
      ['GET', '/api/sessions'],
      ['GET', '/api/sessions/abc'],
      ['GET', '/api/dirs'],
      ['GET', '/api/bridge/messages'],
      ['GET', '/api/unknown'],
      ['POST', '/api/chats'],
      ['POST', '/api/bridge/messages'],
      ['POST', '/api/bridge/actions'],
      ['POST', '/api/sessions/new'],
      ['POST', '/api/sessions/abc/continue'],
      ['DELETE', '/api/chats'],
    ];
    const variants: Array<Record<string, string>> = [
      {},
      { Cookie: `ccl_console_${web.port}=${token}` }, // the raw token is not the cookie value
      { Cookie: `ccl_console_${web.port}=wrong` },
      { Authorization: 'Bearer wrong-token' },
      { Authorization: `Basic ${token}` },
    ];
    for (const [method, p] of routes) {
      for (const headers of variants) {
        const r = await request(web.port, p, {
          method,
          headers: { Origin: `http://127.0.0.1:${web.port}`, 'Content-Type': 'application/json', ...headers },
          ...(method === 'POST' ? { body: '{}' } : {}),
        });
        expect(r.status, `${method} ${p} ${JSON.stringify(headers)}`).toBe(401);
        expect(r.body).not.toContain(token);
        expect(r.body).not.toMatch(/gpt-test|feishu|cc-linker\/|export /);
      }
    }
  });

  it('serves only a script-free login form to a browser without the token', async () => {
    const r = await request(web.port, '/', { headers: { Accept: 'text/html' } });
    expect(r.status).toBe(401);
    expect(r.body).toContain('<form method="post" action="/login">');
    expect(r.body).not.toContain('<script');
    expect(r.headers['content-security-policy']).toContain("default-src 'none'");
  });

  it('?token= sets an HttpOnly SameSite=Strict cookie and redirects to the clean URL; the cookie then works', async () => {
    const r = await request(web.port, `/?token=${encodeURIComponent(token)}`);
    expect(r.status).toBe(303);
    expect(r.headers.location).toBe('/');
    const cookie = String(r.headers['set-cookie']?.[0]);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Strict/);
    expect(cookie).not.toContain(token);
    const page = await request(web.port, '/', { headers: { Cookie: cookie.split(';')[0] as string } });
    expect(page.status).toBe(200);
    expect(page.body).toContain('/assets/app.js');
    const wrong = await request(web.port, '/?token=nope', { headers: { Accept: 'text/html' } });
    expect(wrong.status).toBe(401);
    expect(wrong.headers['set-cookie']).toBeUndefined();
  });

  it('the login form sets the cookie only for the right token and only same-origin', async () => {
    const origin = `http://127.0.0.1:${web.port}`;
    const form = { 'Content-Type': 'application/x-www-form-urlencoded' };
    const ok = await request(web.port, '/login', {
      method: 'POST',
      headers: { ...form, Origin: origin },
      body: `token=${encodeURIComponent(token)}`,
    });
    expect(ok.status).toBe(303);
    expect(ok.headers['set-cookie']).toBeDefined();
    const bad = await request(web.port, '/login', {
      method: 'POST',
      headers: { ...form, Origin: origin },
      body: 'token=guess',
    });
    expect(bad.status).toBe(401);
    const cross = await request(web.port, '/login', {
      method: 'POST',
      headers: { ...form, Origin: 'http://evil.example' },
      body: `token=${encodeURIComponent(token)}`,
    });
    expect(cross.status).toBe(403);
    expect(cross.headers['set-cookie']).toBeUndefined();
  });

  it('accepts Authorization: Bearer, and a cookie-authenticated SSE stream opens', async () => {
    const r = await request(web.port, '/api/status', { headers: { Authorization: `Bearer ${token}` } });
    expect(r.status).toBe(200);
    expect(JSON.parse(r.body).bridge).toEqual(status);
    const sse = await request(web.port, '/api/events', { headers: { Cookie: await cookieFor() } });
    expect(sse.status).toBe(200);
    expect(sse.headers['content-type']).toMatch(/^text\/event-stream/);
  });

  it('refuses cross-origin and Origin-less cookie POSTs with 403 before doing anything', async () => {
    const cookie = await cookieFor();
    const body = JSON.stringify({ id: '6f1c2a8e-1b2c-4d3e-8f40-123456789abc', text: 'hello' });
    const json = { 'Content-Type': 'application/json', Cookie: cookie };
    const cases: Array<Record<string, string>> = [
      { Origin: 'http://evil.example' },
      { Origin: 'null' },
      { Origin: 'null', 'Sec-Fetch-Site': 'cross-site' },
      { Origin: `http://localhost:${web.port + 1}` },
      { 'Sec-Fetch-Site': 'cross-site' },
      { 'Sec-Fetch-Site': 'same-site', Origin: `http://127.0.0.1:${web.port}` },
      {},
    ];
    for (const h of cases) {
      const r = await request(web.port, '/api/bridge/messages', { method: 'POST', headers: { ...json, ...h }, body });
      expect(r.status, JSON.stringify(h)).toBe(403);
    }
    expect(accepted).toEqual([]);
    const ok = await request(web.port, '/api/bridge/messages', {
      method: 'POST',
      headers: { ...json, Origin: `http://127.0.0.1:${web.port}`, 'Sec-Fetch-Site': 'same-origin' },
      body,
    });
    expect(ok.status).toBe(200);
    expect(accepted).toEqual(['hello']);
    // A same-origin form POST under Referrer-Policy: no-referrer carries Origin: null.
    const formLike = await request(web.port, '/api/bridge/messages', {
      method: 'POST',
      headers: { ...json, Origin: 'null', 'Sec-Fetch-Site': 'same-origin' },
      body: JSON.stringify({ id: '8f1c2a8e-1b2c-4d3e-8f40-123456789abc', text: 'form' }),
    });
    expect(formLike.status).toBe(200);
    const bearer = await request(web.port, '/api/bridge/messages', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
      body: JSON.stringify({ id: '7f1c2a8e-1b2c-4d3e-8f40-123456789abc', text: 'script' }),
    });
    expect(bearer.status).toBe(200);
  });

  it('refuses a foreign Host (DNS rebinding) even with the cookie', async () => {
    const r = await request(web.port, '/api/status', {
      headers: { Host: `evil.example:${web.port}`, Cookie: await cookieFor() },
    });
    expect(r.status).toBe(421);
    expect(r.body).not.toContain('pending');
  });

  it('limits and types JSON bodies', async () => {
    const cookie = await cookieFor();
    const base = { Cookie: cookie, Origin: `http://127.0.0.1:${web.port}` };
    const big = await request(web.port, '/api/bridge/messages', {
      method: 'POST',
      headers: { ...base, 'Content-Type': 'application/json' },
      body: JSON.stringify({ text: 'x'.repeat(70_000) }),
    });
    expect(big.status).toBe(413);
    const form = await request(web.port, '/api/bridge/messages', {
      method: 'POST',
      headers: { ...base, 'Content-Type': 'text/plain' },
      body: '{}',
    });
    expect(form.status).toBe(415);
    const broken = await request(web.port, '/api/bridge/messages', {
      method: 'POST',
      headers: { ...base, 'Content-Type': 'application/json' },
      body: '{"id":',
    });
    expect(broken.status).toBe(400);
  });

  it('sends the security headers everywhere and never a CORS header', async () => {
    const cookie = await cookieFor();
    for (const p of ['/', '/assets/app.js', '/api/status', '/api/nope']) {
      for (const headers of [{ Cookie: cookie, Origin: 'http://evil.example' }, {}] as Array<Record<string, string>>) {
        const r = await request(web.port, p, { headers });
        expect(r.headers['content-security-policy'], p).toMatch(/default-src '(self|none)'/);
        expect(r.headers['x-frame-options']).toBe('DENY');
        expect(r.headers['x-content-type-options']).toBe('nosniff');
        expect(Object.keys(r.headers).filter((h) => h.startsWith('access-control-'))).toEqual([]);
      }
    }
    const pre = await request(web.port, '/api/status', {
      method: 'OPTIONS',
      headers: { Origin: 'http://evil.example', 'Access-Control-Request-Method': 'POST' },
    });
    expect(pre.status).toBe(401);
    expect(Object.keys(pre.headers).filter((h) => h.startsWith('access-control-'))).toEqual([]);
  });

  it('never returns the token or the config in an API response', async () => {
    const cookie = await cookieFor();
    for (const p of [
      '/api/status',
      '/api/chat/providers',
      '/api/chat/availability',
      '/api/chats',
      '/api/audit',
      '/api/sessions',
      '/api/dirs',
      '/api/bridge/messages',
    ]) {
      const r = await request(web.port, p, { headers: { Cookie: cookie } });
      expect(r.status, p).toBe(200);
      expect(r.body).not.toContain(token);
      expect(r.body).not.toContain(cookie.split('=')[1] as string);
    }
  });

  it('reuses the stored token after a restart', async () => {
    await web.close();
    web = await startWebConsole({
      config,
      paths,
      lang: 'en',
      logger: silentLogger,
      gateway: fakeGateway,
      sessions: fakeSessions,
      port: 0,
    });
    expect(new URL(web.url).searchParams.get('token')).toBe(token);
  });
});

describe('web console server: bind address', () => {
  it('refuses a non-loopback host unless web.host and web.token are both set', async () => {
    const dir = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'ccl-web-')));
    try {
      const paths = resolvePaths({ HOME: dir, CC_LINKER_HOME: path.join(dir, '.cc-linker') });
      const base = {
        paths,
        lang: 'en' as const,
        logger: silentLogger,
        gateway: fakeGateway,
        sessions: fakeSessions,
        port: 0,
      };
      await expect(startWebConsole({ ...base, config: defaultConfig(), host: '0.0.0.0' })).rejects.toMatchObject({
        code: 'WEB_BIND_REFUSED',
      });
      const hostOnly = defaultConfig();
      hostOnly.web.host = '0.0.0.0';
      await expect(startWebConsole({ ...base, config: hostOnly })).rejects.toThrow(/web\.host and web\.token/);
      const tokenOnly = defaultConfig();
      tokenOnly.web.token = 'a-long-explicit-token-0123456789';
      await expect(startWebConsole({ ...base, config: tokenOnly, host: '0.0.0.0' })).rejects.toMatchObject({
        code: 'WEB_BIND_REFUSED',
      });
      // Refused before anything was written.
      await expect(fs.stat(paths.webTokenFile)).rejects.toMatchObject({ code: 'ENOENT' });
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });

  it('reports a port in use clearly', async () => {
    const dir = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'ccl-web-')));
    const blocker = http.createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', r));
    try {
      const port = (blocker.address() as { port: number }).port;
      const paths = resolvePaths({ HOME: dir, CC_LINKER_HOME: path.join(dir, '.cc-linker') });
      await expect(
        startWebConsole({
          config: defaultConfig(),
          paths,
          lang: 'en',
          logger: silentLogger,
          gateway: fakeGateway,
          sessions: fakeSessions,
          port,
        }),
      ).rejects.toMatchObject({ code: 'WEB_PORT_IN_USE' });
    } finally {
      blocker.close();
      await fs.rm(dir, { recursive: true, force: true });
    }
  });
});
