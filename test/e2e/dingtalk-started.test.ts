// A markdown reply's opening and "started" messages (docs/design.md#dingtalk): the REAL
// dingtalk-stream client and the channel against the fake DingTalk. A restart is a new channel over
// the same runtime folder (the sent ledger and the open prompts are kept there).
import { afterEach, describe, expect, it } from 'vitest';
import type { CardButton, CardReply } from '../../src/bridge/reply-model.js';
import { dingtalkMessages } from '../../src/channels/dingtalk/dingtalk-messages.js';
import type { FakeDingTalk } from '../fakes/fake-dingtalk/fake-dingtalk-server.js';
import { tapLinks } from '../fakes/fake-dingtalk/tap-links.js';
import { DingTalkHarness, OWNER_STAFF_ID, until } from './dingtalk-harness.js';
import { RecordingBridge } from './feishu-harness.js';

const target = { channel: 'dingtalk', userId: OWNER_STAFF_ID, chatId: `cid-${OWNER_STAFF_ID}` };
const en = dingtalkMessages('en');
const stopOf = (messageId: string, label = 'Stop'): CardButton[] => [
  { label, style: 'danger', action: { type: 'stop', messageId, nonce: `nonce-${messageId}` } },
];
const queued = (messageId: string): CardReply => ({
  kind: 'card',
  title: '⏳ Queued (#1)',
  status: 'info',
  sections: [{ type: 'markdown', text: 'Waiting for the running message to finish.' }],
  buttons: [{ label: 'Cancel', action: { type: 'stop', messageId, nonce: `nonce-${messageId}` } }],
});

let h: DingTalkHarness;
afterEach(async () => {
  await h.cleanup();
});

async function setup(fake?: FakeDingTalk, runtimeDir?: string, lang: 'en' | 'zh' = 'en') {
  h ??= new DingTalkHarness();
  const f = fake ?? (await h.fake({ ackTimeoutMs: 300 }));
  const bridge = new RecordingBridge();
  const { channel, options } = await h.channel(f, { lang, ...(runtimeDir ? { runtimeDir } : {}) }, bridge);
  await until(() => channel.status().connected, 'the Stream socket');
  return { fake: f, bridge, channel, runtimeDir: options.runtimeDir as string };
}

/** Taps option `n` of the owner's message `text` (pushes the link's content as the owner) and waits for its ack. */
async function tap(fake: FakeDingTalk, text: string, n = 1) {
  const link = tapLinks(text)[n - 1];
  if (!link) throw new Error(`no option ${n} in ${text}`);
  const push = fake.push(fake.robotMessage(OWNER_STAFF_ID, link.content));
  await until(() => push.acked, 'the tap acked');
  return link;
}

