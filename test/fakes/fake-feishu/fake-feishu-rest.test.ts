import type { Readable } from 'node:stream';
import * as Lark from '@larksuiteoapi/node-sdk';
import { describe, expect, it } from 'vitest';
import { textMessageEvent } from './fake-feishu-server.js';

// The SDK caches tenant tokens process-wide per app id: a fresh app id per test keeps counts honest.
import {
  connectWsClient,
  failure,
  markdownCard,
  newAppId,
  quietLogger,
  restClient,
  sendCard,
  sendText,
  startFake,
} from './fake-feishu-rig.js';

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
