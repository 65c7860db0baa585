// A permission an ACP agent asks for that nobody answers: the bridge's prompt times out
// (sdk.timeout_ms), the card says so, the agent gets its reject option, the tool never runs and
// the turn still ends with the agent's answer — nothing hangs.
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAcpEngine } from '../../src/agents/acp/create-acp-engine.js';
import { PendingPrompts } from '../../src/bridge/prompts/pending-prompts.js';
import type { CardReply } from '../../src/bridge/reply-model.js';
import { defaultConfig } from '../../src/core/default-config.js';
import { silentLogger } from '../../src/core/logger.js';
import { resolvePaths } from '../../src/core/paths.js';
import { defaultOriginOf } from '../../src/engine/guarded-engine.js';
import { Semaphore, SessionLocks } from '../../src/engine/session-lock.js';
import { createAcpAgentFixture, type AcpAgentFixture } from '../fakes/fake-acp-agent/acp-agent-fixture.js';

let fx: AcpAgentFixture;
beforeEach(() => {
  fx = createAcpAgentFixture();
});
afterEach(() => fx.cleanup());

describe('an ACP permission request nobody answers', () => {
  it('times out as a denial: the agent gets reject_once, the card says it timed out, the turn ends', async () => {
    const config = defaultConfig();
    const engine = createAcpEngine(
      { name: 'fakeagent', label: 'Fake Agent', command: fx.command, env: fx.env() },
      {
        guard: {
          config,
          paths: resolvePaths({ HOME: fx.home, CC_LINKER_HOME: path.join(fx.root, 'cc') }),
          logger: silentLogger,
          lang: 'en',
          locks: new SessionLocks(),
          slots: new Semaphore(2),
          originOf: defaultOriginOf,
        },
        killGraceMs: 300,
      },
    );
    const prompts = new PendingPrompts({ timeoutMs: 300, lang: 'en' });
    const cards: CardReply[] = [];
    const sender = {
      send: async (card: CardReply) => {
        cards.push(card);
        return { messageId: 'card-1' };
      },
      update: async (_id: string, card: CardReply) => void cards.push(card),
    };
    const result = await engine.send(
      { agent: 'fakeagent', prompt: 'tool', cwd: fx.cwd, userId: 'ou_owner' },
      { permissions: prompts.handlerFor('ou_owner', sender, 'm1', 'Fake Agent') },
    );
    // The fake agent answers with the option it was given: `cancel` is its reject_once.
    expect(result.text).toBe('outcome: cancel');
    expect(result.permissionDenials).toHaveLength(1);
    expect(cards[0]?.title).toBe('🔐 Fake Agent wants to use a tool');
    expect(JSON.stringify(cards.at(-1))).toContain('Not confirmed in time; denied automatically');
    expect(prompts.list('ou_owner')).toEqual([]);
  }, 20_000);
});
