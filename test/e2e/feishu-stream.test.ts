import { afterEach, describe, expect, it } from 'vitest';
import type { ReplyStream, StreamState } from '../../src/bridge/channel.js';
import type { CardReply } from '../../src/bridge/reply-model.js';
import { createFeishuChannel } from '../../src/channels/feishu/feishu-channel.js';
import { defaultConfig } from '../../src/core/default-config.js';
import { textMessageEvent, type FakeFeishu } from '../fakes/fake-feishu/fake-feishu-server.js';
import { FeishuHarness, maxInWindow, pause, type RecordingBridge } from './feishu-harness.js';

const OWNER = 'ou_owner0000000000000000000000002';
const KEY = '7c9e6679-7425-5de0-8000-0000000000a1';

let h: FeishuHarness;
afterEach(async () => {
  await h.cleanup();
});

/** A user message the stream replies to; returns its id. */
async function userMessage(fake: FakeFeishu, bridge: RecordingBridge): Promise<string> {
  await fake.pushEvent(textMessageEvent({ openId: OWNER, text: '讲讲这个项目' }));
  return bridge.accepted.at(-1)?.platformMessageId ?? '';
}

const target = (replyTo: string) => ({ channel: 'feishu', userId: OWNER, chatId: '', replyTo });

/** Feeds `words` to the stream like Claude would (a word every few ms); returns the full text. */
async function produce(stream: ReplyStream, words: number, extra: Partial<StreamState> = {}): Promise<string> {
  let text = '';
  for (let i = 0; i < words; i += 1) {
    text += `word${i} `;
    stream.update({ phase: 'streaming', text, thinking: '', toolCount: 0, elapsedMs: i * 10, ...extra });
    await pause(8);
  }
  return text;
}

function finalCard(text: string): CardReply {
  return {
    kind: 'card',
    title: '✅ 完成',
    status: 'complete',
    sections: [{ type: 'plain', text }],
    footer: '💰 $0.0100 · ⏱ 1.0s · 🔄 1 轮',
  };
}

