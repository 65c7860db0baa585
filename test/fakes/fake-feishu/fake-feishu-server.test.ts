import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import * as Lark from '@larksuiteoapi/node-sdk';
import { afterEach, describe, expect, it } from 'vitest';
import {
  cardActionEvent,
  fileMessageEvent,
  imageMessageEvent,
  postMessageEvent,
  startFakeFeishuServer,
  textMessageEvent,
  type FakeFeishu,
  type FakeFeishuOptions,
} from './fake-feishu-server.js';
import { FAKE_SERVICE_ID } from './long-connection.js';

// The SDK caches tenant tokens process-wide per app id: a fresh app id per test keeps counts honest.
const newAppId = (): string => `cli_${randomBytes(8).toString('hex')}`;

let cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  cleanups = [];
});

async function startFake(opts: FakeFeishuOptions = {}): Promise<FakeFeishu> {
  const fake = await startFakeFeishuServer(opts);
  cleanups.push(() => fake.close());
  return fake;
}

type Handler = (data: Record<string, unknown>) => unknown;

/**
 * Drops every SDK log line. Needed for the calls these tests make fail on purpose: the Client and
 * EventDispatcher read `loggerLevel || info`, so `LoggerLevel.fatal` (0) silently means `info`.
 */
const quietLogger: Lark.Logger = { error: () => {}, warn: () => {}, info: () => {}, debug: () => {}, trace: () => {} };

/** A real WSClient + EventDispatcher against the fake, connected, closed after the test. */
async function connectWsClient(
  fake: FakeFeishu,
  handlers: Record<string, Handler>,
  extra: { appSecret?: string; onError?: (e: Error) => void; wait?: boolean; quiet?: boolean } = {},
): Promise<Lark.WSClient> {
  const eventDispatcher = new Lark.EventDispatcher({ loggerLevel: Lark.LoggerLevel.error }).register(handlers);
  const wsClient = new Lark.WSClient({
    appId: newAppId(),
    appSecret: extra.appSecret ?? fake.appSecret,
    domain: fake.baseUrl,
    loggerLevel: Lark.LoggerLevel.error,
    ...(extra.quiet ? { logger: quietLogger } : {}),
    ...(extra.onError ? { onError: extra.onError } : {}),
  });
  cleanups.push(() => wsClient.close({ force: true }));
  await wsClient.start({ eventDispatcher });
  if (extra.wait !== false) await fake.waitForConnection();
  return wsClient;
}

/** A real REST client, quiet about the errors these tests provoke on purpose. */
function restClient(fake: FakeFeishu, appSecret = fake.appSecret): Lark.Client {
  return new Lark.Client({ appId: newAppId(), appSecret, domain: fake.baseUrl, logger: quietLogger });
}

/** What a failed SDK call throws: an AxiosError with `response.status` and the Feishu body in `response.data`. */
async function failure(call: Promise<unknown>): Promise<{ status?: number; code?: unknown; errCode?: string }> {
  try {
    await call;
  } catch (error) {
    const e = error as { response?: { status: number; data?: { code?: unknown } }; code?: string };
    return { status: e.response?.status, code: e.response?.data?.code, errCode: e.code };
  }
  throw new Error('expected the SDK call to fail');
}

function sendText(client: Lark.Client, openId: string, text: string, uuid?: string) {
  return client.im.v1.message.create({
    params: { receive_id_type: 'open_id' },
    data: { receive_id: openId, msg_type: 'text', content: JSON.stringify({ text }), ...(uuid ? { uuid } : {}) },
  });
}

function sendCard(client: Lark.Client, openId: string, card: unknown) {
  return client.im.v1.message.create({
    params: { receive_id_type: 'open_id' },
    data: { receive_id: openId, msg_type: 'interactive', content: JSON.stringify(card) },
  });
}

const markdownCard = (text: string, streaming = false) => ({
  schema: '2.0',
  config: { streaming_mode: streaming, update_multi: true },
  header: { title: { tag: 'plain_text', content: 'Claude' } },
  body: { elements: [{ tag: 'markdown', element_id: 'answer', content: text }] },
});

