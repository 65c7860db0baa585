import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  fakeStatus as status,
  loginCookie,
  rawRequest as request,
  startTestConsole,
  stopTestConsole,
  type TestConsole,
} from '../../../test/helpers/web-console-kit.js';
import type { WebConsole } from './start-web-console.js';

// Who gets in: the token (start URL, login form, cookie, Bearer), the same-origin rule for
// state-changing requests and the Host check, on every route.
describe('web console server: token, cookie, origin', () => {
  let t: TestConsole;
  let web: WebConsole;
  let token: string;
  let accepted: string[];

  beforeEach(async () => {
    t = await startTestConsole();
    ({ web, token, accepted } = t);
  });
  afterEach(async () => stopTestConsole({ ...t, web }));

  const cookieFor = (): Promise<string> => loginCookie(web.port, token);

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

  it('the login form says where the token is (under ~, never the token) and how to print the login URL, zh and en', async () => {
    // general.language (en here) decides, not the browser's locale; the page's saved choice (cookie) does.
    const zh = await request(web.port, '/', { headers: { Accept: 'text/html', Cookie: 'x=1; ccl-lang=zh' } });
    expect(zh.body).toContain('令牌保存在 ~/.cc-linker/web-token。');
    expect(zh.body).toContain('cc-linker web url');
    const en = await request(web.port, '/', { headers: { Accept: 'text/html', 'Accept-Language': 'zh-CN' } });
    expect(en.body).toContain('The token is stored in ~/.cc-linker/web-token.');
    expect(en.body).toContain('Run cc-linker web url in a terminal');
    for (const body of [zh.body, en.body]) {
      expect(body).not.toContain(token);
      expect(body).not.toContain(t.dir);
    }
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
});
