import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { StreamState } from '../../bridge/channel.js';
import type { CardReply } from '../../bridge/reply-model.js';
import { defaultConfig } from '../../core/default-config.js';
import { silentLogger } from '../../core/logger.js';
import type { FeishuApi } from './feishu-api.js';
import { FeishuApiError } from './feishu-api-error.js';
import { CardKitSwitch, openStreamCard, type StreamCardDeps } from './stream-card.js';
import { StreamCardStore } from './stream-card-store.js';

type Op = 'send' | 'createCard' | 'cardContent' | 'cardSettings' | 'cardUpdate' | 'patch';

/** A FeishuApi stand-in: records calls; ops in `failing` throw a refusal. */
class StubApi {
  readonly calls: Array<{ op: Op; args: unknown[] }> = [];
  readonly failing = new Set<Op>();

  private run(op: Op, args: unknown[]): void {
    this.calls.push({ op, args });
    if (this.failing.has(op)) throw new FeishuApiError(op, { kind: 'rejected', code: 300309 }, 1);
  }
  async send(...args: unknown[]) {
    this.run('send', args);
    return { messageId: 'om_stream', content: args[2] as string };
  }
  async createCard(...args: unknown[]) {
    this.run('createCard', args);
    return 'card_1';
  }
  async cardContent(...args: unknown[]) {
    this.run('cardContent', args);
  }
  async cardSettings(...args: unknown[]) {
    this.run('cardSettings', args);
  }
  async cardUpdate(...args: unknown[]) {
    this.run('cardUpdate', args);
  }
  async patch(...args: unknown[]) {
    this.run('patch', args);
  }
  ops(): Op[] {
    return this.calls.map((c) => c.op);
  }
}

function deps(api: StubApi, cardkit = new CardKitSwitch()): StreamCardDeps {
  return {
    api: api as unknown as FeishuApi,
    store: new StreamCardStore(undefined, silentLogger),
    cardkit,
    lang: 'en',
    logger: silentLogger,
    stream: defaultConfig().stream,
  };
}

const state = (text: string): StreamState => ({ phase: 'streaming', text, thinking: '', toolCount: 0, elapsedMs: 0 });
const final = (text: string): CardReply => ({
  kind: 'card',
  title: 'Done',
  status: 'complete',
  sections: [{ type: 'plain', text }],
});
const target = { userId: 'ou_a', replyTo: 'om_user' };

beforeEach(() => {
  vi.useFakeTimers({ now: 1_000_000 });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('openStreamCard (CardKit failures)', () => {
  it('re-opens streaming mode after a refused update, degrades after 3 failures and returns the unshown rest', async () => {
    const api = new StubApi();
    const stream = await openStreamCard(deps(api), target, 'key-1');
    stream.update(state('shown part'));
    await vi.advanceTimersByTimeAsync(300);
    // the answer, then the heartbeat (processing → streaming)
    expect(api.ops()).toEqual(['createCard', 'send', 'cardContent', 'cardContent']);
    expect(api.calls.slice(2).map((c) => c.args[1])).toEqual(['answer', 'status']);

    api.failing.add('cardContent');
    for (let i = 0; i < 10; i += 1) {
      stream.update(state(`shown part, then more ${i}`));
      await vi.advanceTimersByTimeAsync(1_000);
    }
    const afterFailures = api.ops().slice(4);
    expect(afterFailures).toEqual(['cardContent', 'cardSettings', 'cardContent', 'cardSettings', 'cardContent']);

    api.failing.add('cardUpdate');
    const done = stream.finish(final('shown part, then more 9'), 'shown part, then more 9');
    await vi.advanceTimersByTimeAsync(1_000);
    expect(await done).toEqual({ overflow: ', then more 9' });
    expect(api.ops().slice(-2)).toEqual(['cardSettings', 'cardUpdate']);
  });

  it('spaces CardKit operations at least 120 ms apart and ends with settings then update', async () => {
    const api = new StubApi();
    const at: number[] = [];
    const original = api.cardContent.bind(api);
    api.cardContent = async (...args: unknown[]) => {
      at.push(Date.now());
      return original(...args);
    };
    const stream = await openStreamCard(deps(api), target, 'key-2');
    let text = '';
    for (let i = 0; i < 100; i += 1) {
      text += `w${i} `;
      stream.update(state(text));
      await vi.advanceTimersByTimeAsync(10);
    }
    const done = stream.finish(final(text), text);
    await vi.advanceTimersByTimeAsync(1_000);
    await done;
    expect(at.every((t, i) => i === 0 || t - (at[i - 1] as number) >= 120)).toBe(true);
    expect(at.length).toBeGreaterThanOrEqual(8);
    expect(api.ops().slice(-2)).toEqual(['cardSettings', 'cardUpdate']);
  });

  it('falls back to a patched card when CardKit is refused, and skips CardKit for the next stream', async () => {
    const api = new StubApi();
    api.failing.add('createCard');
    const d = deps(api);
    const first = await openStreamCard(d, target, 'key-3');
    const sent = api.calls.find((c) => c.op === 'send');
    expect(JSON.parse(sent?.args[2] as string)).toMatchObject({
      schema: '2.0',
      body: { elements: [{ element_id: 'answer' }, { element_id: 'status' }] },
    });
    const done = first.finish(final('ok'), 'ok');
    await vi.advanceTimersByTimeAsync(500);
    expect(await done).toEqual({ overflow: '' });
    expect(api.ops()).toEqual(['createCard', 'send', 'patch']);

    await openStreamCard(d, target, 'key-4');
    expect(api.ops().filter((o) => o === 'createCard')).toHaveLength(1);
  });

  it('cuts a too-long reply without overflow when stream.fallback_to_text is off', async () => {
    const api = new StubApi();
    const d = { ...deps(api), stream: { ...defaultConfig().stream, max_card_bytes: 500, fallback_to_text: false } };
    const stream = await openStreamCard(d, target, 'key-6');
    const text = 'line of text\n'.repeat(200);
    const done = stream.finish(final(text), text);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(await done).toEqual({ overflow: '' });
    const card = JSON.stringify(api.calls.at(-1)?.args[1]);
    expect(card).toContain('too long, truncated');
    expect(card.length).toBeLessThan(2_000);
  });

  it('sends an error card as text when it cannot be shown', async () => {
    const api = new StubApi();
    const stream = await openStreamCard(deps(api), target, 'key-5');
    api.failing.add('cardUpdate');
    const done = stream.finish(
      { kind: 'card', title: 'Failed', status: 'error', sections: [{ type: 'markdown', text: '❌ Claude crashed' }] },
      '',
    );
    await vi.advanceTimersByTimeAsync(1_000);
    expect(await done).toEqual({ overflow: 'Failed\n❌ Claude crashed' });
  });
});
