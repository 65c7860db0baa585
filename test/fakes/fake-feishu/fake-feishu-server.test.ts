import { describe, expect, it } from 'vitest';
import {
  cardActionEvent,
  fileMessageEvent,
  imageMessageEvent,
  postMessageEvent,
  textMessageEvent,
} from './fake-feishu-server.js';
import { FAKE_SERVICE_ID } from './long-connection.js';

// The SDK caches tenant tokens process-wide per app id: a fresh app id per test keeps counts honest.
import { connectWsClient, startFake } from './fake-feishu-rig.js';

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
