// Queue cards with the REAL Claude Code (sdk mode, through our runner) against the fake Anthropic
// API, driven through the bridge and an in-memory channel: a burst sent while the session's turn
// streams gets "Queued (#1)", "(#2)", "(#3)" at once, in order; each card becomes its own answer
// (no second card); the model gets each prompt once, in arrival order; nothing is dropped.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { CardReply } from '../../src/bridge/reply-model.js';
import { bridgeHarness, OWNER, type BridgeHarness } from '../fakes/bridge-harness.js';
import {
  CLAUDE_BIN,
  leftovers,
  RUN_TIMEOUT_MS,
  startEngineHarness,
  until,
  type EngineHarness,
} from './claude-harness.js';

let e: EngineHarness;
let h: BridgeHarness | undefined;
beforeAll(async () => {
  e = await startEngineHarness();
});
afterAll(async () => e?.close());
afterEach(async () => {
  await h?.cleanup();
  h = undefined;
});

/** What a finished message shows: its final card's text, or its last update's. */
function shown(b: BridgeHarness, i: number): string {
  const m = b.channel.messages[i];
  const card = (m?.finished ?? m?.updates.at(-1) ?? m?.reply) as CardReply | undefined;
  return (card?.sections ?? []).map((s) => ('text' in s ? s.text : '')).join('\n');
}

describe.skipIf(!CLAUDE_BIN || process.platform !== 'linux')('queue cards with the real Claude Code', () => {
  it(
    'a burst behind a streaming turn: Queued (#1..#3) in order, each card becomes its answer, one model call each',
    {
      timeout: RUN_TIMEOUT_MS,
    },
    async () => {
      h = await bridgeHarness({ bridge: { engine: e.engine('sdk'), lang: 'en' } });
      const b = h;
      await b.mapping.setPendingNew(OWNER, { cwd: e.sb.cwd });
      await b.bridge.accept(b.msg('echo: session made'));
      await b.bridge.whenIdle();
      expect(shown(b, 0)).toContain('session made');

      await b.bridge.accept(b.msg('slow: 150'));
      await until(() => b.channel.messages[1]?.streamStates.some((s) => s.text.includes('tick01')) ?? false, 30_000);
      const burst = ['echo: first queued', 'echo: second queued', 'echo: third queued'];
      for (const text of burst) await b.bridge.accept(b.msg(text));
      await until(() => b.channel.messages.length === 5, 10_000);
      expect([2, 3, 4].map((i) => (b.channel.messages[i]?.reply as CardReply).title)).toEqual([
        '⏳ Queued (#1)',
        '⏳ Queued (#2)',
        '⏳ Queued (#3)',
      ]);

      await b.bridge.whenIdle();
      // The same five messages: every queued card was turned into its own answer.
      expect(b.channel.messages).toHaveLength(5);
      expect(shown(b, 1)).toContain('tick19');
      expect([2, 3, 4].map((i) => shown(b, i))).toEqual([
        expect.stringContaining('first queued'),
        expect.stringContaining('second queued'),
        expect.stringContaining('third queued'),
      ]);
      const prompts = e.fake
        .messageRequests()
        .map((r) => r.scriptRequest?.lastUserText ?? '')
        .filter((t) => burst.includes(t) || t === 'slow: 150');
      expect(prompts).toEqual(['slow: 150', ...burst]);
      expect(await b.spool.count('done')).toBe(5);
      await e.closeEngines(); // the session's kept child (warm sessions) ends with its engine
      expect(leftovers(e.sb.home)).toEqual([]);
    },
  );
});
