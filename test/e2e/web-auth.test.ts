// Token auth seen from a real browser: nothing without the token (pages, assets, API, the event
// stream), the login form, cross-origin pages on the same machine, and no request leaving the origin.
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HAS_CHROMIUM, startWebHarness, type WebHarness } from './web-harness.js';

describe.skipIf(!HAS_CHROMIUM)('web console: token auth in the browser (chromium)', () => {
  let h: WebHarness;
  let origin: string;
  let token: string;
  let attacker: http.Server;
  let attackerOrigin: string;

  beforeAll(async () => {
    h = await startWebHarness();
    const url = new URL(h.web.url);
    origin = url.origin;
    token = url.searchParams.get('token') as string;
    // A page on another port of the same machine (same site, other origin) trying to use the console.
    attacker = http.createServer((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/html' });
      res.end(`<!doctype html><title>evil</title><script>
        const target = ${JSON.stringify(origin)};
        window.results = {};
        const id = () => crypto.randomUUID();
        fetch(target + '/api/bridge/messages', { method: 'POST', mode: 'no-cors', credentials: 'include', headers: { 'Content-Type': 'text/plain' }, body: JSON.stringify({ id: id(), text: 'pwned-no-cors' }) })
          .then((r) => (window.results.noCors = r.type), (e) => (window.results.noCors = 'error'));
        fetch(target + '/api/bridge/messages', { method: 'POST', credentials: 'include', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ id: id(), text: 'pwned-cors' }) })
          .then((r) => (window.results.cors = r.status), (e) => (window.results.cors = 'blocked'));
        fetch(target + '/api/status', { credentials: 'include' }).then((r) => r.text()).then((t) => (window.results.read = t), (e) => (window.results.read = 'blocked'));
      </script>`);
    });
    await new Promise<void>((r) => attacker.listen(0, '127.0.0.1', r));
    attackerOrigin = `http://127.0.0.1:${(attacker.address() as { port: number }).port}`;
  }, 30_000);
  afterAll(async () => {
    attacker?.close();
    await h?.close();
  });

  it('without the token: a login form, and 401 for every page, asset, API route and the event stream', async () => {
    const context = await h.browser.newContext({ locale: 'zh-CN' });
    try {
      const page = await context.newPage();
      page.setDefaultTimeout(10_000);
      context.setDefaultTimeout(10_000);
      const res = await page.goto(`${origin}/`);
      expect(res?.status()).toBe(401);
      expect(await page.locator('#token').isVisible()).toBe(true);
      expect(await page.locator('#chat-log, script').count()).toBe(0);
      for (const p of [
        '/',
        '/index.html',
        '/assets/app.js',
        '/assets/styles.css',
        '/assets/i18n.js',
        '/api/status',
        '/api/events',
        '/api/sessions',
        '/api/chats',
        '/api/chat/providers',
        '/api/audit',
        '/api/dirs',
        '/api/bridge/messages',
      ]) {
        const r = await context.request.get(`${origin}${p}`, { maxRedirects: 0 });
        expect(r.status(), p).toBe(401);
        expect(await r.text()).not.toContain(token);
      }
      const post = await context.request.post(`${origin}/api/bridge/messages`, {
        data: { id: '5f1c2a8e-1b2c-4d3e-8f40-123456789abc', text: 'hi' },
        headers: { Origin: origin },
      });
      expect(post.status()).toBe(401);

      await page.fill('#token', 'wrong-token');
      await page.click('button[type="submit"]');
      expect(await page.locator('.err').textContent()).toBe('令牌不正确。');
      await page.fill('#token', token);
      await page.click('button[type="submit"]');
      await page.locator('#tool-badge[data-status="available"]').waitFor();
      expect(page.url()).toBe(`${origin}/#/chat`);
      const cookies = await context.cookies();
      expect(cookies).toHaveLength(1);
      expect(cookies[0]).toMatchObject({ httpOnly: true, sameSite: 'Strict' });
      expect(cookies[0]?.value).not.toContain(token);
      // The page itself cannot read the cookie, and a request that omits it is refused.
      expect(await page.evaluate('document.cookie')).toBe('');
      expect(await page.evaluate("fetch('/api/status', { credentials: 'omit' }).then((r) => r.status)")).toBe(401);
      expect(await page.evaluate("fetch('/assets/app.js', { credentials: 'omit' }).then((r) => r.status)")).toBe(401);
      await h.shot(page, 'auth-logged-in');
    } finally {
      await context.close();
    }
  });

  it('the start URL logs in once and leaves a clean address; the page fetches nothing from elsewhere', async () => {
    const { context, page } = await h.page();
    const requested: string[] = [];
    page.on('request', (r) => requested.push(r.url()));
    await page.reload();
    await page.locator('#tool-badge[data-status="available"]').waitFor();
    expect(page.url()).not.toContain('token');
    expect(requested.length).toBeGreaterThan(3);
    expect(requested.filter((u) => !u.startsWith(`${origin}/`))).toEqual([]);
    expect(requested.filter((u) => u.includes('token'))).toEqual([]);
    await context.close();
  });

  it('Log out ends the login on the server and shows the login form; the old cookie no longer works', async () => {
    const { context, page } = await h.page({ locale: 'en-US' });
    const [cookie] = await context.cookies();
    expect(cookie).toBeDefined();
    await page.click('#tab-status');
    expect(await page.locator('#logout').textContent()).toBe('Log out');
    await page.click('#logout');
    await page.locator('#token').waitFor();
    expect(page.url()).toBe(`${origin}/`);
    expect(await context.cookies()).toEqual([]);
    const replay = await h.browser.newContext();
    try {
      await replay.addCookies([cookie as Parameters<typeof replay.addCookies>[0][number]]);
      const r = await replay.request.get(`${origin}/api/status`);
      expect(r.status()).toBe(401);
    } finally {
      await replay.close();
    }
    await context.close();
  });

  it('a page of another origin on the same machine cannot post as the user or read anything', async () => {
    const { context, page } = await h.page();
    const before = (
      await h.web.channel.outbox.send(
        { channel: 'web', userId: 'web:owner', chatId: 'web' },
        { kind: 'text', text: 'marker' },
        'auth-marker',
      )
    ).messageId;
    const evil = await context.newPage();
    await evil.goto(`${attackerOrigin}/`);
    await expect.poll(() => evil.evaluate('Object.keys(window.results).length'), { timeout: 5000 }).toBe(3);
    const results = (await evil.evaluate('window.results')) as Record<string, unknown>;
    // The simple POST reaches the server, which refuses it (Origin, then Content-Type); its answer
    // is not even an opaque response, because Cross-Origin-Resource-Policy: same-origin blocks it.
    expect(results.noCors).toBe('error');
    expect(results.cors).toBe('blocked'); // the JSON POST died at the preflight (no CORS headers)
    expect(results.read).toBe('blocked'); // and nothing can be read
    await page.reload();
    await page.click('#tab-sessions');
    await page.locator(`#b-log [data-id="${before}"]`).waitFor();
    expect(await page.locator('#b-log', { hasText: 'pwned' }).count()).toBe(0);
    expect(h.bh.engine.requests.filter((r) => r.prompt.includes('pwned'))).toEqual([]);
    await context.close();
  });
});
