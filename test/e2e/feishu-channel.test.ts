import { readFile, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { CardReply } from '../../src/bridge/reply-model.js';
import { createFeishuChannel } from '../../src/channels/feishu/feishu-channel.js';
import { FeishuApiError } from '../../src/channels/feishu/feishu-api-error.js';
import {
  cardActionEvent,
  imageMessageEvent,
  messageEvent,
  postMessageEvent,
  textMessageEvent,
} from '../fakes/fake-feishu/fake-feishu-server.js';
import { FeishuHarness, OWNER, ownerTarget as target, RecordingBridge } from './feishu-harness.js';

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(200, 7)]);

let h: FeishuHarness;
afterEach(async () => {
  await h.cleanup();
});

describe('Feishu channel inbound (real SDK over the fake long connection)', () => {
  it('converts a private text message, strips mention keys and acks once accept() has returned', async () => {
    h = new FeishuHarness();
    const fake = await h.fake();
    const { bridge } = await h.channel(fake);
    const event = textMessageEvent({
      openId: OWNER,
      text: '@_user_1 帮我看看 README',
      mentions: [{ key: '@_user_1', id: { open_id: 'ou_bot' }, name: 'bot' }],
    });

    const { ack } = await fake.pushEvent(event);

    expect(ack.code).toBe(200);
    expect(bridge.accepted).toHaveLength(1);
    const m = bridge.accepted[0];
    const messageId = (event.event.message as { message_id: string }).message_id;
    expect(m).toMatchObject({
      id: `feishu:${messageId}`,
      channel: 'feishu',
      platformMessageId: messageId,
      userId: OWNER,
      chatType: 'p2p',
      text: '帮我看看 README',
      images: [],
    });
    expect(m?.chatId).toMatch(/^oc_/);
    expect(Number.isNaN(Date.parse(m?.receivedAt ?? ''))).toBe(false);
  });

  it('turns a post into its text (title, links, mentions) and its image keys', async () => {
    h = new FeishuHarness();
    const fake = await h.fake();
    const { bridge } = await h.channel(fake);
    await fake.pushEvent(
      postMessageEvent({
        openId: OWNER,
        title: '报错',
        paragraphs: [
          [
            { tag: 'text', text: '看下 ' },
            { tag: 'a', text: '日志', href: 'https://example.com/log' },
          ],
          [{ tag: 'img', image_key: 'img_v3_post1' }],
          [
            { tag: 'at', user_id: 'ou_x', user_name: '张三' },
            { tag: 'text', text: ' 也看看' },
          ],
        ],
      }),
    );
    expect(bridge.accepted[0]).toMatchObject({
      text: '报错\n看下 日志 (https://example.com/log)\n\n@张三 也看看',
      images: [{ key: 'img_v3_post1' }],
    });
  });

  it('passes an image message on with its key; prepare() downloads it 0600 with the right extension', async () => {
    h = new FeishuHarness();
    const fake = await h.fake();
    const { channel, bridge, options } = await h.channel(fake);
    const event = imageMessageEvent({ openId: OWNER, imageKey: 'img_v3_abc' });
    const messageId = (event.event.message as { message_id: string }).message_id;
    fake.addImage(messageId, 'img_v3_abc', PNG);

    await fake.pushEvent(event);
    const accepted = bridge.accepted[0];
    expect(accepted).toMatchObject({ text: '', images: [{ key: 'img_v3_abc' }] });
    const prepared = await channel.prepare(accepted as NonNullable<typeof accepted>);

    const file = prepared.images[0]?.localPath ?? '';
    expect(path.dirname(file)).toBe(options.imagesDir);
    expect(path.basename(file)).toBe(`${messageId}_img_v3_abc.png`);
    expect(await readFile(file)).toEqual(PNG);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await stat(options.imagesDir)).mode & 0o777).toBe(0o700);
    expect(prepared.text).toBe('');
  });

  it('keeps the message when an image is too large or missing, noting each failure in the text', async () => {
    h = new FeishuHarness();
    const fake = await h.fake();
    const { channel, bridge, options } = await h.channel(fake, {
      images: { enabled: true, max_size_bytes: 100, cleanup_max_age_hours: 24 },
    });
    const event = postMessageEvent({
      openId: OWNER,
      paragraphs: [
        [{ tag: 'text', text: '两张图' }],
        [{ tag: 'img', image_key: 'img_big' }],
        [{ tag: 'img', image_key: 'img_gone' }],
      ],
    });
    const messageId = (event.event.message as { message_id: string }).message_id;
    fake.addImage(messageId, 'img_big', PNG);

    await fake.pushEvent(event);
    const prepared = await channel.prepare(bridge.accepted[0] as NonNullable<(typeof bridge.accepted)[0]>);

    expect(prepared.images).toEqual([{ key: 'img_big' }, { key: 'img_gone' }]);
    expect(prepared.text).toBe('两张图\n[第1张图片未能下载：超过 100 B 上限]\n[第2张图片未能下载：下载出错]');
    expect(await readdir(options.imagesDir)).toEqual([]);
  });

  it('hands an unsupported type to the bridge, marked, so the bridge can answer or refuse it', async () => {
    h = new FeishuHarness();
    const fake = await h.fake();
    const { bridge } = await h.channel(fake);
    const event = messageEvent({
      openId: OWNER,
      messageType: 'media',
      content: { file_key: 'file_1', image_key: 'img_1', duration: 2000 },
    });

    await fake.pushEvent(event);
    expect(bridge.accepted).toHaveLength(1);
    expect(bridge.accepted[0]).toMatchObject({ userId: OWNER, unsupportedType: 'media', text: '', images: [] });
  });

  it('ignores group messages and empty messages without a word', async () => {
    h = new FeishuHarness();
    const fake = await h.fake();
    const { bridge } = await h.channel(fake);

    expect(
      (await fake.pushEvent(textMessageEvent({ openId: OWNER, text: 'hi all', chatType: 'group' }))).ack.code,
    ).toBe(200);
    await fake.pushEvent(
      messageEvent({ openId: OWNER, messageType: 'sticker', content: { file_key: 's' }, chatType: 'group' }),
    );
    await fake.pushEvent(textMessageEvent({ openId: OWNER, text: '@_user_1' }));

    expect(bridge.accepted).toHaveLength(0);
    expect(fake.sent).toHaveLength(0);
  });

  it('acks a slow accept() only once it returns, and hands a re-push to accept() again', async () => {
    h = new FeishuHarness();
    const fake = await h.fake();
    const bridge = new RecordingBridge();
    let release!: () => void;
    bridge.gate = new Promise<void>((resolve) => (release = resolve));
    await h.channel(fake, {}, bridge);
    const event = textMessageEvent({ openId: OWNER, text: 'slow disk' });

    const first = fake.pushEvent(event);
    await fake.waitFor(() => bridge.accepted.length === 1);
    expect(fake.acks).toHaveLength(0);
    const again = fake.repush(event.header.event_id);
    await fake.waitFor(() => bridge.accepted.length === 2);
    release();

    expect((await first).ack.code).toBe(200);
    expect((await again).ack.code).toBe(200);
    expect(bridge.accepted.map((m) => m.id)).toEqual([bridge.accepted[0]?.id, bridge.accepted[0]?.id]);
    const firstReturned = Math.min(...bridge.acceptReturnedAt);
    expect(fake.acks.every((a) => a.at >= firstReturned)).toBe(true);
  });

  it('does not ack (code 500) what the bridge refused for shutting down, so Feishu pushes it again', async () => {
    h = new FeishuHarness();
    const fake = await h.fake();
    const { bridge } = await h.channel(fake);
    bridge.acceptResult = { status: 'refused', reason: 'shutting-down' };
    const event = textMessageEvent({ openId: OWNER, text: 'during shutdown' });

    expect((await fake.pushEvent(event)).ack.code).toBe(500);
    bridge.acceptResult = { status: 'accepted' };
    expect((await fake.repush(event.header.event_id)).ack.code).toBe(200);
    expect(bridge.accepted).toHaveLength(2);
  });

  it('refuses malformed credentials at once, and rejects start() when Feishu refuses the secret', async () => {
    h = new FeishuHarness();
    const fake = await h.fake();
    const options = await h.options(fake);
    expect(() => createFeishuChannel({ ...options, appId: 'cli_short' })).toThrow(FeishuApiError);
    expect(() => createFeishuChannel({ ...options, appSecret: '' })).toThrow(FeishuApiError);

    const channel = createFeishuChannel({ ...options, appSecret: 'wrong-secret', connectTimeoutMs: 5_000 });
    const err = await channel.start(new RecordingBridge()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FeishuApiError);
    expect(channel.status().connected).toBe(false);
    expect(fake.connectionsOpened).toBe(0);
  });

  it('reports the connection, reconnects after a drop, and is disconnected after stop()', async () => {
    h = new FeishuHarness();
    const fake = await h.fake();
    const { channel, bridge } = await h.channel(fake);
    expect(channel.status()).toEqual({ connected: true, detail: 'connected' });

    await fake.dropConnection();
    await fake.waitFor(() => fake.connectionsOpened === 2, 10_000);
    await fake.pushEvent(textMessageEvent({ openId: OWNER, text: 'after reconnect' }));
    expect(bridge.accepted.map((m) => m.text)).toEqual(['after reconnect']);
    expect(channel.status().connected).toBe(true);

    await channel.stop();
    expect(channel.status().connected).toBe(false);
  });
});

