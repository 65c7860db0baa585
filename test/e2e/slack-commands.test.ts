import { afterEach, describe, expect, it } from 'vitest';
import { pushCommand } from '../fakes/fake-slack/slash-commands.js';
import { RecordingBridge } from './feishu-harness.js';
import { until } from './telegram-harness.js';
import { OWNER, SlackHarness, STRANGER } from './slack-harness.js';

let h: SlackHarness;
afterEach(async () => {
  await h.cleanup();
});

/** The text Slack would show the user for a command's ack (its ephemeral answer), if any. */
const answerOf = (fake: { hub: { ackPayloads: Map<string, unknown> } }, id: string) =>
  (fake.hub.ackPayloads.get(id) as { text?: string } | undefined)?.text;

describe('/cc, the app’s slash command (real Bolt in Socket Mode against the fake Slack)', () => {
  it('`/cc new …` from the owner becomes `/new …` in the DM, acknowledged only after accept() returned', async () => {
    h = new SlackHarness();
    const fake = await h.fake();
    const bridge = new RecordingBridge();
    let open!: () => void;
    bridge.gate = new Promise((r) => (open = r));
    const { channel } = await h.channel(fake, {}, bridge);
    await until(() => channel.status().connected, 'connected');
    const env = pushCommand(fake, OWNER, 'new ~/code/app -- fix &lt;the&gt; tests &amp; more');
    await until(() => bridge.accepted.length === 1, 'accept called');
    await new Promise((r) => setTimeout(r, 100));
    expect(fake.hub.acks.has(env.envelope_id)).toBe(false);
    open();
    await until(() => fake.hub.acks.has(env.envelope_id), 'the ack');
    expect(answerOf(fake, env.envelope_id)).toBeUndefined();
    const trigger = String(env.payload.trigger_id);
    expect(bridge.accepted[0]).toMatchObject({
      id: `slack:${fake.dm(OWNER)}:cmd-${trigger}`,
      channel: 'slack',
      userId: OWNER,
      chatId: fake.dm(OWNER),
      chatType: 'p2p',
      text: '/new ~/code/app -- fix <the> tests & more',
    });

    // `/cc` alone is the help; a stranger's command reaches the bridge as theirs (the bridge refuses it).
    const help = pushCommand(fake, OWNER, '');
    const stranger = pushCommand(fake, STRANGER, 'stop');
    await until(() => bridge.accepted.length === 3, 'both accepted');
    expect(bridge.accepted.slice(1).map((m) => [m.userId, m.chatId, m.text])).toEqual([
      [OWNER, fake.dm(OWNER), '/help'],
      [STRANGER, fake.dm(STRANGER), '/stop'],
    ]);
    await until(() => fake.hub.acks.has(help.envelope_id) && fake.hub.acks.has(stranger.envelope_id), 'acks');
    // The DM with each sender is asked once, then remembered.
    expect(fake.callsOf('conversations.open').map((c) => c.body.users)).toEqual([OWNER, STRANGER]);
  });

  it('answers a command typed outside the DM with the app, and nothing runs', async () => {
    h = new SlackHarness();
    const fake = await h.fake();
    const { channel, bridge } = await h.channel(fake);
    await until(() => channel.status().connected, 'connected');
    const inChannel = pushCommand(fake, OWNER, 'new', { channel_id: 'C0GENERAL', channel_name: 'general' });
    const otherDm = pushCommand(fake, OWNER, 'stop', { channel_id: 'D0SOMEONE' });
    await until(() => fake.hub.acks.has(inChannel.envelope_id) && fake.hub.acks.has(otherDm.envelope_id), 'acks');
    for (const env of [inChannel, otherDm])
      expect(answerOf(fake, env.envelope_id)).toBe(
        'Use /cc in your direct message with the app (Apps → the app → Messages); nothing ran here.',
      );
    expect(bridge.accepted).toEqual([]);
    expect(fake.messages).toEqual([]);
  });

  it('a copy Slack sends again (no ack within its wait) carries the same id, so the bridge runs it once', async () => {
    h = new SlackHarness();
    const fake = await h.fake(300);
    const bridge = new RecordingBridge();
    let open!: () => void;
    bridge.gate = new Promise((r) => (open = r));
    const { channel } = await h.channel(fake, {}, bridge);
    await until(() => channel.status().connected, 'connected');
    const env = pushCommand(fake, OWNER, 'status');
    await until(() => bridge.accepted.length === 2, 'the re-sent copy reached accept too', 5_000);
    open();
    await until(() => fake.hub.unacked().length === 0, 'every copy acked');
    const copies = fake.hub.sent.filter((e) => e.payload.trigger_id === env.payload.trigger_id);
    expect(copies.length).toBeGreaterThanOrEqual(2);
    expect(new Set(bridge.accepted.map((m) => m.id))).toEqual(
      new Set([`slack:${fake.dm(OWNER)}:cmd-${String(env.payload.trigger_id)}`]),
    );
  });

  it('a command that could not be kept is answered so: nothing ran, send it again', async () => {
    h = new SlackHarness();
    const fake = await h.fake();
    const bridge = new RecordingBridge();
    const accept = bridge.accept.bind(bridge);
    let failures = 1;
    bridge.accept = async (m) => {
      if (failures-- > 0) throw new Error('disk full');
      return accept(m);
    };
    const { channel } = await h.channel(fake, {}, bridge);
    await until(() => channel.status().connected, 'connected');
    const failed = pushCommand(fake, OWNER, 'new ~/x');
    await until(() => fake.hub.acks.has(failed.envelope_id), 'the ack');
    expect(answerOf(fake, failed.envelope_id)).toBe(
      'cc-linker could not take “/cc new ~/x” just now (it is restarting or could not save it); nothing ran — send it again in a moment.',
    );
    bridge.acceptResult = { status: 'refused', reason: 'shutting-down' };
    const stopping = pushCommand(fake, OWNER, 'list');
    await until(() => fake.hub.acks.has(stopping.envelope_id), 'the second ack');
    expect(answerOf(fake, stopping.envelope_id)).toContain('could not take “/cc list” just now');
    expect(bridge.accepted.map((m) => m.text)).toEqual(['/list']);
  });

  it('an app without the im:write scope says so, and nothing runs', async () => {
    h = new SlackHarness();
    const fake = await h.fake();
    fake.refusals.set('conversations.open', 'missing_scope');
    const { channel, bridge } = await h.channel(fake);
    await until(() => channel.status().connected, 'connected');
    const env = pushCommand(fake, OWNER, 'new');
    await until(() => fake.hub.acks.has(env.envelope_id), 'the ack');
    expect(answerOf(fake, env.envelope_id)).toBe(
      'The app lacks the im:write scope, so it cannot tell this is your DM with it; nothing ran. Recreate the app from docs/slack-app-manifest.yaml, or add the scope and reinstall.',
    );
    expect(bridge.accepted).toEqual([]);
    expect(h.logs.join('')).not.toContain(fake.botToken);
  });
});
