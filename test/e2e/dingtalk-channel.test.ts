import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { CardReply } from '../../src/bridge/reply-model.js';
import { DingTalkHarness, OWNER_STAFF_ID, until } from './dingtalk-harness.js';
import { RecordingBridge } from './feishu-harness.js';

let h: DingTalkHarness;
afterEach(async () => {
  await h.cleanup();
});

const target = { channel: 'dingtalk', userId: OWNER_STAFF_ID, chatId: `cid-${OWNER_STAFF_ID}` };
const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');

describe('DingTalk channel inbound (real dingtalk-stream against the fake)', () => {
  it('turns a single-chat text into an InboundMessage and acks the CALLBACK only after accept()', async () => {
    h = new DingTalkHarness();
    const fake = await h.fake();
    const bridge = new RecordingBridge();
    let open!: () => void;
    bridge.gate = new Promise<void>((r) => (open = r));
    const { channel } = await h.channel(fake, {}, bridge);
    await until(() => channel.status().connected, 'the Stream socket');
    expect(channel.status()).toEqual({ connected: true, detail: 'connected' });
    const data = fake.robotMessage(OWNER_STAFF_ID, '/status');
    const push = fake.push(data);
    await until(() => bridge.accepted.length === 1, 'accept');
    expect(bridge.accepted[0]).toMatchObject({
      id: `dingtalk:${String(data.msgId)}`,
      channel: 'dingtalk',
      platformMessageId: data.msgId,
      userId: OWNER_STAFF_ID,
      chatId: `cid-${OWNER_STAFF_ID}`,
      chatType: 'p2p',
      text: '/status',
      images: [],
    });
    await new Promise((r) => setTimeout(r, 100));
    expect(push.acked).toBe(false);
    open();
    await until(() => push.acked, 'the ack');
  });

  it('ignores groups (acked, never accepted) and names an unsupported type', async () => {
    h = new DingTalkHarness();
    const fake = await h.fake();
    const { bridge } = await h.channel(fake);
    await until(() => fake.connections === 1, 'the Stream socket');
    const group = fake.push(fake.robotMessage(OWNER_STAFF_ID, 'in a group', { conversationType: '2' }));
    fake.push(fake.robotMessage(OWNER_STAFF_ID, '', { msgtype: 'audio', text: undefined }));
    fake.push(fake.robotMessage(OWNER_STAFF_ID, 'last'));
    await until(() => bridge.accepted.some((m) => m.text === 'last') && group.acked, 'the last message');
    expect(bridge.accepted.map((m) => [m.text, m.unsupportedType])).toEqual([
      ['', 'audio'],
      ['last', undefined],
    ]);
  });

  it('leaves a CALLBACK unacked while accept() fails; the re-push is handled', async () => {
    h = new DingTalkHarness();
    const fake = await h.fake({ ackTimeoutMs: 150 });
    const bridge = new RecordingBridge();
    let failures = 1;
    const accept = bridge.accept.bind(bridge);
    bridge.accept = async (m) => {
      if (failures-- > 0) {
        bridge.accepted.push(m);
        throw new Error('disk full');
      }
      return accept(m);
    };
    await h.channel(fake, {}, bridge);
    await until(() => fake.connections === 1, 'the Stream socket');
    const push = fake.push(fake.robotMessage(OWNER_STAFF_ID, 'keep me'));
    await until(() => push.acked, 'the ack after the re-push');
    expect(push.pushes).toBe(2);
    expect(new Set(bridge.accepted.map((m) => m.id)).size).toBe(1);
  });

  it('shows refused credentials in status, retries, and never writes the secret anywhere', async () => {
    h = new DingTalkHarness();
    const fake = await h.fake();
    const wrong = 'wrong-dingtalk-secret-value-123456';
    const { channel } = await h.channel(fake, { clientSecret: wrong });
    await until(() => fake.gatewayCalls.length >= 2, 'a retry');
    expect(channel.status()).toEqual({ connected: false, detail: 'error: client id / secret refused by DingTalk' });
    const all = h.logs.join('') + JSON.stringify(channel.status());
    expect(all).toContain('dingtalk state');
    expect(all).not.toContain(wrong);
  });

  it('downloads a picture by its downloadCode (0600, size-capped, an image by its bytes)', async () => {
    h = new DingTalkHarness();
    const fake = await h.fake();
    const { channel, bridge, options } = await h.channel(fake);
    await until(() => fake.connections === 1, 'the Stream socket');
    fake.addFile('code-ok', PNG);
    fake.addFile('code-html', Buffer.from('<html>not a picture</html>'), 'image/png');
    fake.push(fake.robotMessage(OWNER_STAFF_ID, '', { msgtype: 'picture', content: { downloadCode: 'code-ok' } }));
    fake.push(
      fake.robotMessage(OWNER_STAFF_ID, '', {
        msgtype: 'richText',
        content: { richText: [{ text: 'look' }, { type: 'picture', downloadCode: 'code-html' }] },
      }),
    );
    await until(() => bridge.accepted.length === 2, 'both messages');
    const [one, two] = await Promise.all(bridge.accepted.map((m) => channel.prepare(m)));
    const saved = one?.images[0]?.localPath ?? '';
    expect(await readFile(saved)).toEqual(PNG);
    expect((await stat(saved)).mode & 0o777).toBe(0o600);
    expect(two?.images[0]?.localPath).toBeUndefined();
    expect(two?.text).toBe('look\n[Image 1 could not be downloaded: download error]');
    expect((await readdir(options.imagesDir)).length).toBe(1);
    const small = await channel.prepare({ ...one!, images: [{ key: 'code-ok' }] });
    expect(small.images[0]?.localPath).toBeDefined();
    const capped = await (
      await h.channel(fake, { images: { ...options.images, max_size_bytes: 8 } })
    ).channel.prepare({ ...one!, images: [{ key: 'code-ok' }], text: '' });
    expect(capped.text).toBe('[Image 1 could not be downloaded: larger than the 8 B limit]');
  });
});