describe('Feishu card buttons', () => {
  const permissionCard: CardReply = {
    kind: 'card',
    title: '🔐 需要授权',
    status: 'warning',
    sections: [{ type: 'plain', text: 'Bash: rm -rf build' }],
    buttons: [
      {
        label: '允许',
        style: 'primary',
        action: { type: 'permission', requestId: 'r1', nonce: 'n1', decision: 'allow' },
      },
      {
        label: '拒绝',
        style: 'danger',
        action: { type: 'permission', requestId: 'r1', nonce: 'n1', decision: 'deny' },
      },
    ],
  };

  it('round-trips a click: the rendered button value comes back as the action; toast and new card go in the ack', async () => {
    h = new FeishuHarness();
    const fake = await h.fake();
    const { channel, bridge } = await h.channel(fake);
    bridge.actionResult = async () => ({
      toast: { type: 'success', text: '已允许' },
      card: {
        kind: 'card',
        title: '✅ 已允许',
        status: 'complete',
        sections: [{ type: 'plain', text: 'Bash: rm -rf build' }],
      },
    });
    const { messageId } = await channel.outbox.send(target(), permissionCard, '5a0e3c1e-0000-5000-8000-000000000001');
    const sentCard = fake.sent[0]?.content as { body: { elements: Array<Record<string, unknown>> } };
    const row = sentCard.body.elements.find((e) => e.tag === 'column_set') as {
      columns: Array<{ elements: Array<{ behaviors: Array<{ type: string; value: unknown }> }> }>;
    };
    const behavior = row.columns[0]?.elements[0]?.behaviors[0];
    expect(behavior?.type).toBe('callback');

    const { ack } = await fake.pushEvent(cardActionEvent({ openId: OWNER, value: behavior?.value, messageId }));

    expect(bridge.actions).toEqual([
      {
        channel: 'feishu',
        userId: OWNER,
        messageId,
        action: { type: 'permission', requestId: 'r1', nonce: 'n1', decision: 'allow' },
      },
    ]);
    const data = ack.data as {
      toast: unknown;
      card: { type: string; data: { schema: string; header: { template: string } } };
    };
    expect(data.toast).toEqual({ type: 'success', content: '已允许' });
    expect(data.card.type).toBe('raw');
    expect(data.card.data.schema).toBe('2.0');
    expect(data.card.data.header.template).toBe('green');
  });

  it('answers a forged button value with an error toast and never bothers the bridge', async () => {
    h = new FeishuHarness();
    const fake = await h.fake();
    const { bridge } = await h.channel(fake);
    const { ack } = await fake.pushEvent(
      cardActionEvent({ openId: OWNER, value: { type: 'permission', requestId: 'r1', decision: 'allow' } }),
    );
    expect(ack.data).toEqual({ toast: { type: 'error', content: '无法识别的按钮操作' } });
    expect(bridge.actions).toHaveLength(0);
  });

  it('answers within the deadline when the bridge is slow, then updates the card when it finishes', async () => {
    h = new FeishuHarness();
    const fake = await h.fake();
    const { channel, bridge } = await h.channel(fake);
    const { messageId } = await channel.outbox.send(target(), permissionCard, '5a0e3c1e-0000-5000-8000-000000000002');
    let finish!: () => void;
    const slow = new Promise<void>((resolve) => (finish = resolve));
    bridge.actionResult = async () => {
      await slow;
      return { card: { kind: 'card', title: '已拒绝', status: 'error', sections: [] } };
    };

    const { ack } = await fake.pushEvent(
      cardActionEvent({ openId: OWNER, value: permissionCard.buttons?.[1]?.action, messageId }),
    );
    expect(ack.data).toEqual({ toast: { type: 'info', content: '正在处理…' } });
    finish();

    await fake.waitFor(() => fake.patches.length === 1);
    expect(fake.textOf(messageId)).toBe('已拒绝');
  });
});
