import { afterEach, describe, expect, it } from 'vitest';
import {
  loginCookie,
  openStream,
  rawRequest as request,
  rawSocket,
  startTestConsole,
  stopTestConsole,
  type OpenStream,
  type RawSocket,
  type TestConsole,
} from '../../../test/helpers/web-console-kit.js';

// What one client may hold: connections that never finish their headers, open event streams per
// login, and open connections in all.
describe('web console server: limits', () => {
  let t: TestConsole | null = null;
  const sockets: RawSocket[] = [];
  const streams: OpenStream[] = [];
  afterEach(async () => {
    for (const s of sockets.splice(0)) s.socket.destroy();
    for (const s of streams.splice(0)) s.close();
    if (t) await stopTestConsole(t);
    t = null;
  });

  const say = (text: string, key: string) =>
    (t as TestConsole).web.channel.outbox.send(
      { channel: 'web', userId: 'web:owner', chatId: 'web' },
      { kind: 'text', text },
      key,
    );

  it('closes connections that do not finish their request headers within the headers timeout', async () => {
    const timeout = 300;
    t = await startTestConsole({ limits: { headersTimeoutMs: timeout, requestTimeoutMs: timeout } });
    const port = t.web.port;
    const host = `Host: 127.0.0.1:${port}\r\n`;
    // An event stream is a finished request: no timeout ends it.
    const stream = await openStream(port, await loginCookie(port, t.token));
    streams.push(stream);
    const slow = await Promise.all([
      rawSocket(port),
      rawSocket(port, 'GET / HT'),
      rawSocket(port, `GET /api/status HTTP/1.1\r\n${host}`),
      rawSocket(port, `POST /login HTTP/1.1\r\n${host}Content-Type: application/x-www-form-urlencoded\r\n`),
      ...Array.from({ length: 16 }, () => rawSocket(port, `GET / HTTP/1.1\r\n${host}X-Slow: `)),
    ]);
    sockets.push(...slow);
    // One more that keeps trickling a byte at a time, never finishing.
    const trickle = await rawSocket(port, `GET / HTTP/1.1\r\n${host}`);
    sockets.push(trickle);
    const drip = setInterval(() => trickle.socket.write('a'), timeout / 6);
    try {
      const outcome = await Promise.race([
        Promise.all([...slow, trickle].map((s) => s.closed)).then(() => 'all closed'),
        new Promise((r) => setTimeout(() => r('still open'), timeout * 10)),
      ]);
      expect(outcome).toBe('all closed');
    } finally {
      clearInterval(drip);
    }
    for (const s of [...slow, trickle]) expect(s.received()).not.toMatch(/^HTTP\/1\.1 200/);
    expect((await request(port, '/', { headers: { Authorization: `Bearer ${t.token}` } })).status).toBe(200);
    await say('still open', 'limits-0');
    await stream.waitFor('still open');
  });

  it('refuses a login its event stream past the cap (429) while its open streams keep receiving events', async () => {
    t = await startTestConsole({ limits: { maxStreamsPerClient: 3 } });
    const port = t.web.port;
    const cookie = await loginCookie(port, t.token);
    for (let i = 0; i < 3; i += 1) streams.push(await openStream(port, cookie));
    expect(streams.map((s) => s.status)).toEqual([200, 200, 200]);

    const refused = await openStream(port, cookie);
    expect(refused.status).toBe(429);
    expect(JSON.parse(refused.body)).toEqual({
      error: 'At most 3 console pages of one login may receive live events at once; close some tabs first.',
    });
    await say('first event', 'limits-1');
    for (const s of streams) await s.waitFor('first event');

    // Another login has its own allowance; and a closed stream frees a place.
    const other = await openStream(port, await loginCookie(port, t.token));
    streams.push(other);
    expect(other.status).toBe(200);
    const first = streams[0] as OpenStream;
    first.close();
    await first.ended;
    await expect
      .poll(async () => {
        const again = await openStream(port, cookie);
        if (again.status === 200) streams.push(again);
        return again.status;
      })
      .toBe(200);
    await say('second event', 'limits-2');
    for (const s of streams.slice(1)) await s.waitFor('second event');
  });

  it('refuses connections past the cap at once, and answers normally once there is room again', async () => {
    const max = 6;
    t = await startTestConsole({ limits: { maxConnections: max, keepAliveTimeoutMs: 60_000 } });
    const port = t.web.port;
    const get = `GET /api/status HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer ${t.token}\r\n\r\n`;
    // `max` kept-alive connections, each answered once (so the server has surely counted it).
    for (let i = 0; i < max; i += 1) {
      const s = await rawSocket(port, get);
      sockets.push(s);
      await expect.poll(() => s.received()).toMatch(/^HTTP\/1\.1 200 [\s\S]*\r\n\r\n\{/);
    }
    for (let i = 0; i < 3; i += 1) {
      const extra = await rawSocket(port, get);
      expect(await extra.closed).toBe('');
    }
    for (const s of sockets.splice(0)) s.socket.destroy();
    await expect
      .poll(
        async () => (await request(port, '/api/status', { headers: { Authorization: `Bearer ${t?.token}` } })).status,
      )
      .toBe(200);
  });
});
