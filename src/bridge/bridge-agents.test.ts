// A session of another agent than Claude Code goes through the same pipeline: the engine request
// names the agent, later plain texts keep it, the card carries the agent's name.
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { bridgeHarness, OWNER, type BridgeHarness } from '../../test/fakes/bridge-harness.js';
import { fakeSession } from '../../test/fakes/fake-session-directory.js';
import type { AgentCatalog } from './commands/agent-catalog.js';
import type { CardReply } from './reply-model.js';

let h: BridgeHarness;
afterEach(async () => {
  await h?.cleanup();
});

const agents: AgentCatalog = {
  list: () => [
    { name: 'claude', label: 'Claude Code' },
    { name: 'codex', label: 'Codex' },
  ],
  defaultAgent: 'claude',
  models: async () => [],
};

const CODEX_ID = '019a0000-aaaa-7bbb-8ccc-000000000002';

describe('Bridge with several agents', () => {
  it('/new --agent runs the agent; the follow-up resumes its session with the same agent; the card names it', async () => {
    h = await bridgeHarness({ bridge: { agents } });
    await h.bridge.accept(h.msg('/new ~/Git/alpha --agent codex -- first'));
    await h.bridge.whenIdle();
    await h.bridge.accept(h.msg('second'));
    await h.bridge.whenIdle();
    const [first, second] = h.engine.requests;
    expect(first).toMatchObject({ agent: 'codex', prompt: 'first', cwd: path.join(h.home, 'Git/alpha') });
    expect(first?.sessionId).toBeUndefined();
    expect(second).toMatchObject({ agent: 'codex', prompt: 'second', sessionId: h.engine.created[0] });
    const cards = h.channel.messages.map((m) => m.finished as CardReply | undefined).filter(Boolean);
    expect(cards.at(-1)?.title).toBe('✅ Codex');
  });

  it('a Claude Code session keeps running without an agent field, titled as before', async () => {
    h = await bridgeHarness({ bridge: { agents } });
    await h.bridge.accept(h.msg('/new ~/Git/alpha -- hello'));
    await h.bridge.whenIdle();
    expect(h.engine.requests[0]).not.toHaveProperty('agent');
    expect((h.channel.messages.at(-1)?.finished as CardReply).title).toBe('✅ Claude');
  });

  it('/switch to a terminal session of another agent continues it with that agent', async () => {
    h = await bridgeHarness({ bridge: { agents } });
    const alpha = path.join(h.home, 'Git/alpha');
    h.sessions.sessions.set(CODEX_ID, fakeSession(CODEX_ID, { cwd: alpha, agent: 'codex' }));
    await h.bridge.accept(h.msg(`/switch ${CODEX_ID.slice(0, 8)}`));
    await h.bridge.accept(h.msg('go on'));
    await h.bridge.whenIdle();
    expect(h.engine.requests).toEqual([
      expect.objectContaining({ agent: 'codex', sessionId: CODEX_ID, prompt: 'go on', userId: OWNER }),
    ]);
  });

  it("the agent's plan shows on the streaming card as one line", async () => {
    h = await bridgeHarness({ bridge: { agents } });
    h.engine.onSend = (_req, opts) => {
      opts.onEvent?.({
        type: 'plan',
        entries: [
          { content: 'Read the code', status: 'completed' },
          { content: 'Run the tests', status: 'in_progress' },
        ],
      });
    };
    await h.bridge.accept(h.msg('/new ~/Git/alpha --agent codex -- plan it'));
    await h.bridge.whenIdle();
    const states = h.channel.messages.flatMap((m) => m.streamStates);
    expect(states.map((st) => st.plan)).toContain('📋 1/2 · Run the tests');
  });
});