describe('long connection, driven by the real WSClient', () => {
  it('delivers a one-frame text event flattened to the handler and records the 200 ack', async () => {
    const fake = await startFake();
    const got: Record<string, unknown>[] = [];
    await connectWsClient(fake, { 'im.message.receive_v1': (d) => void got.push(d) });
    const envelope = textMessageEvent({ openId: 'ou_owner', text: 'hello' });

    const { ack } = await fake.pushEvent(envelope);

    expect(ack).toEqual({ code: 200 });
    expect(got).toHaveLength(1);
    const data = got[0] as {
      event_id: string;
      event_type: string;
      sender: { sender_id: { open_id: string } };
      message: Record<string, string>;
    };
    expect(data.event_type).toBe('im.message.receive_v1');
    expect(data.event_id).toBe(envelope.header.event_id);
    expect(data.sender.sender_id.open_id).toBe('ou_owner');
    expect(data.message.chat_type).toBe('p2p');
    expect(JSON.parse(data.message.content ?? '')).toEqual({ text: 'hello' });
    expect(fake.acks.map((a) => [a.eventId, a.code])).toEqual([[envelope.header.event_id, 200]]);
    expect(fake.pings[0]?.service).toBe(FAKE_SERVICE_ID);
  });

  it('joins an event split into 3 fragments, even when a cut falls inside a UTF-8 character', async () => {
    const fake = await startFake();
    const got: Array<{ message: { content: string } }> = [];
    await connectWsClient(fake, { 'im.message.receive_v1': (d) => void got.push(d as never) });
    const text = '流式回复 🚀 '.repeat(40);

    const { ack } = await fake.pushEvent(textMessageEvent({ openId: 'ou_owner', text }), { fragments: 3 });

    expect(ack.code).toBe(200);
    expect(JSON.parse(got[0]?.message.content ?? '{}')).toEqual({ text });
  });

  it('carries a card.action.trigger handler value back in the ack data', async () => {
    const fake = await startFake();
    const clicks: Record<string, unknown>[] = [];
    const answer = { toast: { type: 'success', content: '已允许' } };
    await connectWsClient(fake, {
      'card.action.trigger': (d) => {
        clicks.push(d);
        return answer;
      },
    });
    const click = cardActionEvent({
      openId: 'ou_owner',
      value: { action: 'allow', prompt: 'p1' },
      messageId: 'om_card1',
    });

    const { ack } = await fake.pushEvent(click);

    expect(ack).toEqual({ code: 200, data: answer });
    expect(fake.acks.at(-1)?.data).toEqual(answer);
    const data = clicks[0] as {
      event_type: string;
      operator: { open_id: string };
      action: { value: unknown; tag: string };
      context: { open_message_id: string; open_chat_id: string };
      token: string;
    };
    expect(data.event_type).toBe('card.action.trigger');
    expect(data.operator.open_id).toBe('ou_owner');
    expect(data.action).toMatchObject({ value: { action: 'allow', prompt: 'p1' }, tag: 'button' });
    expect(data.context.open_message_id).toBe('om_card1');
    expect(data.context.open_chat_id).toMatch(/^oc_/);
    expect(data.token).toMatch(/^c-/);
  });

  it('acks an event type nobody registered with 200 and a "no handle" string', async () => {
    const fake = await startFake();
    await connectWsClient(fake, { 'im.message.receive_v1': () => undefined }, { quiet: true });
    const { ack } = await fake.pushEvent(cardActionEvent({ openId: 'ou_owner', value: {} }));
    expect(ack).toEqual({ code: 200, data: 'no card.action.trigger event handle' });
  });

  it('acks a slow handler only after it settles, while later events are acked meanwhile', async () => {
    const fake = await startFake();
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let entered!: () => void;
    const slowEntered = new Promise<void>((resolve) => (entered = resolve));
    await connectWsClient(fake, {
      'im.message.receive_v1': async (d) => {
        const content = (d as { message: { content: string } }).message.content;
        if (content.includes('slow')) {
          entered();
          await gate;
        }
      },
    });
    const slow = textMessageEvent({ openId: 'ou_owner', text: 'slow' });
    let slowAcked = false;
    const slowPush = fake.pushEvent(slow).then((r) => {
      slowAcked = true;
      return r;
    });
    await Promise.race([slowEntered, slowPush]);

    await fake.pushEvent(textMessageEvent({ openId: 'ou_owner', text: 'fast' }));
    expect(slowAcked).toBe(false);
    expect(fake.acks.some((a) => a.eventId === slow.header.event_id)).toBe(false);

    release();
    expect((await slowPush).ack.code).toBe(200);
    expect(fake.acks.map((a) => a.eventId).at(-1)).toBe(slow.header.event_id);
  });

  it('delivers image, post and file messages with the content Feishu sends', async () => {
    const fake = await startFake();
    const got: Array<{ message_type: string; content: unknown }> = [];
    await connectWsClient(fake, {
      'im.message.receive_v1': (d) => {
        const m = (d as { message: { message_type: string; content: string } }).message;
        got.push({ message_type: m.message_type, content: JSON.parse(m.content) });
      },
    });

    await fake.pushEvent(imageMessageEvent({ openId: 'ou_owner', imageKey: 'img_v2_1' }));
    await fake.pushEvent(
      postMessageEvent({
        openId: 'ou_owner',
        title: 'T',
        paragraphs: [
          [
            { tag: 'text', text: 'look ' },
            { tag: 'img', image_key: 'img_v2_2' },
          ],
        ],
      }),
    );
    await fake.pushEvent(fileMessageEvent({ openId: 'ou_owner', fileKey: 'file_v2_1', fileName: 'a.pdf' }));

    expect(got).toEqual([
      { message_type: 'image', content: { image_key: 'img_v2_1' } },
      {
        message_type: 'post',
        content: {
          title: 'T',
          content: [
            [
              { tag: 'text', text: 'look ' },
              { tag: 'img', image_key: 'img_v2_2' },
            ],
          ],
        },
      },
      { message_type: 'file', content: { file_key: 'file_v2_1', file_name: 'a.pdf' } },
    ]);
  });

  it('acks 500 when the handler throws', async () => {
    const fake = await startFake();
    await connectWsClient(
      fake,
      {
        'im.message.receive_v1': () => {
          throw new Error('boom');
        },
      },
      { quiet: true },
    );
    const { ack } = await fake.pushEvent(textMessageEvent({ openId: 'ou_owner', text: 'x' }));
    expect(ack.code).toBe(500);
  });

  it('re-pushes an event with the same event_id and message_id', async () => {
    const fake = await startFake();
    const seen: Array<[string, string]> = [];
    await connectWsClient(fake, {
      'im.message.receive_v1': (d) => {
        const data = d as { event_id: string; message: { message_id: string } };
        seen.push([data.event_id, data.message.message_id]);
      },
    });
    const envelope = textMessageEvent({ openId: 'ou_owner', text: 'once', messageId: 'om_fixed' });
    await fake.pushEvent(envelope, { eventId: 'ev_fixed' });

    await fake.repush('ev_fixed', { fragments: 2 });

    expect(seen).toEqual([
      ['ev_fixed', 'om_fixed'],
      ['ev_fixed', 'om_fixed'],
    ]);
    await expect(fake.repush('ev_unknown')).rejects.toThrow(/no event/);
  });

  it('lets the SDK reconnect after dropConnection and delivers on the new socket', async () => {
    const fake = await startFake();
    const texts: string[] = [];
    await connectWsClient(fake, {
      'im.message.receive_v1': (d) => void texts.push((d as { message: { content: string } }).message.content),
    });
    expect(fake.connectionsOpened).toBe(1);

    await fake.dropConnection();
    await fake.waitFor(() => fake.connectionCount === 1 && fake.connectionsOpened === 2);
    await fake.pushEvent(textMessageEvent({ openId: 'ou_owner', text: 'after' }));

    expect(texts).toEqual([JSON.stringify({ text: 'after' })]);
    expect(fake.requests.filter((r) => r.path === '/callback/ws/endpoint')).toHaveLength(2);
  });

  it('pings at the PingInterval the endpoint handed out', async () => {
    const fake = await startFake({ pingIntervalS: 1 });
    await connectWsClient(fake, { 'im.message.receive_v1': () => undefined });
    await fake.waitFor(() => fake.pings.length >= 2, 5000);
    expect(fake.pings.every((p) => p.service === FAKE_SERVICE_ID)).toBe(true);
  });

  it('refuses the endpoint for a wrong secret, which the SDK treats as fatal', async () => {
    const fake = await startFake();
    const errors: Error[] = [];
    await connectWsClient(fake, {}, { appSecret: 'wrong', onError: (e) => errors.push(e), wait: false, quiet: true });
    await fake.waitFor(() => errors.length === 1);
    expect(errors[0]?.message).toMatch(/code=514/);
    expect(fake.connectionCount).toBe(0);
  });

  it('rejects a push when no client connects within the ack timeout', async () => {
    const fake = await startFake();
    await expect(fake.pushEvent(textMessageEvent({ openId: 'ou_x', text: 'x' }), { ackTimeoutMs: 50 })).rejects.toThrow(
      /no long connection/,
    );
  });
});

