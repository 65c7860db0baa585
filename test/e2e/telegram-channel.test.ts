import { mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { CardReply } from '../../src/bridge/reply-model.js';
import { TelegramHarness, OWNER_ID, until } from './telegram-harness.js';

let h: TelegramHarness;
afterEach(async () => {
  await h.cleanup();
});

const target = { channel: 'telegram', userId: String(OWNER_ID), chatId: String(OWNER_ID) };

describe('Telegram channel inbound (real grammY against the fake Bot API)', () => {
  it('turns a private text into an InboundMessage and confirms the update only after accept()', async () => {
    h = new TelegramHarness();
    const fake = await h.fake();
    const { bridge, channel } = await h.channel(fake);
    const update = fake.pushMessage(OWNER_ID, '/status@cc_linker_test_bot');
    await until(() => bridge.accepted.length === 1, 'accept');
    const mid = (update.message as { message_id: number }).message_id;
    expect(bridge.accepted[0]).toMatchObject({
      id: `telegram:${OWNER_ID}:${mid}`,
      channel: 'telegram',
      platformMessageId: `${OWNER_ID}:${mid}`,
      userId: String(OWNER_ID),
      chatId: String(OWNER_ID),
      chatType: 'p2p',
      text: '/status',
      images: [],
    });
    await until(() => fake.pending() === 0, 'the offset to confirm the update');
    expect(fake.callsOf('getMe')).toHaveLength(1);
    expect(fake.callsOf('deleteWebhook')).toHaveLength(1);
    expect(channel.status()).toMatchObject({ connected: true });
  });

  it('ignores groups and bots, and names an unsupported kind for the bridge', async () => {
    h = new TelegramHarness();
    const fake = await h.fake();
    const { bridge } = await h.channel(fake);
    fake.pushMessage(-100, 'in a group', { chat: { id: -100, type: 'group', title: 'g' } });
    fake.pushMessage(77, 'from a bot', { from: { id: 77, is_bot: true, first_name: 'b' } });
    fake.pushMessage(OWNER_ID, '', { text: undefined, sticker: { file_id: 's1', emoji: '👍' } });
    fake.pushMessage(OWNER_ID, 'last');
    await until(() => bridge.accepted.some((m) => m.text === 'last'), 'the last message');
    expect(bridge.accepted.map((m) => [m.text, m.unsupportedType])).toEqual([
      ['', 'sticker'],
      ['last', undefined],
    ]);
  });

  it('leaves an update unconfirmed while accept() fails, and it is delivered again', async () => {
    h = new TelegramHarness();
    const fake = await h.fake();
    const { RecordingBridge } = await import('./feishu-harness.js');
    const bridge = new RecordingBridge();
    let failures = 2;
    const accept = bridge.accept.bind(bridge);
    bridge.accept = async (m) => {
      if (failures-- > 0) {
        bridge.accepted.push(m);
        throw new Error('disk full');
      }
      return accept(m);
    };
    await h.channel(fake, {}, bridge);
    fake.pushMessage(OWNER_ID, 'keep me');
    await until(() => bridge.accepted.length === 3 && fake.pending() === 0, 'the third delivery');
    expect(new Set(bridge.accepted.map((m) => m.id)).size).toBe(1);
  });

  it('shows a bad token as an error in status, retries, and never writes the token anywhere', async () => {
    h = new TelegramHarness();
    const fake = await h.fake();
    const wrong = '987654321:AAWrongTokenWrongToken_0123456789';
    const { channel } = await h.channel(fake, { botToken: wrong });
    await until(() => channel.status().connected === false && /refused/.test(channel.status().detail ?? ''), 'error');
    const all = h.logs.join('') + JSON.stringify(channel.status());
    expect(all).toContain('telegram call failed');
    expect(all).not.toContain(wrong);
    expect(all).not.toContain('AAWrongToken');
  });
});

describe('Telegram channel outbound', () => {
  it('streams into one message, skips unchanged edits, splits a long final answer after escaping', async () => {
    h = new TelegramHarness();
    const fake = await h.fake();
    const { channel } = await h.channel(fake);
    const stream = await channel.outbox.openStream(target, 'd1:stream');
    const base = { phase: 'streaming' as const, thinking: 'hmm <x>', toolCount: 1, elapsedMs: 2_000 };
    stream.update({ ...base, text: 'Hello **world** & <tags>' });
    await until(() => (fake.chat(OWNER_ID)[0]?.edits ?? 0) >= 1, 'an edit');
    stream.update({ ...base, text: 'Hello **world** & <tags>' });
    expect(fake.chat(OWNER_ID)[0]?.visible).toContain('Hello world & <tags>');
    const long = `${'<&>'.repeat(1000)}\n\n${'x'.repeat(3000)}`;
    const final: CardReply = {
      kind: 'card',
      title: 'Done',
      status: 'complete',
      sections: [{ type: 'answer', text: long }],
      footer: '1 turn',
    };
    const { overflow } = await stream.finish(final, long);
    const msg = fake.chat(OWNER_ID)[0];
    expect(fake.chat(OWNER_ID)).toHaveLength(1);
    expect(msg?.visible.length).toBeLessThanOrEqual(4096);
    expect(msg?.visible).toContain('continued in the next messages');
    expect(msg?.reply_markup).toBeUndefined();
    expect(overflow.length).toBeGreaterThan(0);
    expect(long.endsWith(overflow)).toBe(true);
    expect(msg?.visible).toContain('<&><&>');
    // The same state twice is one edit; a repeated update is Telegram's "not modified", ignored.
    const edits = fake.callsOf('editMessageText').length;
    await channel.outbox.update(`${OWNER_ID}:${msg?.message_id}`, final);
    await channel.outbox.update(`${OWNER_ID}:${msg?.message_id}`, final);
    expect(fake.callsOf('editMessageText').length).toBe(edits + 2);
  });

  it('sends once per delivery key and retries a 429', async () => {
    h = new TelegramHarness();
    const fake = await h.fake();
    const { channel } = await h.channel(fake);
    fake.rateLimit('sendMessage', 1, 1);
    const a = await channel.outbox.send(target, { kind: 'text', text: 'one' }, 'k1');
    const b = await channel.outbox.send(target, { kind: 'text', text: 'one' }, 'k1');
    expect(a).toEqual(b);
    expect(fake.callsOf('sendMessage')).toHaveLength(2);
    expect(fake.chat(OWNER_ID).map((m) => m.visible)).toEqual(['one']);
  });

  it('puts buttons on an inline keyboard, answers the click and removes the keyboard', async () => {
    h = new TelegramHarness();
    const fake = await h.fake();
    const { channel, bridge } = await h.channel(fake);
    const action = {
      type: 'permission' as const,
      requestId: 'r'.repeat(40),
      nonce: 'n'.repeat(40),
      decision: 'allow' as const,
    };
    const card: CardReply = {
      kind: 'card',
      title: 'Allow Bash?',
      status: 'warning',
      sections: [{ type: 'plain', text: 'rm -rf build' }],
      buttons: [
        { label: 'Allow', action },
        { label: 'Deny', action: { ...action, decision: 'deny' } },
      ],
    };
    bridge.actionResult = async () => ({
      toast: { type: 'success', text: 'Allowed' },
      card: { ...card, title: 'Allowed', buttons: [] },
    });
    await channel.outbox.send(target, card, 'perm1');
    const msg = fake.chat(OWNER_ID)[0];
    const row = msg?.reply_markup?.inline_keyboard[0] ?? [];
    expect(row.map((b) => b.text)).toEqual(['Allow', 'Deny']);
    for (const b of row) expect(Buffer.byteLength(b.callback_data ?? '')).toBeLessThanOrEqual(64);
    const click = fake.pushCallback(OWNER_ID, msg!, row[0]?.callback_data ?? '');
    await until(() => msg?.reply_markup === undefined, 'the keyboard removed');
    expect(bridge.actions[0]).toMatchObject({
      channel: 'telegram',
      userId: String(OWNER_ID),
      action,
      messageId: `${OWNER_ID}:${msg?.message_id}`,
    });
    expect(fake.answers.get(click.callback_query.id)).toBe('Allowed');
    expect(msg?.visible).toContain('Allowed');
    const forged = fake.pushCallback(OWNER_ID, msg!, 'a:forged');
    await until(() => fake.answers.has(forged.callback_query.id), 'the forged click answered');
    expect(fake.answers.get(forged.callback_query.id)).toBe('This button has expired');
    expect(bridge.actions).toHaveLength(1);
  });
});

describe('Telegram photos in', () => {
  it('downloads the largest size into the images folder (0600), and names a photo over the cap instead', async () => {
    h = new TelegramHarness();
    const fake = await h.fake();
    const jpeg = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff]), Buffer.alloc(500, 1)]);
    fake.files.set('photos/big.jpg', jpeg);
    fake.files.set('photos/huge.jpg', Buffer.alloc(5_000, 2));
    const { channel, bridge, options } = await h.channel(fake, {
      images: { enabled: true, max_size_bytes: 1_000, cleanup_max_age_hours: 24 },
    });
    fake.pushMessage(OWNER_ID, '', {
      text: undefined,
      caption: 'what is this?',
      photo: [{ file_id: 'small' }, { file_id: 'photos/big.jpg' }],
    });
    fake.pushMessage(OWNER_ID, '', { text: undefined, photo: [{ file_id: 'photos/huge.jpg' }] });
    await until(() => bridge.accepted.length === 2, 'both photos');
    const ok = await channel.prepare(bridge.accepted[0]!);
    const local = ok.images[0]?.localPath ?? '';
    expect(local.startsWith(options.imagesDir)).toBe(true);
    expect(await readFile(local)).toEqual(jpeg);
    expect((await stat(local)).mode & 0o777).toBe(0o600);
    expect(ok.text).toBe('what is this?');
    const big = await channel.prepare(bridge.accepted[1]!);
    expect(big.images).toEqual([{ key: 'photos/huge.jpg' }]);
    expect(big.text).toContain('larger than the 1000 B limit');
    expect(await readdir(options.imagesDir)).toHaveLength(1);
    expect(h.logs.join('')).not.toContain(fake.token);
  });
});