describe('DingTalk channel outbound', () => {
  it('sends markdown once per key (429 retried), splits nothing itself, escapes plain text', async () => {
    h = new DingTalkHarness();
    const fake = await h.fake();
    const { channel } = await h.channel(fake);
    fake.failNext(429, 1);
    const a = await channel.outbox.send(target, { kind: 'text', text: '**bold** <b>x</b>' }, 'k1');
    const b = await channel.outbox.send(target, { kind: 'text', text: 'again' }, 'k1');
    expect(b).toEqual(a);
    const card: CardReply = {
      kind: 'card',
      title: 'Files',
      status: 'info',
      sections: [{ type: 'plain', text: '[link](http://evil) *x*' }],
      footer: '1.2s',
    };
    await channel.outbox.send(target, card, 'k2');
    expect(fake.messagesTo(OWNER_STAFF_ID).map((m) => [m.msgKey, m.text])).toEqual([
      ['sampleMarkdown', '**bold** &lt;b>x&lt;/b>'],
      ['sampleMarkdown', '### Files\n\n\\[link\\]\\(http://evil\\) \\*x\\*\n\n*1.2s*'],
    ]);
  });

  it('streams as an opening message then the final card once, the rest as overflow', async () => {
    h = new DingTalkHarness();
    const fake = await h.fake();
    const { channel } = await h.channel(fake);
    const stream = await channel.outbox.openStream(target, 'turn-1');
    stream.update({ phase: 'streaming', text: 'partial', thinking: '', toolCount: 0, elapsedMs: 10 });
    const long = 'word '.repeat(2_000).trim();
    const final: CardReply = {
      kind: 'card',
      title: 'Done',
      status: 'complete',
      sections: [{ type: 'answer', text: long }],
      footer: 'cost',
    };
    const { overflow } = await stream.finish(final, long);
    const sent = fake.messagesTo(OWNER_STAFF_ID);
    expect(sent.map((m) => m.text.slice(0, 12))).toEqual(['⏳ Working on', '### Done\n\nwo']);
    expect(sent[1]?.text).toContain('continued in the next messages');
    const shown = sent[1]!.text.split('\n\n')[1]!;
    expect(shown + overflow.length).toBeTruthy();
    expect(long.startsWith(shown)).toBe(true);
    expect(`${shown}${long.slice(shown.length)}`).toBe(long);
    expect(overflow).toBe(long.slice(shown.length).replace(/^\n+/, ''));
    // Re-opened after a restart: no new opening message, and the final card is not sent again.
    const again = await channel.outbox.openStream(target, 'turn-1', { existingMessageId: stream.messageId });
    await again.finish(final, long);
    expect(fake.messagesTo(OWNER_STAFF_ID)).toHaveLength(2);
  });

  it('keeps the sent ledger and offered options across a restart, in private files', async () => {
    h = new DingTalkHarness();
    const fake = await h.fake();
    const dir = await h.dir();
    const runtimeDir = path.join(dir, 'runtime');
    const first = await h.channel(fake, { runtimeDir });
    await first.channel.outbox.send(target, { kind: 'text', text: 'once' }, 'key-a');
    await first.channel.stop();
    const second = await h.channel(fake, { runtimeDir });
    await second.channel.outbox.send(target, { kind: 'text', text: 'once' }, 'key-a');
    expect(fake.messagesTo(OWNER_STAFF_ID)).toHaveLength(1);
    expect((await stat(runtimeDir)).mode & 0o777).toBe(0o700);
    expect((await stat(path.join(runtimeDir, 'dingtalk-sent.json'))).mode & 0o777).toBe(0o600);
  });
});
