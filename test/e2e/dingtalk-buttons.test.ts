// Prompt options as tappable links (docs/design.md#dingtalk): the REAL dingtalk-stream client and
// the channel against the fake DingTalk. A "tap" is what a DingTalk client does with the link: it
// sends the link's content into the chat as the user, which arrives as a robot CALLBACK.
import { afterEach, describe, expect, it } from 'vitest';
import { bridgeMessages } from '../../src/bridge/bridge-messages.js';
import type { ActionResult } from '../../src/bridge/channel.js';
import { promptMessages } from '../../src/bridge/prompts/prompt-messages.js';
import type { CardAction, CardReply } from '../../src/bridge/reply-model.js';
import type { FakeDingTalk, SentMessage } from '../fakes/fake-dingtalk/fake-dingtalk-server.js';
import { tapLinks } from '../fakes/fake-dingtalk/tap-links.js';
import { DingTalkHarness, OWNER_STAFF_ID, until } from './dingtalk-harness.js';
import { RecordingBridge } from './feishu-harness.js';

const STRANGER = 'stranger0002';
const target = { channel: 'dingtalk', userId: OWNER_STAFF_ID, chatId: `cid-${OWNER_STAFF_ID}` };
const expired = promptMessages('en')('expired');
const notOwner = bridgeMessages('en')('notOwner');

const perm = (requestId: string, decision: 'allow' | 'deny' | 'always') =>
  ({ type: 'permission', requestId, nonce: `nonce-${requestId}`, decision }) as const;
const prompt = (requestId: string): CardReply => ({
  kind: 'card',
  title: `Permission ${requestId}`,
  status: 'warning',
  sections: [{ type: 'plain', text: `Bash: touch ${requestId}` }],
  buttons: [
    { label: 'Allow', action: perm(requestId, 'allow') },
    { label: 'Deny', action: perm(requestId, 'deny') },
    { label: 'Always allow', action: perm(requestId, 'always') },
  ],
});

/** The bridge's side of a click, as the real one decides it: the owner's, on a prompt still pending, once. */
class JudgingBridge extends RecordingBridge {
  readonly pending = new Set<string>();
  readonly settled: CardAction[] = [];

  override async handleAction(input: { channel: string; userId: string; action: CardAction }): Promise<ActionResult> {
    this.actions.push(input);
    if (input.userId !== OWNER_STAFF_ID) return { toast: { type: 'error', text: notOwner } };
    const a = input.action;
    if (a.type !== 'permission' || a.nonce !== `nonce-${a.requestId}` || !this.pending.delete(a.requestId))
      return { toast: { type: 'warning', text: expired } };
    this.settled.push(a);
    return { toast: { type: 'success', text: `settled ${a.requestId} ${a.decision}` } };
  }
}

let h: DingTalkHarness;
afterEach(async () => {
  await h.cleanup();
});

async function setup(over: Parameters<DingTalkHarness['channel']>[1] = {}) {
  h = new DingTalkHarness();
  const fake = await h.fake({ ackTimeoutMs: 300 });
  const bridge = new JudgingBridge();
  const { channel, options } = await h.channel(fake, over, bridge);
  await until(() => channel.status().connected, 'the Stream socket');
  return { fake, bridge, channel, options };
}

/** Sends prompt `requestId` (pending in the bridge) and returns its message as the owner sees it. */
async function ask(
  fake: FakeDingTalk,
  bridge: JudgingBridge,
  send: (c: CardReply, key: string) => Promise<unknown>,
  requestId: string,
) {
  bridge.pending.add(requestId);
  await send(prompt(requestId), `prompt:${requestId}`);
  return fake.messagesTo(OWNER_STAFF_ID).at(-1) as SentMessage;
}

/** Taps option `n` of `message` as `userId`: pushes the link's content as their message. */
function tap(fake: FakeDingTalk, message: SentMessage, n: number, userId = OWNER_STAFF_ID) {
  const link = tapLinks(message.text)[n - 1];
  if (!link) throw new Error(`no option ${n} in ${message.text}`);
  const data = fake.robotMessage(userId, link.content);
  return { data, push: fake.push(data) };
}

