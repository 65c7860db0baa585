// The fake Slack itself, spoken to with plain fetch and `ws` (no SDK): tokens checked, limits
// answered as Slack does, Socket Mode's hello, acks by envelope id and the re-send on a missed ack.
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { startFakeSlack, type FakeSlack } from './fake-slack-server.js';

let fake: FakeSlack;
afterEach(async () => {
  await fake.close();
});

async function call(method: string, token: string, body: Record<string, string> = {}) {
  const res = await fetch(`${fake.apiUrl}${method}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(body),
  });
  return {
    status: res.status,
    retryAfter: res.headers.get('retry-after'),
    scopes: res.headers.get('x-oauth-scopes'),
    json: (await res.json()) as Record<string, unknown>,
  };
}

describe('fake Slack', () => {
  it('checks the token per method, refuses over-long blocks and unescaped mrkdwn, and rate-limits on request', async () => {
    fake = await startFakeSlack();
    expect((await call('auth.test', 'xoxb-wrong')).json).toEqual({ ok: false, error: 'invalid_auth' });
    expect((await call('apps.connections.open', fake.botToken)).json.error).toBe('invalid_auth');
    expect((await call('auth.test', fake.botToken)).json.user_id).toBe('U0BOTUSER');
    const section = (text: string) => JSON.stringify([{ type: 'section', text: { type: 'mrkdwn', text } }]);
    const post = (blocks: string) => call('chat.postMessage', fake.botToken, { channel: 'D1', text: 'x', blocks });
    expect((await post(section('a'.repeat(3_001)))).json.error).toBe('invalid_blocks');
    expect((await post(section('a < b'))).json.error).toBe('invalid_blocks');
    expect((await post(section('a &lt; b &amp; <https://x.test|x>\n> quoted'))).json.ok).toBe(true);
    expect(fake.messages[0]?.visible).toBe('a < b & x\n> quoted');
    expect((await call('chat.update', fake.botToken, { channel: 'D1', ts: '1.000001', text: 'x' })).json.error).toBe(
      'message_not_found',
    );
    fake.rateLimit('chat.postMessage', 1, 2);
    const limited = await post(section('later'));
    expect([limited.status, limited.retryAfter]).toEqual([429, '2']);
    expect((await post(section('now'))).json.ok).toBe(true);
  });

  it('says hello, matches acks by envelope id and re-sends an unacked event with retry_attempt', async () => {
    fake = await startFakeSlack();
    fake.hub.ackTimeoutMs = 100;
    const url = (await call('apps.connections.open', fake.appToken)).json.url as string;
    const ws = new WebSocket(url);
    const frames: Array<Record<string, unknown>> = [];
    ws.on('message', (d) => frames.push(JSON.parse(String(d)) as Record<string, unknown>));
    await new Promise((r) => ws.once('open', r));
    const pushed = fake.pushMessage('U0OWNER', 'hi');
    const wait = async (n: number) => {
      for (let i = 0; i < 200 && frames.length < n; i += 1) await new Promise((r) => setTimeout(r, 10));
    };
    await wait(3);
    expect(frames.map((f) => [f.type, f.retry_attempt])).toEqual([
      ['hello', undefined],
      ['events_api', 0],
      ['events_api', 1],
    ]);
    ws.send(JSON.stringify({ envelope_id: frames[2]?.envelope_id }));
    await new Promise((r) => setTimeout(r, 250));
    expect(frames).toHaveLength(3);
    expect(fake.hub.unacked()).toEqual([]);
    expect((frames[2]?.payload as { event_id: string }).event_id).toBe(
      (pushed.envelope.payload as { event_id: string }).event_id,
    );
    ws.terminate();
  });

  it('fails the next calls on request (5xx, 429, reset), tells who listens of each answer, and drops sockets', async () => {
    fake = await startFakeSlack();
    const post = () => call('chat.postMessage', fake.botToken, { channel: 'D1', text: 'x' });
    const heard: string[] = [];
    fake.onAnswer((method) => (heard.push(method), false));
    fake.failNext('chat.postMessage', { status: 503, times: 1 });
    expect((await post()).status).toBe(503);
    fake.failNext('*', { status: 429, retryAfter: 3, times: 1 });
    expect(await post()).toMatchObject({ status: 429, retryAfter: '3' });
    fake.failNext('*', { reset: true, times: 1 });
    await expect(post()).rejects.toThrow();
    expect((await post()).json.ok).toBe(true);
    expect([fake.injected, fake.answered.get('chat.postMessage'), heard]).toEqual([3, 1, ['chat.postMessage']]);
    expect(fake.messages[0]).toMatchObject({ firstVisible: 'x', edits: 0 });
    const url = (await call('apps.connections.open', fake.appToken)).json.url as string;
    const ws = new WebSocket(url);
    await new Promise((r) => ws.once('open', r));
    const closed = new Promise((r) => ws.once('close', r));
    fake.dropConnections();
    await closed;
    expect(fake.hub.open()).toEqual([]);
  });

  it('sends the token’s scopes in x-oauth-scopes like Slack (comma-separated, no spaces), or no header', async () => {
    fake = await startFakeSlack();
    expect((await call('auth.test', fake.botToken)).scopes).toBe(
      'chat:write,im:history,im:write,files:read,files:write,commands',
    );
    expect((await call('apps.connections.open', fake.appToken)).scopes).toBe('connections:write');
    expect((await call('auth.test', 'xoxb-wrong')).scopes).toBeNull();
    fake.scopes = ['chat:write', 'im:history'];
    expect((await call('auth.test', fake.botToken)).scopes).toBe('chat:write,im:history');
    fake.scopes = undefined;
    expect((await call('auth.test', fake.botToken)).scopes).toBeNull();
  });
});
