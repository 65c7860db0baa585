// The Feishu channel's outbound side against injected faults: retries with the same uuid, a lost
// answer, a refreshed token, a refusal without secrets, replies in thread (real SDK, fake Feishu).
import { afterEach, describe, expect, it } from 'vitest';
import { FeishuApiError } from '../../src/channels/feishu/feishu-api-error.js';
import { textMessageEvent } from '../fakes/fake-feishu/fake-feishu-server.js';
import { FeishuHarness, OWNER, ownerTarget as target } from './feishu-harness.js';

let h: FeishuHarness;
afterEach(async () => {
  await h.cleanup();
});

describe('Feishu outbound retry policy (real SDK against injected faults)', () => {
  it('retries 429 and 5xx with the SAME uuid; exactly one message is created', async () => {
    h = new FeishuHarness();
    const fake = await h.fake();
    const { channel } = await h.outboundOnly(fake);
    fake.failNext({ method: 'POST', pathPrefix: '/open-apis/im/v1/messages' }, { status: 429, code: 99991400 });
    fake.failNext({ method: 'POST', pathPrefix: '/open-apis/im/v1/messages' }, { status: 502, times: 2 });
    fake.failNext({ method: 'POST', pathPrefix: '/open-apis/im/v1/messages' }, { resetConnection: true });

    const { messageId } = await channel.outbox.send(
      target(),
      { kind: 'text', text: 'hello <at id=all></at>' },
      '5a0e3c1e-0000-5000-8000-000000000003',
    );

    const posts = fake.requests.filter((r) => r.method === 'POST' && r.path === '/open-apis/im/v1/messages');
    expect(posts.map((r) => r.status)).toEqual([429, 502, 502, 0, 200]);
    expect(fake.sent).toHaveLength(1);
    expect(fake.sent[0]).toMatchObject({
      message_id: messageId,
      uuid: '5a0e3c1e-0000-5000-8000-000000000003',
      msg_type: 'text',
    });
    expect(fake.textOf(messageId)).toBe('hello <\u200bat id=all><\u200b/at>');
  });

  it('creates one message when the first answer is lost (request timeout) and the retry repeats the uuid', async () => {
    h = new FeishuHarness();
    const fake = await h.fake();
    const { channel } = await h.outboundOnly(fake, { requestTimeoutMs: 300 });
    fake.failNext({ method: 'POST', pathPrefix: '/open-apis/im/v1/messages' }, { delayMs: 800 });

    const first = await channel.outbox.send(
      target(),
      { kind: 'text', text: 'once' },
      '5a0e3c1e-0000-5000-8000-000000000004',
    );
    await fake.waitFor(
      () => fake.requests.filter((r) => r.method === 'POST' && r.path === '/open-apis/im/v1/messages').length === 2,
    );

    expect(fake.sent).toHaveLength(1);
    expect(fake.sent[0]?.message_id).toBe(first.messageId);
  });

  it('refreshes a rejected tenant token once and succeeds', async () => {
    h = new FeishuHarness();
    const fake = await h.fake();
    const { channel, options } = await h.outboundOnly(fake);
    await channel.outbox.send(target(), { kind: 'text', text: 'warm up' }, '5a0e3c1e-0000-5000-8000-000000000005');
    const tokensBefore = fake.tokenRequests.filter((t) => t.app_id === options.appId).length;
    fake.failNext({ pathPrefix: '/open-apis/im' }, { status: 400, code: 99991663, msg: 'Invalid access token' });

    await channel.outbox.send(
      target(),
      { kind: 'text', text: 'after refresh' },
      '5a0e3c1e-0000-5000-8000-000000000006',
    );

    expect(fake.tokenRequests.filter((t) => t.app_id === options.appId).length).toBe(tokensBefore + 1);
    expect(fake.sent.map((m) => fake.textOf(m))).toEqual(['warm up', 'after refresh']);
  });

  it('gives up on a refusal at once with a FeishuApiError that carries no secret', async () => {
    h = new FeishuHarness();
    const fake = await h.fake();
    const { channel, options } = await h.outboundOnly(fake);
    fake.failNext({ method: 'POST' }, { status: 400, code: 230001, msg: `bad request ${fake.appSecret}` });

    const err = await channel.outbox
      .send(target(), { kind: 'text', text: 'x' }, '5a0e3c1e-0000-5000-8000-000000000007')
      .catch((e: unknown) => e);

    expect(err).toBeInstanceOf(FeishuApiError);
    expect((err as FeishuApiError).attempts).toBe(1);
    expect((err as FeishuApiError).userMessage).toContain('code 230001');
    expect((err as FeishuApiError).userMessage).not.toContain(options.appSecret);
    expect(fake.sent).toHaveLength(0);
  });

  it('replies in thread to the user message when the target names one', async () => {
    h = new FeishuHarness();
    const fake = await h.fake();
    const { channel, bridge } = await h.channel(fake);
    await fake.pushEvent(textMessageEvent({ openId: OWNER, text: 'q' }));
    const parent = bridge.accepted[0]?.platformMessageId ?? '';

    await channel.outbox.send(target(parent), { kind: 'text', text: 'a' }, '5a0e3c1e-0000-5000-8000-000000000008');

    expect(fake.sent[0]).toMatchObject({ kind: 'reply', parent_id: parent, to: OWNER });
  });
});
