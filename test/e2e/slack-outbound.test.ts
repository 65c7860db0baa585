import { readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { CardReply } from '../../src/bridge/reply-model.js';
import { createSlackChannel } from '../../src/channels/slack/slack-channel.js';
import { MAX_SECTION_TEXT } from '../fakes/fake-slack/slack-blocks.js';
import { OWNER, SlackHarness, STRANGER } from './slack-harness.js';
import { until } from './telegram-harness.js';

let h: SlackHarness;
afterEach(async () => {
  await h.cleanup();
});

const target = (dm: string) => ({ channel: 'slack', userId: OWNER, chatId: dm });
const sectionsOf = (blocks: unknown[] | undefined) =>
  (blocks ?? []).map((b) => (b as { text?: { text?: string } }).text?.text ?? '');

describe('Slack channel outbound (real Web API client against the fake Slack)', () => {
  it('streams into one message, then splits a long answer by the rendered size, every block within limits', async () => {
    h = new SlackHarness();
    const fake = await h.fake();
    const { channel } = await h.channel(fake);
    const dm = fake.dm(OWNER);
    const stream = await channel.outbox.openStream(target(dm), 'k-stream');
    const base = { phase: 'streaming' as const, thinking: 'hmm <x>', toolCount: 1, elapsedMs: 2_000 };
    stream.update({ ...base, text: 'part one &' });
    await until(() => fake.inChannel(dm)[0]?.visible.includes('part one &') === true, 'the streamed text');
    const long = `${'a & b < c > d\n'.repeat(1_500)}END`;
    stream.update({ ...base, text: long });
    await until(() => fake.inChannel(dm)[0]?.visible.includes('the rest follows') === true, 'the capped stream');
    const final: CardReply = {
      kind: 'card',
      title: '✅ Done',
      status: 'complete',
      sections: [{ type: 'answer', text: long }],
      footer: '🔄 2 turns',
    };
    const { overflow } = await stream.finish(final, long);
    expect(overflow.length).toBeGreaterThan(0);
    expect(overflow.endsWith('END')).toBe(true);
    expect(fake.inChannel(dm)).toHaveLength(1);
    const shown = fake.inChannel(dm)[0];
    expect(shown?.visible).toContain('continued in the next messages');
    expect(shown?.visible).toContain('🔄 2 turns');

    // The rest as plain chunks of maxTextChunk: a chunk whose escaping is over the limit continues in more messages.
    const chunk = '&'.repeat(channel.outbox.maxTextChunk);
    await channel.outbox.send(target(dm), { kind: 'text', text: chunk }, 'k-chunk');
    const posted = fake.inChannel(dm).slice(1);
    expect(posted.length).toBeGreaterThan(1); // 5 rendered characters per &: over the message limit
    expect(posted.map((m) => m.visible.replace(/\n/g, '')).join('')).toBe(chunk);
    for (const m of fake.inChannel(dm))
      for (const t of sectionsOf(m.blocks)) expect(t.length).toBeLessThanOrEqual(MAX_SECTION_TEXT);
  });

  it('posts once per delivery key (also across a restart) and waits out a 429', async () => {
    h = new SlackHarness();
    const fake = await h.fake();
    const options = await h.options(fake);
    const first = createSlackChannel(options);
    const dm = fake.dm(OWNER);
    fake.rateLimit('chat.postMessage', 1, 1);
    const a = await first.outbox.send(target(dm), { kind: 'text', text: 'hello' }, 'k1');
    expect(fake.callsOf('chat.postMessage')).toHaveLength(2);
    const again = await first.outbox.send(target(dm), { kind: 'text', text: 'hello' }, 'k1');
    expect(again).toEqual(a);
    const second = createSlackChannel(options);
    expect(await second.outbox.send(target(dm), { kind: 'text', text: 'hello' }, 'k1')).toEqual(a);
    expect(fake.inChannel(dm)).toHaveLength(1);
    const ledger = path.join(options.runtimeDir ?? '', 'slack-sent.json');
    expect((await stat(ledger)).mode & 0o777).toBe(0o600);
  });

  it('buttons carry their action; a click is acked, handed to the bridge and the answered card has no buttons', async () => {
    h = new SlackHarness();
    const fake = await h.fake();
    const { channel, bridge } = await h.channel(fake);
    await until(() => channel.status().connected, 'connected');
    const dm = fake.dm(OWNER);
    const action = { type: 'permission' as const, requestId: 'r1', nonce: 'n1', decision: 'allow' as const };
    const card: CardReply = {
      kind: 'card',
      title: 'Allow Bash?',
      status: 'warning',
      sections: [{ type: 'plain', text: 'rm -rf <dir> & more' }],
      buttons: [
        { label: 'Allow', style: 'primary', action },
        { label: 'Deny', style: 'danger', action: { ...action, decision: 'deny' } },
      ],
    };
    const { messageId } = await channel.outbox.send(target(dm), card, 'k-card');
    const msg = fake.inChannel(dm)[0];
    if (!msg) throw new Error('no card');
    expect(msg.visible).toContain('rm -rf <dir> & more');
    expect(msg.buttons.map((b) => [b.text, b.style])).toEqual([
      ['Allow', 'primary'],
      ['Deny', 'danger'],
    ]);
    bridge.actionResult = async () => ({ card: { ...card, title: 'Allowed', buttons: [] } });
    const click = fake.pushClick(STRANGER, msg, msg.buttons[0] ?? { text: '', action_id: '' });
    await until(() => fake.hub.acks.has(click.envelope_id), 'the ack');
    await until(() => bridge.actions.length === 1, 'the action handed over');
    expect(bridge.actions[0]).toEqual({ channel: 'slack', userId: STRANGER, action, messageId });
    await until(() => msg.buttons.length === 0, 'the buttons removed');
    expect(msg.visible).toContain('Allowed');
    // A warning (a stale button, someone else's prompt) goes to the clicker alone.
    bridge.actionResult = async () => ({ toast: { type: 'warning', text: 'Not yours <to> click & so on' } });
    fake.pushClick(STRANGER, msg, { text: 'x', action_id: 'cc-0', value: JSON.stringify(action) });
    await until(() => fake.ephemerals.length === 1, 'the warning');
    expect(fake.ephemerals[0]).toEqual({ channel: dm, user: STRANGER, text: 'Not yours <to> click & so on' });
    // A click whose value is not one of our actions reaches nothing.
    const forged = fake.pushClick(OWNER, msg, { text: 'x', action_id: 'cc-9', value: 'not json' });
    await until(() => fake.hub.acks.has(forged.envelope_id), 'the forged click acked');
    expect(bridge.actions).toHaveLength(2);
  });

  it('downloads a shared image with the bot token, sniffed and capped; a bad one becomes a note', async () => {
    h = new SlackHarness();
    const fake = await h.fake();
    const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(100, 1)]);
    const options = await h.options(fake);
    const { channel, bridge } = await h.channel(fake, { images: { ...options.images, max_size_bytes: 1_000 } });
    await until(() => channel.status().connected, 'connected');
    const files = [
      fake.addFile('F1', 'cat.png', 'image/png', png),
      fake.addFile('F2', 'fake.png', 'image/png', Buffer.from('not an image at all')),
      fake.addFile('F3', 'big.png', 'image/png', Buffer.concat([png, Buffer.alloc(2_000)])),
      { id: 'F4', mimetype: 'image/png', url_private_download: 'http://127.0.0.2:9/elsewhere.png' },
    ];
    fake.pushMessage(OWNER, 'look', { subtype: 'file_share', files });
    await until(() => bridge.accepted.length === 1, 'accepted');
    const prepared = await channel.prepare(bridge.accepted[0] ?? (undefined as never));
    const [first, ...rest] = prepared.images;
    expect(first?.localPath).toMatch(/slack-.*\.png$/);
    expect(await readFile(first?.localPath ?? '')).toEqual(png);
    expect((await stat(first?.localPath ?? '')).mode & 0o777).toBe(0o600);
    expect(rest.map((i) => i.localPath)).toEqual([undefined, undefined, undefined]);
    expect(prepared.text.split('\n')).toEqual([
      'look',
      '[Image 2 could not be downloaded: download error]',
      '[Image 3 could not be downloaded: larger than the 1000 B limit]',
      '[Image 4 could not be downloaded: download error]',
    ]);
    expect(h.logs.join('')).not.toContain(fake.botToken);
  });
});

