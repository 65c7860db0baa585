import { afterEach, describe, expect, it } from 'vitest';
import { until } from './telegram-harness.js';
import { OWNER, SlackHarness } from './slack-harness.js';

let h: SlackHarness;
afterEach(async () => {
  await h.cleanup();
});

describe('Slack channel inbound (real Bolt in Socket Mode against the fake Slack)', () => {
  it('turns a DM into an InboundMessage and acks the envelope only after accept() returned', async () => {
    h = new SlackHarness();
    const fake = await h.fake();
    const { RecordingBridge } = await import('./feishu-harness.js');
    const bridge = new RecordingBridge();
    let open!: () => void;
    bridge.gate = new Promise((r) => (open = r));
    const { channel } = await h.channel(fake, {}, bridge);
    await until(() => channel.status().connected, 'connected');
    expect(channel.status().detail).toBe('@cc-linker');
    const pushed = fake.pushMessage(OWNER, '  /status &lt;now&gt;');
    await until(() => bridge.accepted.length === 1, 'accept called');
    await new Promise((r) => setTimeout(r, 100));
    expect(fake.hub.acks.has(pushed.envelope.envelope_id)).toBe(false);
    open();
    await until(() => fake.hub.acks.has(pushed.envelope.envelope_id), 'the ack');
    expect(bridge.accepted[0]).toMatchObject({
      id: `slack:${pushed.event.channel}:${pushed.event.ts}`,
      channel: 'slack',
      userId: OWNER,
      chatId: pushed.event.channel,
      chatType: 'p2p',
      text: '  /status <now>',
    });
  });

  it('ignores channels, edits and its own messages; an event is re-sent while accept() fails, with the same id', async () => {
    h = new SlackHarness();
    const fake = await h.fake(300);
    const { RecordingBridge } = await import('./feishu-harness.js');
    const bridge = new RecordingBridge();
    let failures = 1;
    const accept = bridge.accept.bind(bridge);
    bridge.accept = async (m) => {
      if (failures-- > 0) throw new Error('disk full');
      return accept(m);
    };
    const { channel } = await h.channel(fake, {}, bridge);
    await until(() => channel.status().connected, 'connected');
    fake.pushMessage(OWNER, 'in a channel', { channel: 'C0GENERAL', channel_type: 'channel' });
    fake.pushMessage(OWNER, 'edited', { subtype: 'message_changed' });
    fake.pushMessage('U0BOTUSER', 'my own');
    const pushed = fake.pushMessage(OWNER, 'keep me');
    await until(() => bridge.accepted.length === 1, 'the re-sent event accepted', 5_000);
    expect(bridge.accepted.map((m) => m.text)).toEqual(['keep me']);
    expect(bridge.accepted[0]?.id).toBe(`slack:${pushed.event.channel}:${pushed.event.ts}`);
    const copies = fake.hub.sent.filter((e) => (e.payload.event as { ts?: string }).ts === pushed.event.ts);
    expect(copies.map((e) => e.retry_attempt)).toEqual([0, 1]);
    await until(() => fake.hub.unacked().length === 0, 'every envelope acked');
  });

  it('shows a refused bot token in status, never the token, and retries', async () => {
    h = new SlackHarness();
    const fake = await h.fake();
    const { channel } = await h.channel(fake, { botToken: 'xoxb-0000-wrong-token-value' });
    await until(() => channel.status().detail === 'error: bot token refused by Slack', 'the error state');
    expect(channel.status().connected).toBe(false);
    const { channel: second } = await h.channel(fake, { appToken: 'xapp-1-wrong-app-token-value' });
    await until(() => second.status().detail === 'error: app token refused by Slack', 'the app token error');
    expect(h.logs.join('')).not.toContain('wrong-token-value');
    expect(h.logs.join('')).not.toContain('wrong-app-token-value');
    expect(h.logs.join('')).not.toContain(fake.botToken);
  });

  it('reconnects after Slack says disconnect, and keeps receiving', async () => {
    h = new SlackHarness();
    const fake = await h.fake();
    const { channel, bridge } = await h.channel(fake);
    await until(() => channel.status().connected, 'connected');
    fake.hub.disconnectAll();
    await until(() => fake.callsOf('apps.connections.open').length === 2, 'a second connection');
    await until(() => channel.status().connected, 'connected again');
    fake.pushMessage(OWNER, 'after the refresh');
    await until(() => bridge.accepted.some((m) => m.text === 'after the refresh'), 'the message');
  });

  it('a message written inside a thread is answered in that thread; a top-level one at the top of the DM', async () => {
    h = new SlackHarness();
    const fake = await h.fake();
    const { RecordingBridge } = await import('./feishu-harness.js');
    const bridge = new RecordingBridge();
    const { channel } = await h.channel(fake, {}, bridge);
    await until(() => channel.status().connected, 'connected');
    const parent = fake.pushMessage(OWNER, 'first');
    const inThread = fake.pushMessage(OWNER, 'second', { thread_ts: parent.event.ts });
    await until(() => bridge.accepted.length === 2, 'both accepted');
    const dm = parent.event.channel;
    const [top, threaded] = bridge.accepted;
    expect(top?.chatId).toBe(dm);
    expect(threaded?.chatId).toBe(`${dm}/${parent.event.ts}`);
    for (const m of [top!, threaded!]) {
      const target = { channel: 'slack', userId: OWNER, chatId: m.chatId };
      await channel.outbox.send(target, { kind: 'text', text: `re: ${m.text}` }, `k-${m.id}`);
    }
    const posted = fake.inChannel(dm);
    expect(posted.map((m) => [m.visible, m.thread_ts])).toEqual([
      ['re: first', undefined],
      ['re: second', parent.event.ts],
    ]);
    expect(inThread.event.ts).not.toBe(parent.event.ts);
  });
});