describe('REST, driven by the real Client', () => {
  it('creates a text message, fetching the tenant token once per app', async () => {
    const fake = await startFake();
    const appId = newAppId();
    const client = new Lark.Client({ appId, appSecret: fake.appSecret, domain: fake.baseUrl, logger: quietLogger });

    const first = await sendText(client, 'ou_owner', 'one');
    await sendText(client, 'ou_owner', 'two');
    await sendText(client, 'ou_other', 'three');

    expect(first.code).toBe(0);
    expect(first.data?.message_id).toMatch(/^om_/);
    expect(first.data?.sender?.id).toBe(appId);
    expect(fake.tokenRequests).toHaveLength(1);
    expect(fake.messagesTo('ou_owner').map((m) => fake.textOf(m))).toEqual(['one', 'two']);
    expect(fake.sent[0]).toMatchObject({
      kind: 'create',
      msg_type: 'text',
      receive_id: 'ou_owner',
      content: { text: 'one' },
    });
  });

  it('replies to a message the user sent over the long connection', async () => {
    const fake = await startFake();
    await connectWsClient(fake, { 'im.message.receive_v1': () => undefined });
    const client = restClient(fake);
    await fake.pushEvent(textMessageEvent({ openId: 'ou_owner', text: 'hi', messageId: 'om_user1' }));

    const res = await client.im.v1.message.reply({
      path: { message_id: 'om_user1' },
      data: { msg_type: 'text', content: JSON.stringify({ text: 'hello back' }), uuid: 'reply-1' },
    });

    expect(res.data?.parent_id).toBe('om_user1');
    expect(fake.messagesTo('ou_owner')).toMatchObject([{ kind: 'reply', parent_id: 'om_user1', uuid: 'reply-1' }]);
    const unknown = await failure(
      client.im.v1.message.reply({
        path: { message_id: 'om_nope' },
        data: { msg_type: 'text', content: '{"text":"x"}' },
      }),
    );
    expect(unknown).toMatchObject({ status: 400, code: 230001 });
  });

  it('de-duplicates create and reply on uuid', async () => {
    const fake = await startFake();
    const client = restClient(fake);

    const a = await sendText(client, 'ou_owner', 'chunk 1', 'uuid-1');
    const b = await sendText(client, 'ou_owner', 'chunk 1', 'uuid-1');
    const c = await sendText(client, 'ou_owner', 'chunk 2', 'uuid-2');

    expect(b.data?.message_id).toBe(a.data?.message_id);
    expect(c.data?.message_id).not.toBe(a.data?.message_id);
    expect(fake.sent.map((m) => m.uuid)).toEqual(['uuid-1', 'uuid-2']);
  });

  it('patches a card and limits it to 5 updates per second per message', async () => {
    let now = 1_000_000;
    const fake = await startFake({ clock: () => now });
    const client = restClient(fake);
    const created = await sendCard(client, 'ou_owner', markdownCard('thinking…'));
    const messageId = created.data?.message_id ?? '';
    const patch = (text: string) =>
      client.im.v1.message.patch({
        path: { message_id: messageId },
        data: { content: JSON.stringify(markdownCard(text)) },
      });

    for (let i = 1; i <= 5; i++) await patch(`part ${i}`);
    const limited = await failure(patch('too fast'));
    now += 1000;
    await patch('later');

    expect(limited).toMatchObject({ status: 429, code: 99991400 });
    expect(fake.patches).toHaveLength(6);
    expect(fake.textOf(messageId)).toBe('Claude\nlater');
  });

  it('refuses a card over 30 KB with code 230025', async () => {
    const fake = await startFake();
    const client = restClient(fake);
    const big = markdownCard('x'.repeat(31 * 1024));
    expect(await failure(sendCard(client, 'ou_owner', big))).toMatchObject({ status: 400, code: 230025 });
    expect(fake.sent).toHaveLength(0);
  });

  it('injects HTTP faults the SDK surfaces as AxiosErrors', async () => {
    const fake = await startFake();
    const client = restClient(fake);
    await sendText(client, 'ou_owner', 'warm up the token');
    fake.failNext({ method: 'POST', pathPrefix: '/open-apis/im/v1/messages' }, { status: 429, code: 99991400 });
    fake.failNext({ pathPrefix: '/open-apis/im' }, { status: 502, times: 2 });

    const limited = await failure(sendText(client, 'ou_owner', 'a', 'same-uuid'));
    const bad1 = await failure(sendText(client, 'ou_owner', 'a', 'same-uuid'));
    const bad2 = await failure(sendText(client, 'ou_owner', 'a', 'same-uuid'));
    const ok = await sendText(client, 'ou_owner', 'a', 'same-uuid');

    expect(limited).toMatchObject({ status: 429, code: 99991400, errCode: 'ERR_BAD_REQUEST' });
    expect([bad1.status, bad2.status]).toEqual([502, 502]);
    expect(bad1.errCode).toBe('ERR_BAD_RESPONSE');
    expect(ok.code).toBe(0);
    expect(fake.sent.filter((m) => m.uuid === 'same-uuid')).toHaveLength(1);
    expect(fake.requests.slice(-4).map((r) => r.status)).toEqual([429, 502, 502, 200]);
  });

  it('injects a connection reset (no response) and a delay', async () => {
    const fake = await startFake();
    const client = restClient(fake);
    await sendText(client, 'ou_owner', 'warm up the token');
    fake.failNext({ method: 'POST' }, { resetConnection: true });

    const reset = await failure(sendText(client, 'ou_owner', 'lost'));
    expect(reset.status).toBeUndefined();
    expect(reset.errCode).toBe('ECONNRESET');
    expect(fake.requests.at(-1)?.status).toBe(0);

    const parent = (await sendText(client, 'ou_owner', 'parent')).data?.message_id ?? '';
    fake.failNext({ pathPrefix: `/open-apis/im/v1/messages/${parent}/reply` }, { delayMs: 2000 });
    const order: string[] = [];
    const slow = client.im.v1.message
      .reply({ path: { message_id: parent }, data: { msg_type: 'text', content: '{"text":"slow"}' } })
      .then(() => order.push('slow'));
    await sendText(client, 'ou_owner', 'fast').then(() => order.push('fast'));
    await slow;
    expect(order).toEqual(['fast', 'slow']);
    expect(fake.textOf(fake.sent.at(-1) ?? '')).toBe('slow');
  });

  it('serves resource bytes registered with addImage', async () => {
    const fake = await startFake();
    const client = restClient(fake);
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]);
    fake.addImage('om_img', 'img_v2_key', png);

    const res = await client.im.v1.messageResource.get({
      path: { message_id: 'om_img', file_key: 'img_v2_key' },
      params: { type: 'image' },
    });
    const chunks: Buffer[] = [];
    for await (const chunk of res.getReadableStream() as Readable) chunks.push(chunk as Buffer);

    expect(Buffer.concat(chunks)).toEqual(png);
    const missing = await failure(
      client.im.v1.messageResource.get({ path: { message_id: 'om_img', file_key: 'nope' }, params: { type: 'image' } }),
    );
    expect(missing.status).toBe(400);
  });

  it('streams a CardKit card: create, send by card_id, content, settings, full update', async () => {
    const fake = await startFake();
    const client = restClient(fake);
    const created = await client.cardkit.v1.card.create({
      data: { type: 'card_json', data: JSON.stringify(markdownCard('', true)) },
    });
    const cardId = created.data?.card_id ?? '';
    const msg = await client.im.v1.message.create({
      params: { receive_id_type: 'open_id' },
      data: {
        receive_id: 'ou_owner',
        msg_type: 'interactive',
        content: JSON.stringify({ type: 'card', data: { card_id: cardId } }),
      },
    });
    const messageId = msg.data?.message_id ?? '';
    const put = (content: string, sequence: number) =>
      client.cardkit.v1.cardElement.content({
        path: { card_id: cardId, element_id: 'answer' },
        data: { content, sequence },
      });

    await put('Hel', 1);
    await put('Hello wor', 2);
    await put('Hello world', 3);
    expect(fake.textOf(messageId)).toBe('Claude\nHello world');
    await client.cardkit.v1.card.settings({
      path: { card_id: cardId },
      data: { settings: JSON.stringify({ config: { streaming_mode: false } }), sequence: 4 },
    });
    await client.cardkit.v1.card.update({
      path: { card_id: cardId },
      data: { card: { type: 'card_json', data: JSON.stringify(markdownCard('Hello world\n\n— 1.2 s')) }, sequence: 5 },
    });

    expect(fake.textOf(messageId)).toBe('Claude\nHello world\n\n— 1.2 s');
    expect(fake.cardkit.map((o) => [o.op, o.sequence])).toEqual([
      ['create', undefined],
      ['content', 1],
      ['content', 2],
      ['content', 3],
      ['settings', 4],
      ['update', 5],
    ]);
    expect(await failure(put('late', 6))).toMatchObject({ status: 400, code: 300309 });
    const again = await failure(
      client.im.v1.message.create({
        params: { receive_id_type: 'open_id' },
        data: {
          receive_id: 'ou_owner',
          msg_type: 'interactive',
          content: JSON.stringify({ type: 'card', data: { card_id: cardId } }),
        },
      }),
    );
    expect(again).toMatchObject({ status: 400, code: 230099 });
  });

  it('requires a strictly increasing CardKit sequence and at most 10 operations per second per card', async () => {
    let now = 5_000_000;
    const fake = await startFake({ clock: () => now });
    const client = restClient(fake);
    const created = await client.cardkit.v1.card.create({
      data: { type: 'card_json', data: JSON.stringify(markdownCard('', true)) },
    });
    const cardId = created.data?.card_id ?? '';
    const put = (content: string, sequence: number) =>
      client.cardkit.v1.cardElement.content({
        path: { card_id: cardId, element_id: 'answer' },
        data: { content, sequence },
      });

    await put('a', 5);
    expect(await failure(put('b', 5))).toMatchObject({ status: 400, code: 300317 });
    expect(await failure(put('b', 4))).toMatchObject({ status: 400, code: 300317 });
    now += 1000;
    for (let s = 6; s < 16; s++) await put(`t${s}`, s);
    const limited = await failure(put('over', 16));
    now += 1000;
    await put('ok again', 16);

    expect(limited).toMatchObject({ status: 429, code: 99991400 });
    expect(fake.cardkit.filter((o) => o.op === 'content').map((o) => o.sequence)).toEqual([
      5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16,
    ]);
  });

  it('requires a valid tenant token on every Open API call', async () => {
    const fake = await startFake();
    const url = `${fake.baseUrl}/open-apis/im/v1/messages?receive_id_type=open_id`;
    const body = JSON.stringify({ receive_id: 'ou_x', msg_type: 'text', content: '{"text":"x"}' });
    const headers = { 'content-type': 'application/json' };

    const missing = await fetch(url, { method: 'POST', headers, body });
    const invalid = await fetch(url, {
      method: 'POST',
      headers: { ...headers, authorization: 'Bearer t-forged' },
      body,
    });

    expect(await missing.json()).toMatchObject({ code: 99991661 });
    expect(await invalid.json()).toMatchObject({ code: 99991663 });
    expect(fake.sent).toHaveLength(0);
  });

  it('shows the SDK keeps its cached token after 99991663 unless the caller clears its own cache', async () => {
    const fake = await startFake();
    const store = new Map<string, unknown>();
    const cache: Lark.Cache = {
      get: async (key, options) => store.get(`${options?.namespace}/${String(key)}`),
      set: async (key, value, _expire, options) => {
        store.set(`${options?.namespace}/${String(key)}`, value);
        return true;
      },
    };
    const client = new Lark.Client({
      appId: newAppId(),
      appSecret: fake.appSecret,
      domain: fake.baseUrl,
      logger: quietLogger,
      cache,
    });
    await sendText(client, 'ou_owner', 'one');
    fake.failNext({ pathPrefix: '/open-apis/im' }, { status: 400, code: 99991663 });

    expect(await failure(sendText(client, 'ou_owner', 'two'))).toMatchObject({ status: 400, code: 99991663 });
    await sendText(client, 'ou_owner', 'three');
    expect(fake.tokenRequests).toHaveLength(1);

    store.clear();
    await sendText(client, 'ou_owner', 'four');
    expect(fake.tokenRequests).toHaveLength(2);
  });

  it('rejects a wrong app secret at the token endpoint, so the SDK call throws', async () => {
    const fake = await startFake();
    const client = restClient(fake, 'wrong-secret');
    expect(await failure(sendText(client, 'ou_owner', 'x'))).toMatchObject({ status: 400, code: 10014 });
    expect(fake.tokenRequests.map((t) => t.ok)).toEqual([false]);
    expect(fake.sent).toHaveLength(0);
  });

  it('waitFor rejects once its timeout passes', async () => {
    const fake = await startFake();
    await expect(fake.waitFor(() => false, 30)).rejects.toThrow(/timed out/);
  });
});
