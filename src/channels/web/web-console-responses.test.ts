import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  loginCookie,
  rawRequest as request,
  startTestConsole,
  stopTestConsole,
  type TestConsole,
} from '../../../test/helpers/web-console-kit.js';
import type { WebConsole } from './start-web-console.js';

// What goes out: bounded, typed request bodies; the security headers on every answer and never a
// CORS header; no token and no config in any API response.
describe('web console server: what it answers', () => {
  let t: TestConsole;
  let web: WebConsole;
  let token: string;

  beforeEach(async () => {
    t = await startTestConsole();
    ({ web, token } = t);
  });
  afterEach(async () => stopTestConsole({ ...t, web }));

  const cookieFor = (): Promise<string> => loginCookie(web.port, token);

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
});