describe('Feishu streaming replies: CardKit', () => {
  it('streams into a CardKit card: increasing sequences, ≤ 10 ops/s, typewriter prefixes, final card', async () => {
    h = new FeishuHarness();
    const fake = await h.fake();
    const { channel, bridge } = await h.channel(fake);
    const parent = await userMessage(fake, bridge);

    const stream = await channel.outbox.openStream(target(parent), KEY);
    stream.update({ phase: 'processing', text: '', thinking: '先看看目录结构', toolCount: 0, elapsedMs: 0 });
    await pause(150);
    stream.update({
      phase: 'processing',
      text: '',
      thinking: '先看看目录结构',
      activeTool: 'Bash: ls -la',
      toolCount: 1,
      elapsedMs: 2_000,
    });
    await pause(300);
    const text = await produce(stream, 120, { thinking: '先看看目录结构', toolCount: 1 });
    const { overflow } = await stream.finish(finalCard(text), text);

    expect(overflow).toBe('');
    const message = fake.sent.find((m) => m.message_id === stream.messageId);
    expect(message).toMatchObject({ kind: 'reply', parent_id: parent, uuid: KEY, msg_type: 'interactive' });
    const cardId = (message?.content as { type: string; data: { card_id: string } }).data.card_id;
    expect(message?.content).toEqual({ type: 'card', data: { card_id: cardId } });
    const ops = fake.cardkit.filter((o) => o.card_id === cardId);
    expect(ops[0]?.op).toBe('create');
    const sequences = ops.slice(1).map((o) => o.sequence as number);
    expect(sequences.every((s, i) => i === 0 || s > (sequences[i - 1] as number))).toBe(true);
    expect(
      maxInWindow(
        ops.map((o) => o.at),
        1000,
      ),
    ).toBeLessThanOrEqual(10);
    expect(fake.requests.filter((r) => r.path.startsWith('/open-apis/cardkit') && r.status !== 200)).toEqual([]);
    expect(ops.slice(-2).map((o) => o.op)).toEqual(['settings', 'update']);

    const answers = ops.filter((o) => o.op === 'content' && o.element_id === 'answer').map((o) => o.content ?? '');
    expect(answers[0]).toBe('> 先看看目录结构');
    const withText = answers.filter((a) => a.includes('word'));
    expect(withText.length).toBeGreaterThan(3);
    expect(withText.every((a, i) => i === 0 || a.startsWith(withText[i - 1] as string))).toBe(true);
    const statuses = ops.filter((o) => o.op === 'content' && o.element_id === 'status').map((o) => o.content ?? '');
    expect(statuses.some((s) => s.includes('🔧 Bash: ls -la') && s.includes('2s'))).toBe(true);

    const card = fake.cardJson(cardId) as { config: { streaming_mode: boolean }; header: { template: string } };
    expect(card.config.streaming_mode).toBe(false);
    expect(card.header.template).toBe('green');
    expect(fake.textOf(stream.messageId)).toContain(text.trim());
    expect(fake.textOf(stream.messageId)).toContain('&#36;0.0100');
    expect(fake.sent).toHaveLength(1);
  });

  it('cuts a reply at stream.max_card_bytes and returns the rest as overflow, nothing lost or repeated', async () => {
    h = new FeishuHarness();
    const fake = await h.fake();
    const stream = { ...defaultConfig().stream, max_card_bytes: 1_500 };
    const { channel, bridge } = await h.channel(fake, { stream });
    const parent = await userMessage(fake, bridge);
    const paragraphs = Array.from({ length: 40 }, (_, i) => `paragraph ${i} ${'lorem ipsum '.repeat(8).trim()}`);
    const text = paragraphs.join('\n\n');

    const s = await channel.outbox.openStream(target(parent), KEY);
    s.update({ phase: 'streaming', text, thinking: '', toolCount: 0, elapsedMs: 100 });
    await pause(300);
    const { overflow } = await s.finish(finalCard(text), text);

    expect(overflow.length).toBeGreaterThan(0);
    expect(text.endsWith(overflow)).toBe(true);
    const shown = text.slice(0, text.length - overflow.length).trimEnd();
    const visible = fake.textOf(s.messageId);
    expect(visible).toContain(shown);
    expect(visible).not.toContain(paragraphs.at(-1));
    expect(visible).toContain('回复较长，其余内容见后续消息');
    expect(
      Buffer.byteLength(
        JSON.stringify(fake.cardJson((fake.sent[0]?.content as { data: { card_id: string } }).data.card_id)),
      ),
    ).toBeLessThan(30 * 1024);
  });

  it('resumes the same card entity after a restart (existingMessageId), continuing its sequence', async () => {
    h = new FeishuHarness();
    const fake = await h.fake();
    const { channel, bridge, options } = await h.channel(fake);
    const parent = await userMessage(fake, bridge);
    const first = await channel.outbox.openStream(target(parent), KEY);
    await produce(first, 10);
    await pause(200);
    await channel.stop(); // the process dies mid-stream
    const seqBefore = Math.max(...fake.cardkit.map((o) => o.sequence ?? 0));

    const restarted = createFeishuChannel({ ...options });
    const resumed = await restarted.outbox.openStream(target(parent), KEY, { existingMessageId: first.messageId });
    const text = 'the whole answer after the restart';
    resumed.update({ phase: 'streaming', text, thinking: '', toolCount: 0, elapsedMs: 5_000 });
    const { overflow } = await resumed.finish(finalCard(text), text);

    expect(resumed.messageId).toBe(first.messageId);
    expect(overflow).toBe('');
    expect(fake.sent).toHaveLength(1);
    expect(fake.cardkit.filter((o) => o.op === 'create')).toHaveLength(1);
    const after = fake.cardkit.filter((o) => (o.sequence ?? 0) > seqBefore);
    expect(after.map((o) => o.op)).toEqual(['content', 'settings', 'update']);
    expect(fake.textOf(first.messageId)).toContain(text);

    await restarted.outbox.update(first.messageId, {
      kind: 'card',
      title: 'edited later',
      status: 'info',
      sections: [],
    });
    expect(fake.cardkit.at(-1)?.op).toBe('update');
    expect(fake.textOf(first.messageId)).toBe('edited later');
    expect(fake.patches).toHaveLength(0);
  });

  it('re-opening with the same key after a crash before the message id was recorded reuses card and message', async () => {
    h = new FeishuHarness();
    const fake = await h.fake();
    const { channel, bridge, options } = await h.channel(fake);
    const parent = await userMessage(fake, bridge);
    const first = await channel.outbox.openStream(target(parent), KEY);

    const again = await createFeishuChannel({ ...options }).outbox.openStream(target(parent), KEY);
    const { overflow } = await again.finish(finalCard('done'), 'done');

    expect(again.messageId).toBe(first.messageId);
    expect(overflow).toBe('');
    expect(fake.sent).toHaveLength(1);
    expect(fake.cardkit.filter((o) => o.op === 'create')).toHaveLength(1);
    expect(fake.textOf(first.messageId)).toContain('done');
  });
});