describe('Telegram files out', () => {
  it('sends an image as a photo and anything else as a document, once per key, the caption after it', async () => {
    h = new TelegramHarness();
    const fake = await h.fake();
    const { channel, options } = await h.channel(fake);
    const dir = options.imagesDir;
    await mkdir(dir, { recursive: true });
    const png = path.join(dir, 'chart.png');
    const pdf = path.join(dir, 'report.pdf');
    await writeFile(png, Buffer.concat([Buffer.from('\x89PNG\r\n\x1a\n', 'binary'), Buffer.alloc(300, 3)]));
    await writeFile(pdf, Buffer.from('%PDF-1.4 test'));
    const base = { kind: 'file' as const, size: 0 };
    const photo = await channel.outbox.sendFile!(
      target,
      { ...base, path: png, name: 'chart.png', mime: 'image/png', image: true, caption: 'the **chart**' },
      'f1',
    );
    await channel.outbox.sendFile!(
      target,
      { ...base, path: png, name: 'chart.png', mime: 'image/png', image: true, caption: 'the **chart**' },
      'f1',
    );
    await channel.outbox.sendFile!(
      target,
      { ...base, path: pdf, name: 'report.pdf', mime: 'application/pdf', image: false },
      'f2',
    );
    const chat = fake.chat(OWNER_ID);
    expect(chat.map((m) => m.file?.kind ?? m.visible)).toEqual(['photo', 'the chart', 'document']);
    expect(photo.messageId).toBe(`${OWNER_ID}:${chat[0]?.message_id}`);
    expect(chat[1]?.reply_to).toBe(chat[0]?.message_id);
    expect(chat[2]?.file?.name).toBe('report.pdf');
    expect(chat[2]?.file?.bytes.toString()).toBe('%PDF-1.4 test');
    const empty = path.join(dir, 'empty.txt');
    await writeFile(empty, '');
    await expect(
      channel.outbox.sendFile!(
        target,
        { ...base, path: empty, name: 'empty.txt', mime: 'text/plain', image: false },
        'f3',
      ),
    ).rejects.toThrow(/not accepted/);
    expect(fake.chat(OWNER_ID)).toHaveLength(3);
  });
});

