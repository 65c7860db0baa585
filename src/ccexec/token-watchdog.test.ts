import { describe, expect, it } from 'vitest';
import type { ChatMessage } from './providers/canonical.js';
import { createTokenWatchdog, ESTIMATE_MARGIN, TRIM_THRESHOLD } from './token-watchdog.js';

const big = (role: 'user' | 'assistant', tag: string): ChatMessage => ({
  role,
  content: `${tag} ${'词 '.repeat(200)}`,
});

describe('createTokenWatchdog', () => {
  it('estimates with the margin and counts special-token text literally', () => {
    const w = createTokenWatchdog(100_000);
    const plain = w.estimate([{ role: 'user', content: 'hello world' }]);
    expect(plain).toBeGreaterThan(2);
    expect(() => w.estimate([{ role: 'user', content: 'a <|endoftext|> b' }])).not.toThrow();
    expect(w.budget).toBe(Math.floor(100_000 * TRIM_THRESHOLD));
    expect(ESTIMATE_MARGIN).toBe(1.1);
  });

  it('learns a correction factor from usage (bounded)', () => {
    const w = createTokenWatchdog(100_000);
    const msgs: ChatMessage[] = [{ role: 'user', content: 'x '.repeat(100) }];
    const before = w.estimate(msgs);
    w.observe(msgs, [], Math.round((before / ESTIMATE_MARGIN) * 2));
    expect(w.estimate(msgs)).toBeGreaterThan(before * 1.8);
    w.observe(msgs, [], 1_000_000);
    expect(w.estimate(msgs)).toBeLessThanOrEqual(Math.ceil(before * 4) + 1);
    w.observe(msgs, [], 0); // ignored
    expect(w.estimate(msgs)).toBeGreaterThan(before);
  });

  it('does not trim below the budget', () => {
    const w = createTokenWatchdog(1_000_000);
    const msgs: ChatMessage[] = [
      { role: 'system', content: 's' },
      big('user', 'a'),
      big('assistant', 'b'),
      { role: 'user', content: 'now' },
    ];
    expect(w.fit(msgs, 3)).toMatchObject({ trimmed: false, messages: msgs });
  });

  it('keeps the system messages, the last 4 earlier messages and the current turn; drops orphan tool results', () => {
    const earlier: ChatMessage[] = [
      big('user', 'q1'),
      big('assistant', 'a1'),
      big('user', 'q2'),
      { role: 'assistant', content: '', toolCalls: [{ id: 't', name: 'cc_exec', arguments: '{}' }] },
      { role: 'tool', toolCallId: 't', name: 'cc_exec', content: 'r'.repeat(50) },
      big('assistant', 'a2'),
      big('user', 'q3'),
      big('assistant', 'a3'),
    ];
    const system: ChatMessage = { role: 'system', content: 'sys' };
    const current: ChatMessage = { role: 'user', content: 'current' };
    const all = [system, ...earlier, current];
    const w = createTokenWatchdog(
      Math.ceil((createTokenWatchdog(1e9).estimate([system, ...earlier.slice(-4), current]) + 50) / TRIM_THRESHOLD),
    );
    const fit = w.fit(all, all.length - 1);
    expect(fit.trimmed).toBe(true);
    // the last 4 earlier messages start with the tool result, whose asking turn was cut: it goes too
    expect(fit.messages).toEqual([system, big('assistant', 'a2'), big('user', 'q3'), big('assistant', 'a3'), current]);
  });

  it('falls back to system + current turn when the last 4 are still too much', () => {
    const system: ChatMessage = { role: 'system', content: 'sys' };
    const current: ChatMessage = { role: 'user', content: 'current' };
    const all = [system, big('user', 'a'), big('assistant', 'b'), current];
    const w = createTokenWatchdog(
      Math.ceil((createTokenWatchdog(1e9).estimate([system, current]) + 20) / TRIM_THRESHOLD),
    );
    expect(w.fit(all, 3).messages).toEqual([system, current]);
  });
});