describe('Feishu streaming replies: fallbacks', () => {
  it('falls back to a patched card when CardKit is refused, within 5 patches/s, and skips CardKit afterwards', async () => {
    h = new FeishuHarness();
    const fake = await h.fake();
    const stream = { ...defaultConfig().stream, throttle_ms: 300 };
    const { channel, bridge } = await h.channel(fake, { stream });
    const parent = await userMessage(fake, bridge);
    fake.failNext(
      { method: 'POST', pathPrefix: '/open-apis/cardkit/v1/cards' },
      { status: 400, code: 99991672, msg: 'cardkit not enabled' },
    );

    const s = await channel.outbox.openStream(target(parent), KEY);
    const text = await produce(s, 100);
    const { overflow } = await s.finish(finalCard(text), text);

    expect(overflow).toBe('');
    const message = fake.sent.find((m) => m.message_id === s.messageId);
    expect((message?.content as { schema: string }).schema).toBe('2.0');
    const patches = fake.patches.filter((p) => p.message_id === s.messageId);
    expect(patches.length).toBeGreaterThan(1);
    expect(
      maxInWindow(
        patches.map((p) => p.at),
        1000,
      ),
    ).toBeLessThanOrEqual(5);
    expect(fake.textOf(s.messageId)).toContain(text.trim());
    expect(fake.textOf(s.messageId)).toContain('&#36;0.0100');

    const next = await channel.outbox.openStream(target(parent), '7c9e6679-7425-5de0-8000-0000000000a2');
    await next.finish(finalCard('second'), 'second');
    expect(fake.requests.filter((r) => r.method === 'POST' && r.path === '/open-apis/cardkit/v1/cards')).toHaveLength(
      1,
    );
  });

  it('stops updating after 3 consecutive failed patches and returns what the card does not show', async () => {
    h = new FeishuHarness();
    const fake = await h.fake();
    const stream = { ...defaultConfig().stream, throttle_ms: 250 };
    const { channel, bridge } = await h.channel(fake, { stream });
    const parent = await userMessage(fake, bridge);
    fake.failNext({ method: 'POST', pathPrefix: '/open-apis/cardkit' }, { status: 400, code: 99991672 });
    const s = await channel.outbox.openStream(target(parent), KEY);
    const shown = await produce(s, 5);
    await fake.waitFor(() =>
      fake.patches.some((p) => p.message_id === s.messageId && JSON.stringify(p.content).includes('word4')),
    );
    fake.failNext({ method: 'PATCH' }, { status: 400, code: 230001, times: 50 });

    const failed = (): number => fake.requests.filter((r) => r.method === 'PATCH' && r.status === 400).length;
    let text = shown;
    let i = 0;
    const more = (): void => {
      text += `more${i} `;
      s.update({ phase: 'streaming', text, thinking: '', toolCount: 0, elapsedMs: 1_000 + i * 50 });
      i += 1;
    };
    while (failed() < 3 && i < 400) {
      more();
      await pause(50);
    }
    for (let j = 0; j < 30; j += 1) {
      more(); // degraded now: these must not reach Feishu
      await pause(50);
    }
    const failedWhileStreaming = failed();
    const { overflow } = await s.finish(finalCard(text), text);

    expect(failedWhileStreaming).toBe(3);
    expect(failed()).toBe(4);
    expect(overflow).toBe(text.slice(shown.length));
    expect(fake.textOf(s.messageId)).toContain('word4');
  });
});