const lastTo = (fake: FakeDingTalk, userId: string) => fake.messagesTo(userId).at(-1)?.text;

describe('DingTalk prompt options as tappable links (real dingtalk-stream against the fake)', () => {
  it('a tap answers the prompt it belongs to, also an older one; a number alone answers the newest', async () => {
    const { fake, bridge, channel } = await setup();
    const send = (c: CardReply, key: string) => channel.outbox.send(target, c, key);
    const older = await ask(fake, bridge, send, 'a');
    const newer = await ask(fake, bridge, send, 'b');
    expect(tapLinks(older.text).map((l) => l.label)).toEqual(['Allow', 'Deny', 'Always allow']);
    const tokenA = /^1 #(\w{4})$/.exec(tapLinks(older.text)[0]!.content)?.[1];
    const tokenB = /^1 #(\w{4})$/.exec(tapLinks(newer.text)[0]!.content)?.[1];
    expect(tokenA).toBeDefined();
    expect(tokenB).not.toBe(tokenA);
    expect(older.text).toContain(`· #${tokenA}`);

    const { push } = tap(fake, older, 2);
    await until(() => push.acked, 'the tap acked');
    expect(bridge.settled).toEqual([perm('a', 'deny')]);
    await until(() => lastTo(fake, OWNER_STAFF_ID) === 'settled a deny', "the bridge's answer");
    expect(bridge.accepted).toEqual([]);

    const number = fake.push(fake.robotMessage(OWNER_STAFF_ID, '３'));
    await until(() => number.acked, 'the number acked');
    expect(bridge.settled).toEqual([perm('a', 'deny'), perm('b', 'always')]);
    expect(bridge.accepted).toEqual([]);
    // Both prompts are answered: a number alone is an ordinary message again.
    const later = fake.push(fake.robotMessage(OWNER_STAFF_ID, '1'));
    await until(() => later.acked, 'the later number acked');
    expect(bridge.accepted.map((m) => m.text)).toEqual(['1']);
    expect(bridge.actions).toHaveLength(2);
  });

  it('a repeated tap runs once: a re-push is dropped, a second tap is told the prompt is closed', async () => {
    const { fake, bridge, channel } = await setup();
    const message = await ask(fake, bridge, (c, k) => channel.outbox.send(target, c, k), 'a');
    const first = tap(fake, message, 1);
    await until(() => first.push.acked, 'the tap acked');
    const before = fake.messagesTo(OWNER_STAFF_ID).length;
    // DingTalk pushes the same message again (an ack lost): acked, nothing runs, nothing is said.
    const again = fake.push(first.data);
    await until(() => again.acked, 'the re-push acked');
    expect(bridge.actions).toHaveLength(1);
    // The owner taps the same option again: a new message, told the prompt is no longer open.
    const second = tap(fake, message, 1);
    await until(() => second.push.acked, 'the second tap acked');
    await until(() => lastTo(fake, OWNER_STAFF_ID) === expired, 'the "expired" answer');
    expect(fake.messagesTo(OWNER_STAFF_ID)).toHaveLength(before + 1);
    expect(bridge.settled).toEqual([perm('a', 'allow')]);
    expect(bridge.accepted).toEqual([]);
  });

  it("a stranger's tap is refused like any stranger message and leaves the prompt open", async () => {
    const { fake, bridge, channel } = await setup();
    const message = await ask(fake, bridge, (c, k) => channel.outbox.send(target, c, k), 'a');
    const stranger = tap(fake, message, 1, STRANGER);
    await until(() => stranger.push.acked, "the stranger's tap acked");
    await until(() => lastTo(fake, STRANGER) === notOwner, 'the refusal');
    expect(bridge.settled).toEqual([]);
    // A stranger's number alone is an ordinary message (the bridge refuses it).
    const number = fake.push(fake.robotMessage(STRANGER, '1'));
    await until(() => number.acked, "the stranger's number acked");
    expect(bridge.accepted.map((m) => [m.userId, m.text])).toEqual([[STRANGER, '1']]);
    // The owner's tap still answers the prompt.
    const owner = tap(fake, message, 1);
    await until(() => owner.push.acked, "the owner's tap acked");
    expect(bridge.settled).toEqual([perm('a', 'allow')]);
  });

  it('a tap on a missing option or an unknown prompt runs nothing; junk is an ordinary message', async () => {
    const { fake, bridge, channel } = await setup();
    const message = await ask(fake, bridge, (c, k) => channel.outbox.send(target, c, k), 'a');
    const token = tapLinks(message.text)[0]!.content.split('#')[1];
    const pushes = [fake.push(fake.robotMessage(OWNER_STAFF_ID, `9 #${token}`))];
    await until(() => lastTo(fake, OWNER_STAFF_ID) === 'That prompt has no option 9; nothing was done', 'option 9');
    pushes.push(fake.push(fake.robotMessage(OWNER_STAFF_ID, '1 #zzzz')));
    await until(() => lastTo(fake, OWNER_STAFF_ID) === expired, 'an unknown prompt');
    for (const junk of ['1 #', `#${token}`, '1 please'])
      pushes.push(fake.push(fake.robotMessage(OWNER_STAFF_ID, junk)));
    await until(() => pushes.every((p) => p.acked), 'every message acked');
    expect(bridge.accepted.map((m) => m.text).sort()).toEqual(['1 #', `#${token}`, '1 please'].sort());
    expect(bridge.settled).toEqual([]);
    expect(bridge.pending.has('a')).toBe(true);
  });

  it('prompts stay markdown messages with links when an AI card template is set', async () => {
    const { fake, bridge, channel } = await setup({ card: { templateId: 'tpl.schema', key: 'content' } });
    const message = await ask(fake, bridge, (c, k) => channel.outbox.send(target, c, k), 'a');
    expect(message.msgKey).toBe('sampleMarkdown');
    expect(tapLinks(message.text)).toHaveLength(3);
    expect(fake.cardCalls).toEqual([]);
    // An update of the card a run streams into (a recovery or force-send choice) is a markdown message too.
    const stream = await channel.outbox.openStream(target, 'turn-1');
    await channel.outbox.update(stream.messageId, prompt('b'));
    expect(tapLinks(lastTo(fake, OWNER_STAFF_ID) ?? '')).toHaveLength(3);
  });

  it('open prompts survive a restart: a tap on an older prompt after it answers that prompt', async () => {
    const { fake, bridge, channel, options } = await setup();
    const older = await ask(fake, bridge, (c, k) => channel.outbox.send(target, c, k), 'a');
    await ask(fake, bridge, (c, k) => channel.outbox.send(target, c, k), 'b');
    await channel.stop();
    const again = await h.channel(fake, { runtimeDir: options.runtimeDir! }, bridge);
    await until(() => again.channel.status().connected, 'the second Stream socket');
    const { push } = tap(fake, older, 1);
    await until(() => push.acked, 'the tap acked');
    expect(bridge.settled).toEqual([perm('a', 'allow')]);
  });

  it('other buttons (a queued message’s Cancel) are tappable too; a number alone does not press them', async () => {
    const { fake, bridge, channel } = await setup();
    const stop = { type: 'stop', messageId: 'dingtalk:m-queued', nonce: 'n-queued' } as const;
    await channel.outbox.send(
      target,
      { kind: 'card', title: '⏳ Queued', status: 'info', sections: [], buttons: [{ label: 'Cancel', action: stop }] },
      'queued:m-queued',
    );
    const queued = fake.messagesTo(OWNER_STAFF_ID).at(-1) as SentMessage;
    expect(queued.text).toContain('Tap an option (or reply "<number> #');
    fake.push(fake.robotMessage(OWNER_STAFF_ID, '1'));
    await until(() => bridge.accepted.some((m) => m.text === '1'), 'the bare number as a message');
    expect(bridge.actions).toEqual([]);
    tap(fake, queued, 1);
    await until(() => bridge.actions.length === 1, 'the tap as the Cancel action');
    expect(bridge.actions[0]).toMatchObject({ userId: OWNER_STAFF_ID, action: stop });
  });
});
