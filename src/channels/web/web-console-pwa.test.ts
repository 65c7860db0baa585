import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  loginCookie,
  rawRequest as request,
  startTestConsole,
  stopTestConsole,
  type TestConsole,
} from '../../../test/helpers/web-console-kit.js';

// The installable app's files over the real server: their types, the worker's scope header, the
// CSP that lets the page use them — and all of them behind the login like the rest of the shell.
describe('web console server: the PWA files', () => {
  let t: TestConsole;
  let cookie: string;

  beforeAll(async () => {
    t = await startTestConsole();
    cookie = await loginCookie(t.web.port, t.token);
  });
  afterAll(async () => stopTestConsole(t));

  it('serves the manifest, the icons and the worker with their types; the worker may control /', async () => {
    const get = (p: string) => request(t.web.port, p, { headers: { Cookie: cookie } });
    const manifest = await get('/assets/manifest.webmanifest');
    expect(manifest.status).toBe(200);
    expect(manifest.headers['content-type']).toBe('application/manifest+json');
    expect(JSON.parse(manifest.body)).toMatchObject({ start_url: '/', display: 'standalone' });
    for (const icon of ['icon-192.png', 'icon-512.png', 'icon-maskable-512.png', 'apple-touch-icon.png']) {
      const r = await get(`/assets/icons/${icon}`);
      expect(r.status, icon).toBe(200);
      expect(r.headers['content-type'], icon).toBe('image/png');
    }
    const sw = await get('/assets/sw.js');
    expect(sw.status).toBe(200);
    expect(sw.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(sw.headers['service-worker-allowed']).toBe('/');
    expect(sw.headers['cache-control']).toBe('no-cache');
    // Only the worker widens its scope.
    expect((await get('/assets/app.js')).headers['service-worker-allowed']).toBeUndefined();
    const page = await get('/');
    expect(page.headers['content-security-policy']).toContain("manifest-src 'self'");
    expect(page.headers['content-security-policy']).toContain("worker-src 'self'");
  });

  it('keeps them behind the login', async () => {
    for (const p of ['/assets/sw.js', '/assets/manifest.webmanifest', '/assets/icons/icon-192.png']) {
      const r = await request(t.web.port, p);
      expect(r.status, p).toBe(401);
      expect(r.headers['service-worker-allowed'], p).toBeUndefined();
    }
  });
});
