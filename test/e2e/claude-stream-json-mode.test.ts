// The `stream-json` engine mode with the REAL Claude Code binary against the fake Anthropic API,
// warm and cold. 5 real runs each: streamed new session + resume, unknown resume, a tool allowed by
// claude.allowed_tools, an idle-timeout kill.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Config } from '../../src/core/config-schema.js';
import {
  allGroupsGone,
  CLAUDE_BIN,
  eventLog,
  RUN_TIMEOUT_MS,
  startEngineHarness,
  waitNoLeftovers,
  type EngineHarness,
} from './claude-harness.js';
import { engineFailure } from '../helpers/engine-failure.js';

let h: EngineHarness;
beforeAll(async () => {
  h = await startEngineHarness();
});
afterAll(async () => h?.close());
afterEach(async () => h?.closeEngines());

const failure = engineFailure;

// Every case runs twice: with the session's child kept between turns (the default) and without.
describe.skipIf(!CLAUDE_BIN).each([
  { name: 'warm (the default)', warmIdleMs: undefined },
  { name: 'cold (runtime.warm_idle_ms = 0)', warmIdleMs: 0 },
])('stream-json mode, real claude, $name', ({ warmIdleMs }) => {
  const streamEngine = (tweak?: (config: Config) => void) =>
    h.engine('stream-json', (config) => {
      if (warmIdleMs !== undefined) config.runtime.warm_idle_ms = warmIdleMs;
      tweak?.(config);
    });

  it('streams session, thinking and text deltas; resume keeps the session', { timeout: RUN_TIMEOUT_MS }, async () => {
    const engine = streamEngine();
    const log = eventLog();
    const r = await engine.send({ prompt: 'think: 慢慢想', cwd: h.sb.cwd }, { onEvent: log.onEvent });
    expect(r).toMatchObject({ text: 'thought: 慢慢想', isNewSession: true });
    expect(log.events[0]).toMatchObject({ type: 'session', sessionId: r.sessionId });
    expect(log.events).toContainEqual({ type: 'thinking', delta: '慢慢想' });
    expect(log.text()).toBe('thought: 慢慢想');
    expect(log.types()).toContain('status'); // --include-partial-messages (stream.enabled)

    const again = await engine.send({ prompt: 'echo: more', cwd: h.sb.cwd, sessionId: r.sessionId });
    expect(again).toMatchObject({ text: 'more', sessionId: r.sessionId, isNewSession: false });
  });

  it('an unknown session is SESSION_NOT_FOUND', { timeout: RUN_TIMEOUT_MS }, async () => {
    const e = await failure(
      streamEngine().send({ prompt: 'echo: x', cwd: h.sb.cwd, sessionId: '00000000-0000-4000-8000-00000000dead' }),
    );
    expect(e.code).toBe('SESSION_NOT_FOUND');
  });

  it(
    'claude.allowed_tools lets a tool run; tool_use and tool_result are streamed',
    { timeout: RUN_TIMEOUT_MS },
    async () => {
      const log = eventLog();
      const r = await streamEngine((c) => (c.claude.allowed_tools = ['Read', 'Bash(node -e:*)'])).send(
        { prompt: 'tool: Bash node -e "console.log(42)"', cwd: h.sb.cwd },
        { onEvent: log.onEvent },
      );
      expect(r.permissionDenials).toEqual([]);
      expect(r.text).toBe('tool-result: ok 42');
      const use = log.events.find((e) => e.type === 'tool_use');
      expect(use).toMatchObject({ name: 'Bash', summary: 'node -e "console.log(42)"' });
      expect(log.events).toContainEqual({
        type: 'tool_result',
        id: (use as { id: string }).id,
        ok: true,
        summary: '42',
      });
    },
  );

  it(
    'idle timeout kills a silent run: TIMEOUT_IDLE, no process of the group left',
    { timeout: RUN_TIMEOUT_MS },
    async () => {
      const e = await failure(
        streamEngine((c) => (c.runtime.stale_timeout_ms = 1500)).send({ prompt: 'hang: 30000', cwd: h.sb.cwd }),
      );
      expect(e.code).toBe('TIMEOUT_IDLE');
      expect(allGroupsGone(h.pgids)).toBe(true);
      expect(await waitNoLeftovers(h.sb.home, 0)).toEqual([]);
    },
  );
});
