import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  consoleOptions,
  loginCookie,
  openStream,
  rawRequest as request,
  rawSocket,
  sameOriginPost,
  startTestConsole,
  stopTestConsole,
  type TestConsole,
} from '../../../test/helpers/web-console-kit.js';
import { writeFileAtomic } from '../../store/atomic-write.js';
import { loginStoreFile } from './http/login-sessions.js';
import { startWebConsole, type WebConsole } from './start-web-console.js';

// A login's lifetime: a random id per login in the cookie (hashes on disk), logout, restarts, a new
// token in the token file while the console runs, and where the start URL sends the browser.
describe('web console server: logins', () => {
  let t: TestConsole;
  let web: WebConsole;
  let token: string;

  beforeEach(async () => {
    t = await startTestConsole();
    ({ web, token } = t);
  });
  afterEach(async () => stopTestConsole({ ...t, web }));

  const status = async (cookie: string) =>
    (await request(web.port, '/api/status', { headers: { Cookie: cookie } })).status;
  const valueOf = (cookie: string) => cookie.split('=')[1] as string;

  it('each login gets its own random id in the cookie; the store keeps only hashes of the ids, privately', async () => {
    const a = await loginCookie(web.port, token);
    const form = await request(web.port, '/login', {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: `http://127.0.0.1:${web.port}` },
      body: `token=${encodeURIComponent(token)}`,
    });
    const b = String(form.headers['set-cookie']?.[0]).split(';')[0] as string;
    expect(valueOf(a)).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(valueOf(b)).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(valueOf(a)).not.toBe(valueOf(b));
    expect([await status(a), await status(b)]).toEqual([200, 200]);
    const file = loginStoreFile(t.paths);
    expect((await fs.stat(file)).mode & 0o777).toBe(0o600);
    const stored = await fs.readFile(file, 'utf8');
    for (const c of [a, b]) {
      expect(stored).not.toContain(valueOf(c));
      expect(stored).toContain(createHash('sha256').update(valueOf(c)).digest('hex'));
    }
    expect(stored).not.toContain(token);
  });

  it('POST /api/logout ends the login server-side, clears the cookie and cuts its open event stream', async () => {
    const mine = await loginCookie(web.port, token);
    const other = await loginCookie(web.port, token);
    const stream = await openStream(web.port, mine);
    const otherStream = await openStream(web.port, other);
    expect([stream.status, otherStream.status]).toEqual([200, 200]);

    // Same-origin rule and method first: nothing ends.
    const noOrigin = await request(web.port, '/api/logout', { method: 'POST', headers: { Cookie: mine } });
    expect(noOrigin.status).toBe(403);
    const get = await request(web.port, '/api/logout', { headers: { Cookie: mine } });
    expect(get.status).toBe(405);
    const anonymous = await request(web.port, '/api/logout', {
      method: 'POST',
      headers: sameOriginPost(web.port, 'x=y'),
    });
    expect(anonymous.status).toBe(401);
    expect(await status(mine)).toBe(200);

    const out = await request(web.port, '/api/logout', { method: 'POST', headers: sameOriginPost(web.port, mine) });
    expect(out.status).toBe(204);
    expect(out.body).toBe('');
    const cleared = String(out.headers['set-cookie']?.[0]);
    expect(cleared).toBe(`ccl_console_${web.port}=; HttpOnly; SameSite=Strict; Path=/; Max-Age=0`);
    expect(await status(mine)).toBe(401);
    await stream.ended;
    // The other login is untouched, its stream included.
    expect(await status(other)).toBe(200);
    await web.channel.outbox.send(
      { channel: 'web', userId: 'web:owner', chatId: 'web' },
      { kind: 'text', text: 'still streaming' },
      'after-logout',
    );
    await otherStream.waitFor('still streaming');
    expect(stream.received()).not.toContain('still streaming');
    otherStream.close();
  });

  it('logins survive a restart of the console', async () => {
    const cookie = await loginCookie(web.port, token);
    const port = web.port;
    await web.close();
    web = await startWebConsole({ ...consoleOptions(t.paths, t.config), port });
    expect(await status(cookie)).toBe(200);
  });

  it('a new token in the token file ends every login of the running console, and only the new token logs in', async () => {
    const cookie = await loginCookie(web.port, token);
    const stream = await openStream(web.port, cookie);
    const fresh = randomBytes(32).toString('base64url');
    await writeFileAtomic(t.paths.webTokenFile, `${fresh}\n`);

    expect(await status(cookie)).toBe(401);
    await stream.ended;
    const old = await request(web.port, `/?token=${encodeURIComponent(token)}`);
    expect(old.status).toBe(401);
    expect(old.headers['set-cookie']).toBeUndefined();
    const bearer = await request(web.port, '/api/status', { headers: { Authorization: `Bearer ${token}` } });
    expect(bearer.status).toBe(401);
    const next = await loginCookie(web.port, fresh);
    expect(await status(next)).toBe(200);
    expect(await status(cookie)).toBe(401);
    // And after a restart the old login stays ended.
    const port = web.port;
    await web.close();
    web = await startWebConsole({ ...consoleOptions(t.paths, t.config), port });
    expect(await status(cookie)).toBe(401);
    expect(await status(next)).toBe(200);
  });

  it('the start URL sends the browser only to a path of this console, without the token', async () => {
    const hostile = [
      '//evil.com',
      '/.//evil.com',
      '/\\evil.com',
      '/%2F%2Fevil.com',
      '/%5Cevil.com',
      '/..//evil.com',
      '/%2e%2e//evil.com',
      'http://evil.com/',
      `http://127.0.0.1:${web.port}//evil.com`,
    ];
    for (const target of hostile) {
      const sep = target.includes('?') ? '&' : '?';
      const s = await rawSocket(
        web.port,
        `GET ${target}${sep}token=${token} HTTP/1.1\r\nHost: 127.0.0.1:${web.port}\r\nConnection: close\r\n\r\n`,
      );
      const answer = await s.closed;
      expect(answer, target).toMatch(/^HTTP\/1\.1 303 /);
      expect(answer, target).toMatch(/\r\nLocation: \/\r\n/);
    }
    // Control characters never reach the redirect: the HTTP parser refuses the request outright.
    for (const target of ['/\t/evil.com', '/\r\n/evil.com']) {
      const s = await rawSocket(
        web.port,
        `GET ${target}?token=${token} HTTP/1.1\r\nHost: 127.0.0.1:${web.port}\r\nConnection: close\r\n\r\n`,
      );
      const answer = await s.closed;
      expect(answer).toMatch(/^HTTP\/1\.1 400 /);
      expect(answer).not.toMatch(/Set-Cookie|Location/i);
    }
    const kept = await request(web.port, `/index.html?view=chat&token=${encodeURIComponent(token)}&x=%20y`);
    expect(kept.status).toBe(303);
    expect(kept.headers.location).toBe('/index.html?view=chat&x=%20y');
  });
});