describe('DingTalk: the opening and the "started" message carry a tappable Stop', () => {
  it('a new reply: the opening with Stop; a tap stops exactly that run; re-opened after a restart, nothing is sent', async () => {
    h = new DingTalkHarness();
    const { fake, bridge, channel, runtimeDir } = await setup();
    const stream = await channel.outbox.openStream(target, 'req-a', { buttons: stopOf('dingtalk:a') });
    const sent = () => fake.messagesTo(OWNER_STAFF_ID);
    expect(sent()).toHaveLength(1);
    const opening = sent()[0]!.text;
    expect(opening.startsWith(en('waiting'))).toBe(true);
    expect(tapLinks(opening).map((l) => l.label)).toEqual(['Stop']);

    const link = await tap(fake, opening);
    expect(link.content).toMatch(/^1 #[a-z2-9]{4}$/);
    expect(bridge.actions.map((a) => a.action)).toEqual([stopOf('dingtalk:a')[0]!.action]);
    expect(bridge.accepted).toHaveLength(0);
    // The bridge's answer to the tap is one message; nothing else was sent.
    await until(() => sent().length === 2, 'the answer to the tap');
    expect(sent()[1]!.text).toBe('ok');

    // Restart mid-run: the bridge re-opens the reply with the opening's id.
    await channel.stop();
    const again = await setup(fake, runtimeDir);
    const reopened = await again.channel.outbox.openStream(target, 'req-a', {
      existingMessageId: stream.messageId,
      buttons: stopOf('dingtalk:a'),
    });
    expect(reopened.messageId).toBe(stream.messageId);
    await reopened.finish({ kind: 'card', title: 'Done', status: 'complete', sections: [] }, '');
    expect(sent()).toHaveLength(3);
    expect(sent()[2]!.text).toContain('Done');
  });

  it('a message that waited: its "Queued" message, then exactly one "started" message with Stop, never again after a restart', async () => {
    h = new DingTalkHarness();
    const { fake, bridge, channel, runtimeDir } = await setup();
    const sent = () => fake.messagesTo(OWNER_STAFF_ID);
    const { messageId } = await channel.outbox.send(target, queued('dingtalk:b'), 'req-b');
    expect(sent()).toHaveLength(1);
    const cancel = tapLinks(sent()[0]!.text);
    expect(cancel.map((l) => l.label)).toEqual(['Cancel']);

    // The run starts: the stream takes over the "Queued" message.
    const stream = await channel.outbox.openStream(target, 'req-b', {
      existingMessageId: messageId,
      buttons: stopOf('dingtalk:b'),
    });
    expect(stream.messageId).toBe(messageId);
    expect(sent()).toHaveLength(2);
    const started = sent()[1]!.text;
    expect(started.startsWith(en('started'))).toBe(true);
    const stop = tapLinks(started);
    expect(stop.map((l) => l.label)).toEqual(['Stop']);
    // The same run: the Cancel of its "Queued" message and its Stop send the same thing.
    expect(stop[0]!.content).toBe(cancel[0]!.content);

    // Opened again in this life (the bridge's deliver step) and after a restart: no second "started".
    await channel.outbox.openStream(target, 'req-b', { existingMessageId: messageId });
    await channel.stop();
    const again = await setup(fake, runtimeDir);
    const reopened = await again.channel.outbox.openStream(target, 'req-b', {
      existingMessageId: messageId,
      buttons: stopOf('dingtalk:b'),
    });
    expect(sent()).toHaveLength(2);
    // The Stop still works after the restart and names this run.
    await tap(fake, started);
    expect(again.bridge.actions.map((a) => a.action)).toEqual([stopOf('dingtalk:b')[0]!.action]);
    expect(bridge.actions).toHaveLength(0);
    await until(() => sent().length === 3, 'the answer to the tap');
    await reopened.finish({ kind: 'card', title: 'Stopped', status: 'stopped', sections: [] }, '');
    expect(sent().map((m) => m.text.split('\n', 1)[0])).toEqual([
      '### ⏳ Queued \\(\\#1\\)',
      en('started'),
      'ok',
      '### Stopped',
    ]);
  });

  it('in Chinese, and without a Stop (a message of an older version) the messages are the bare sentences', async () => {
    h = new DingTalkHarness();
    const { fake, channel } = await setup(undefined, undefined, 'zh');
    const zh = dingtalkMessages('zh');
    const sent = () => fake.messagesTo(OWNER_STAFF_ID);
    await channel.outbox.openStream(target, 'req-c');
    expect(sent()[0]!.text).toBe(zh('waiting'));
    const { messageId } = await channel.outbox.send(target, { kind: 'text', text: '排队中' }, 'req-d');
    await channel.outbox.openStream(target, 'req-d', { existingMessageId: messageId });
    expect(sent()[2]!.text).toBe(zh('started'));
    await channel.outbox.openStream(target, 'req-e', { buttons: stopOf('dingtalk:e', '停止') });
    expect(sent()[3]!.text).toContain('[停止](dtmd://dingtalkclient/sendMessage?content=1%20%23');
    expect(sent()).toHaveLength(4);
  });
});