describe('Telegram across a restart', () => {
  it('a button sent before a restart still works after it, and a delivery key sent before is not sent again', async () => {
    h = new TelegramHarness();
    const fake = await h.fake();
    const options = await h.options(fake);
    const { createTelegramChannel } = await import('../../src/channels/telegram/telegram-channel.js');
    const { RecordingBridge } = await import('./feishu-harness.js');
    const first = createTelegramChannel(options);
    const action = { type: 'stop' as const, messageId: 'telegram:1:1', nonce: 'n1' };
    const card: CardReply = {
      kind: 'card',
      title: 'Working',
      status: 'processing',
      sections: [],
      buttons: [{ label: 'Stop', action }],
    };
    await first.outbox.send(target, card, 'restart-key');
    await first.stop();
    // Both ledgers are private: 0600 files in a 0700 folder.
    const runtime = options.runtimeDir ?? '';
    expect((await stat(runtime)).mode & 0o777).toBe(0o700);
    for (const f of ['telegram-buttons.json', 'telegram-sent.json'])
      expect((await stat(path.join(runtime, f))).mode & 0o777).toBe(0o600);

    const bridge = new RecordingBridge();
    const second = createTelegramChannel(options);
    await second.start(bridge);
    try {
      await second.outbox.send(target, card, 'restart-key');
      expect(fake.chat(OWNER_ID)).toHaveLength(1);
      const msg = fake.chat(OWNER_ID)[0]!;
      fake.pushCallback(OWNER_ID, msg, msg.reply_markup?.inline_keyboard[0]?.[0]?.callback_data ?? '');
      await until(() => bridge.actions.length === 1, 'the click after the restart');
      expect(bridge.actions[0]?.action).toEqual(action);
      // A notification replies to the card, once per key.
      await second.notify(target, `${OWNER_ID}:${msg.message_id}`, '✅ done: x', 'n-key');
      await second.notify(target, `${OWNER_ID}:${msg.message_id}`, '✅ done: x', 'n-key');
      expect(
        fake
          .chat(OWNER_ID)
          .filter((m) => m.reply_to === msg.message_id)
          .map((m) => m.visible),
      ).toEqual(['✅ done: x']);
    } finally {
      await second.stop();
    }
  });
});
