import { describe, expect, it } from 'vitest';
import { AgentRouter } from './agent-router.js';
import { EngineError } from './engine-error.js';
import type { AgentEngine, EngineRequest, EngineResult } from './engine-types.js';

/** An engine that answers with its own name and remembers what it was asked. */
function named(agent: string, mode: AgentEngine['mode'] = 'acp'): AgentEngine & { seen: EngineRequest[] } {
  const seen: EngineRequest[] = [];
  return {
    agent,
    mode,
    seen,
    send: async (request): Promise<EngineResult> => {
      seen.push(request);
      return {
        text: `from ${agent}`,
        sessionId: 's1',
        costUsd: null,
        durationMs: 1,
        numTurns: 1,
        stopReason: 'end_turn',
        permissionDenials: [],
        isNewSession: false,
      };
    },
    transcriptOf: (id) => `/t/${agent}/${id}`,
    listModels: async () => [{ id: `${agent}-model` }],
  };
}

describe('AgentRouter', () => {
  const claude = named('claude', 'sdk');
  const codex = named('codex');
  const router = new AgentRouter([claude, codex], 'en');

  it('sends a request to the engine of its agent, and to Claude Code when it names none', async () => {
    expect((await router.send({ agent: 'codex', prompt: 'a', cwd: '/' })).text).toBe('from codex');
    expect((await router.send({ prompt: 'b', cwd: '/' })).text).toBe('from claude');
    expect(codex.seen.map((r) => r.prompt)).toEqual(['a']);
    expect(claude.seen.map((r) => r.prompt)).toEqual(['b']);
  });

  it('refuses an agent that is not configured, naming the ones that are, and runs nothing', async () => {
    const before = claude.seen.length + codex.seen.length;
    const err = await router.send({ agent: 'kodex', prompt: 'c', cwd: '/' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(EngineError);
    expect((err as EngineError).code).toBe('AGENT_UNKNOWN');
    expect((err as EngineError).userMessage).toBe('There is no agent named "kodex". Available: claude, codex');
    expect(claude.seen.length + codex.seen.length).toBe(before);
  });

  it('answers transcripts and models per agent; the mode is Claude Code’s', async () => {
    expect(router.transcriptOf('x', '/', 'codex')).toBe('/t/codex/x');
    expect(router.transcriptOf('x', '/')).toBe('/t/claude/x');
    expect(router.transcriptOf('x', '/', 'nobody')).toBeNull();
    expect(await router.listModels('codex')).toEqual([{ id: 'codex-model' }]);
    expect(router.mode).toBe('sdk');
    expect(router.agents()).toEqual(['claude', 'codex']);
  });
});
