import { describe, expect, it } from 'vitest';
import type { StreamState } from '../../bridge/channel.js';
import { jsonBytes } from './escape-markdown.js';
import { streamingCard, streamView } from './stream-view.js';

const opts = { lang: 'zh' as const, showThinking: true, maxBytes: 25_000 };
const state = (over: Partial<StreamState> = {}): StreamState => ({
  phase: 'streaming',
  text: '',
  thinking: '',
  toolCount: 0,
  elapsedMs: 0,
  ...over,
});

describe('streamView', () => {
  it('shows a placeholder and a processing heartbeat before anything arrives', () => {
    const v = streamView(state({ phase: 'processing', elapsedMs: 3_400 }), opts);
    expect(v.answer).toBe('⏳ 正在思考…');
    expect(v.status).toBe("<font color='grey'>⏳ 正在处理 · 3s</font>");
    expect(v.shownChars).toBe(0);
  });

  it('quotes thinking (when enabled) above the escaped text', () => {
    const s = state({ thinking: 'plan **it**', text: 'answer <b>' });
    expect(streamView(s, opts).answer).toBe('> plan &#42;&#42;it&#42;&#42;\n\nanswer &#60;b&#62;');
    expect(streamView(s, { ...opts, showThinking: false }).answer).toBe('answer &#60;b&#62;');
  });

  it('quotes what a voice message said at the top, escaped, with the placeholder until text arrives', () => {
    const heard = 'run <at id=all> **now**';
    expect(streamView(state({ heard }), opts).answer).toBe(
      '> 🎤 run &#60;at id=all&#62; &#42;&#42;now&#42;&#42;\n\n⏳ 正在思考…',
    );
    expect(streamView(state({ heard, text: 'ok' }), opts).answer).toBe(
      '> 🎤 run &#60;at id=all&#62; &#42;&#42;now&#42;&#42;\n\nok',
    );
  });

  it('puts the running tool and the tool count in the heartbeat, escaped and shortened', () => {
    const v = streamView(
      state({ text: 'x', elapsedMs: 65_000, activeTool: `Bash: echo <at id=all> ${'x'.repeat(200)}`, toolCount: 2 }),
      opts,
    );
    expect(v.status).toMatch(
      /^<font color='grey'>⏱ 65s · 🔧 Bash: echo &#60;at id=all&#62; x+… · 已调用 2 个工具<\/font>$/,
    );
  });

  it("shows the agent's plan line in the heartbeat, escaped", () => {
    const v = streamView(state({ text: 'x', elapsedMs: 3_000, plan: '📋 1/2 · Run <at id=all>' }), opts);
    expect(v.status).toBe("<font color='grey'>⏱ 3s · 📋 1/2 · Run &#60;at id=all&#62;</font>");
  });

  it('grows by prefixes while Claude writes (CardKit typewriter)', () => {
    let text = '';
    let previous = streamView(state({ thinking: 't' }), opts).answer;
    for (const piece of ['Hello', ' **wor', 'ld**', '\n- item', '\n# head']) {
      text += piece;
      const next = streamView(state({ thinking: 't', text }), opts).answer;
      expect(next.startsWith(previous)).toBe(true);
      previous = next;
    }
  });

  it('stops growing at the byte budget and says the rest follows', () => {
    const text = 'word '.repeat(2_000);
    const v = streamView(state({ text }), { ...opts, maxBytes: 1_000 });
    expect(jsonBytes(v.answer)).toBeLessThanOrEqual(1_000);
    expect(v.shownChars).toBeGreaterThan(500);
    expect(v.shownChars).toBeLessThan(text.length);
    expect(v.answer).toContain('完整内容将在结束后发送');
  });
});

describe('streamingCard', () => {
  it('is a JSON 2.0 card with the answer and status elements; streaming mode only for CardKit', () => {
    const v = streamView(state({ text: 'hi' }), opts);
    const card = streamingCard(v, 'zh', true) as {
      config: Record<string, unknown>;
      header: { template: string };
      body: { elements: Array<Record<string, unknown>> };
    };
    expect(card.config).toMatchObject({ update_multi: true, streaming_mode: true });
    expect(card.header.template).toBe('wathet');
    expect(card.body.elements.map((e) => e.element_id)).toEqual(['answer', 'status']);
    expect(streamingCard(v, 'zh', false).config).not.toHaveProperty('streaming_mode');
  });

  it('carries the Stop button the bridge gave the stream as a callback button', () => {
    const v = streamView(state({ text: 'hi' }), opts);
    const action = { type: 'stop' as const, messageId: 'feishu:om_1', nonce: 'n' };
    const card = streamingCard(v, 'en', false, [{ label: 'Stop', style: 'danger', action }]);
    const json = JSON.stringify(card);
    expect(json).toContain(
      '"behaviors":[{"type":"callback","value":{"type":"stop","messageId":"feishu:om_1","nonce":"n"}}]',
    );
  });
});
