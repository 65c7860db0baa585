// Its own file: whether gpt-tokenizer was loaded is process state, and the other watchdog tests load it.
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import type { ChatMessage, ToolSpec } from './providers/canonical.js';
import { createTokenWatchdog, TRIM_THRESHOLD } from './token-watchdog.js';

const tokenizerLoaded = (): boolean =>
  Object.keys(createRequire(import.meta.url).cache).some((k) => k.includes('/gpt-tokenizer/'));

const tool: ToolSpec = {
  name: 'cc_exec',
  description: 'Run one read-only ChainlessChain CLI command',
  parameters: { type: 'object', properties: { command: { type: 'string' } } },
};

describe('the token watchdog loads the tokenizer only when it can change the answer', () => {
  it('a short question far under the budget is sent without counting, also after a usage', () => {
    expect(tokenizerLoaded()).toBe(false);
    const w = createTokenWatchdog(128_000);
    const msgs: ChatMessage[] = [
      { role: 'system', content: '你是 ChainlessChain 助手。'.repeat(50) },
      { role: 'user', content: '列一下最近的 10 个 note' },
    ];
    const fit = w.fit(msgs, 1, [tool]);
    expect(fit).toMatchObject({ trimmed: false, messages: msgs });
    w.observe(fit.messages, [tool], 900);
    expect(w.fit([...msgs, { role: 'assistant', content: '好的' }], 1, [tool]).trimmed).toBe(false);
    expect(tokenizerLoaded()).toBe(false);
  });

  it('the byte bound is never below the exact estimate; a tight budget counts exactly and trims as before', () => {
    const texts = ['hello world', '词 '.repeat(300), '🙂🙃'.repeat(40), 'a <|endoftext|> b', '    \n\t'.repeat(50)];
    for (const content of texts) {
      const exact = createTokenWatchdog(1e9).estimate([{ role: 'user', content }]);
      // A budget just under the exact estimate: the bound cannot fit it, so the exact path decides.
      const w = createTokenWatchdog(Math.ceil(exact / TRIM_THRESHOLD) - 2);
      expect(w.budget).toBeLessThan(exact);
      const fit = w.fit([{ role: 'user', content }], 0);
      expect(fit.estimate).toBe(exact);
    }
    expect(tokenizerLoaded()).toBe(true);
  });
});