describe('Slack files out (files.uploadV2 against the fake)', () => {
  it('shares a checked file once per key with its caption; an empty one is refused and nothing is posted', async () => {
    h = new SlackHarness();
    const fake = await h.fake();
    const options = await h.options(fake);
    const channel = createSlackChannel(options);
    const dm = fake.dm(OWNER);
    const file = path.join(options.runtimeDir ?? '', '..', 'chart.png');
    const bytes = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47]), Buffer.alloc(5_000, 7)]);
    await writeFile(file, bytes);
    const reply = {
      kind: 'file' as const,
      path: file,
      name: 'chart.png',
      mime: 'image/png',
      size: bytes.length,
      image: true,
    };
    const sendFile = channel.outbox.sendFile?.bind(channel.outbox);
    if (!sendFile) throw new Error('no sendFile');
    const sent = await sendFile(target(dm), { ...reply, caption: 'the chart & <data>' }, 'k-file');
    expect(sent.messageId).toMatch(/^file:F\d+$/);
    expect(await sendFile(target(dm), { ...reply, caption: 'the chart & <data>' }, 'k-file')).toEqual(sent);
    const shared = fake.inChannel(dm);
    expect(shared).toHaveLength(1);
    expect(shared[0]?.file?.bytes).toEqual(bytes);
    expect(shared[0]?.file?.name).toBe('chart.png');
    expect(shared[0]?.visible).toBe('the chart & <data>');
    await writeFile(file, '');
    await expect(sendFile(target(dm), reply, 'k-empty')).rejects.toThrow(/file size 0 not accepted/);
    expect(fake.inChannel(dm)).toHaveLength(1);
    expect(fake.callsOf('files.completeUploadExternal')).toHaveLength(1);
  });
});
