import { afterEach, describe, expect, it, vi } from 'vitest';
import { GatewayClient, type GatewayState } from '../../../src/channels/dingtalk/gateway-client.js';
import { DingTalkApi } from '../../../src/channels/dingtalk/dingtalk-api.js';
import { until } from '../../e2e/telegram-harness.js';
import { FAKE_CLIENT_SECRET, startFakeDingTalk, type FakeDingTalk } from './fake-dingtalk-server.js';

const TOPIC = '/v1.0/im/bot/messages/get';
let fake: FakeDingTalk;
const clients: GatewayClient[] = [];

afterEach(async () => {
  for (const c of clients.splice(0)) c.disconnect();
  await fake?.close();
});

function client(secret = FAKE_CLIENT_SECRET, onCallback: (f: { headers: { messageId: string } }) => void = () => {}) {
  const states: GatewayState[] = [];
  const c = new GatewayClient({
    clientId: fake.clientId,
    clientSecret: secret,
    gatewayUrl: `${fake.apiBase}/v1.0/gateway/connections/open`,
    topics: [TOPIC],
    retryMs: 50,
    heartbeatMs: 50,
    onCallback,
    onState: (s) => states.push(s),
  });
  clients.push(c);
  void c.connect();
  return { c, states };
}

describe('fake DingTalk + the GatewayClient subclass of the real dingtalk-stream', () => {
  it('connects through the configured gateway with a one-time ticket and answers pings', async () => {
    fake = await startFakeDingTalk();
    const { states } = client();
    await until(() => fake.connections === 1 && states.at(-1)?.state === 'connected', 'the Stream socket');
    expect(fake.gatewayCalls[0]).toMatchObject({
      clientId: fake.clientId,
      clientSecret: 'ok',
      subscriptions: expect.arrayContaining([{ type: 'CALLBACK', topic: TOPIC }]),
    });
    fake.ping();
    await until(() => fake.pongs.length === 1, 'the ping answer');
    expect(fake.pongs[0]).toMatchObject({ code: 200, data: JSON.stringify({ opaque: 'p' }) });
    // A ticket opens one socket only.
    const reused = await fetch(`${fake.apiBase}/connect?ticket=used`, { headers: { upgrade: 'websocket' } }).catch(
      () => undefined,
    );
    expect(reused?.status ?? 401).not.toBe(101);
  });

  it('writes nothing to the console while connecting, failing, reconnecting and disconnecting', async () => {
    fake = await startFakeDingTalk();
    const spies = (['log', 'info', 'warn', 'error', 'debug'] as const).map((m) =>
      vi.spyOn(console, m).mockImplementation(() => {}),
    );
    try {
      const bad = client('wrong-secret');
      await until(() => bad.states.some((s) => s.state === 'error'), 'the refusal');
      bad.c.disconnect();
      const { c, states } = client();
      await until(() => states.at(-1)?.state === 'connected', 'the connection');
      fake.dropConnections();
      await until(() => fake.connections === 1 && states.at(-1)?.state === 'connected', 'the reconnection');
      c.disconnect();
      for (const spy of spies) expect(spy).not.toHaveBeenCalled();
    } finally {
      for (const spy of spies) spy.mockRestore();
    }
  });

  it('re-pushes a CALLBACK until it is acked, then stops', async () => {
    fake = await startFakeDingTalk({ ackTimeoutMs: 100 });
    const seen: string[] = [];
    let ack = false;
    const { c } = client(FAKE_CLIENT_SECRET, (f) => {
      seen.push(f.headers.messageId);
      if (ack) c.socketCallBackResponse(f.headers.messageId, {});
    });
    await until(() => fake.connections === 1, 'the Stream socket');
    fake.sendRaw('not json {');
    const push = fake.push(fake.robotMessage('owner', 'hi'));
    await until(() => seen.length === 2, 'a re-push');
    ack = true;
    await until(() => push.acked, 'the ack');
    const count = seen.length;
    await new Promise((r) => setTimeout(r, 300));
    expect(seen.length).toBe(count);
    expect(new Set(seen)).toEqual(new Set([push.messageId]));
  });

  it('reports refused credentials and an outage, reconnects after a dropped socket, stops for good', async () => {
    fake = await startFakeDingTalk();
    const bad = client('wrong-secret');
    await until(() => bad.states.some((s) => s.state === 'error'), 'the refusal');
    expect(bad.states.find((s) => s.state === 'error')).toMatchObject({ refused: true });
    expect(JSON.stringify(bad.states)).not.toContain('wrong-secret');
    bad.c.disconnect();

    const good = client();
    await until(() => fake.connections === 1, 'the Stream socket');
    fake.down = true;
    fake.dropConnections();
    await until(() => good.states.at(-1)?.state === 'error', 'the outage');
    expect(good.states.at(-1)).toMatchObject({
      refused: false,
      detail: 'gateway answered HTTP 503 ServiceUnavailable',
    });
    fake.down = false;
    await until(() => fake.connections === 1, 'the reconnection');
    good.c.disconnect();
    const calls = fake.gatewayCalls.length;
    await new Promise((r) => setTimeout(r, 200));
    expect(fake.gatewayCalls.length).toBe(calls);
    expect(fake.connections).toBe(0);
  });

  it('drops a socket that stops answering pings and connects again', async () => {
    fake = await startFakeDingTalk();
    const { states } = client();
    await until(() => fake.connections === 1 && states.at(-1)?.state === 'connected', 'the Stream socket');
    const calls = fake.gatewayCalls.length;
    fake.silent = true;
    await until(() => fake.gatewayCalls.length > calls, 'a new gateway call');
    fake.silent = false;
    await until(() => fake.connections === 1 && states.at(-1)?.state === 'connected', 'connected again');
    await new Promise((r) => setTimeout(r, 300));
    expect(states.at(-1)?.state).toBe('connected');
  });

  it('OpenAPI: token cached, a 401 renews it once, 429/5xx retried, a bad secret refused', async () => {
    fake = await startFakeDingTalk();
    const api = new DingTalkApi({
      apiBase: fake.apiBase,
      clientId: fake.clientId,
      clientSecret: FAKE_CLIENT_SECRET,
      lang: 'en',
      retryDelayMs: 10,
    });
    await api.sendMarkdown('u1', 't', 'one');
    await api.sendMarkdown('u1', 't', 'two');
    expect(fake.tokenCalls).toBe(1);
    fake.expireTokens();
    await api.sendMarkdown('u1', 't', 'three');
    expect(fake.tokenCalls).toBe(2);
    fake.failNext(429, 2);
    await api.sendMarkdown('u1', 't', 'four');
    expect(fake.messagesTo('u1').map((m) => m.text)).toEqual(['one', 'two', 'three', 'four']);
    fake.failNext(503, 9);
    await expect(api.sendMarkdown('u1', 't', 'five')).rejects.toMatchObject({ code: 'DINGTALK_API', status: 503 });
    fake.failNext(503, 0);
    const wrong = new DingTalkApi({ apiBase: fake.apiBase, clientId: fake.clientId, clientSecret: 'nope', lang: 'en' });
    await expect(wrong.accessToken()).rejects.toMatchObject({ status: 400 });
  });

  it('chaos switches: faults aimed at one call, flow control, answers counted, an acked push again', async () => {
    fake = await startFakeDingTalk({ ackTimeoutMs: 100 });
    const api = new DingTalkApi({
      apiBase: fake.apiBase,
      clientId: fake.clientId,
      clientSecret: FAKE_CLIENT_SECRET,
      lang: 'en',
      retryDelayMs: 10,
    });
    const heard: string[] = [];
    fake.onAnswer((call) => {
      heard.push(call);
      return call === 'batchSend';
    });
    fake.faults.failNext('batchSend', { status: 429, retryAfter: 1, times: 1 });
    await api.sendMarkdown('u1', 't', 'one');
    expect(heard).toEqual(['accessToken', 'batchSend']);
    fake.faults.failNext('*', { reset: true, times: 1 });
    await api.sendMarkdown('u1', 't', 'two');
    fake.faults.failNext('batchSend', { flowControlled: true, times: 1 });
    await expect(api.sendMarkdown('u1', 't', 'lost')).rejects.toMatchObject({ status: 429 });
    expect(fake.messagesTo('u1').map((m) => m.text)).toEqual(['one', 'two']);
    expect(fake.messagesTo('u1')[1]?.sentAt).toBeGreaterThanOrEqual(fake.messagesTo('u1')[0]?.sentAt ?? Infinity);
    // Injected failures and a flow-controlled answer are not answers; the listener left after its batchSend.
    expect(Object.fromEntries(fake.answered)).toEqual({ accessToken: 1, batchSend: 2 });
    expect(fake.faults.injected).toBe(3);
    expect(fake.requests).toBe(6);
    expect(heard).toEqual(['accessToken', 'batchSend']);

    const frames: string[] = [];
    const { c } = client(FAKE_CLIENT_SECRET, (f) => {
      frames.push(f.headers.messageId);
      c.socketCallBackResponse(f.headers.messageId, {});
    });
    await until(() => fake.connections === 1, 'the Stream socket');
    const push = fake.push(fake.robotMessage('u1', 'hi'));
    await until(() => push.acked, 'the ack');
    fake.redeliver(push);
    await until(() => frames.length === 2, 'the same frame again');
    expect(frames).toEqual([push.messageId, push.messageId]);
    expect(push.pushes).toBe(2);
    fake.dropConnections();
    await until(() => fake.connections === 1 && fake.connectionsOpened === 2, 'a second connection');
  });
});
