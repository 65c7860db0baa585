// Warm sessions in the `sdk` mode (the REAL Agent SDK) and the `stream-json` mode, with the REAL
// bundled Claude Code against the fake Anthropic API: a follow-up is written to the session's kept child; anything that would make
// the kept child wrong (another model, a dead child, a session continued elsewhere, a terminal using
// it, a stop) gives a fresh child that resumes the session from its file — the answer is the same.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Config } from '../../src/core/config-schema.js';
import type { PermissionHandler, PermissionRequest } from '../../src/engine/engine-types.js';
import { isGroupGone, killGroups, waitGroupGone } from '../fakes/fake-children.js';
import { engineFailure } from '../helpers/engine-failure.js';
import { CLAUDE_BIN, eventLog, RUN_TIMEOUT_MS, startEngineHarness, type EngineHarness } from './claude-harness.js';

let h: EngineHarness;
beforeAll(async () => {
  h = await startEngineHarness();
});
afterAll(async () => h?.close());
afterEach(async () => h?.closeEngines());

/** The process groups started from `from` on (the harness records every group any engine starts). */
const groupsSince = (from: number): number[] => h.pgids.slice(from);

/** The user texts of the last model request (the whole conversation Claude sent). */
function lastConversationTexts(): string {
  const requests = h.fake.messageRequests();
  return JSON.stringify(requests[requests.length - 1]?.body ?? {});
}

function allowing(): { permissions: PermissionHandler; asked: PermissionRequest[] } {
  const asked: PermissionRequest[] = [];
  return {
    asked,
    permissions: {
      requestPermission: async (r) => (asked.push(r), { behavior: 'allow' }),
      askQuestion: async () => ({ cancelled: true }),
    },
  };
}

describe.skipIf(!CLAUDE_BIN).each(['sdk', 'stream-json'] as const)(
  'warm sessions (%s mode, real Claude Code)',
  (mode) => {
    const warmEngine = (tweak?: (config: Config) => void) => h.engine(mode, tweak);

    it(
      'a follow-up is written to the kept child: one process for three turns',
      { timeout: RUN_TIMEOUT_MS },
      async () => {
        const engine = warmEngine();
        const from = h.pgids.length;
        const first = await engine.send({ prompt: 'echo: one', cwd: h.sb.cwd });
        const log = eventLog();
        const second = await engine.send(
          { prompt: 'echo: two', cwd: h.sb.cwd, sessionId: first.sessionId },
          { onEvent: log.onEvent },
        );
        const third = await engine.send({ prompt: 'echo: three', cwd: h.sb.cwd, sessionId: first.sessionId });
        expect([first.text, second.text, third.text]).toEqual(['one', 'two', 'three']);
        expect([second.sessionId, third.sessionId]).toEqual([first.sessionId, first.sessionId]);
        expect(second.isNewSession).toBe(false);
        expect(log.text()).toBe('two');
        expect(groupsSince(from)).toHaveLength(1);
        expect(isGroupGone(groupsSince(from)[0] as number)).toBe(false);
        // The transcript holds all three turns: a cold resume later sees them.
        expect(lastConversationTexts()).toContain('echo: one');
      },
    );

    it('another model gets a fresh child; the kept one is ended', { timeout: RUN_TIMEOUT_MS }, async () => {
      const engine = warmEngine();
      const from = h.pgids.length;
      const first = await engine.send({ prompt: 'echo: a', cwd: h.sb.cwd });
      const kept = groupsSince(from)[0] as number;
      const second = await engine.send({
        prompt: 'echo: b',
        cwd: h.sb.cwd,
        sessionId: first.sessionId,
        model: 'claude-haiku-4-5',
      });
      expect(second.text).toBe('b');
      expect(groupsSince(from)).toHaveLength(2);
      expect(await waitGroupGone(kept, 5000)).toBe(true);
      expect(h.fake.messageRequests().at(-1)?.body).toMatchObject({ model: 'claude-haiku-4-5' });
    });

    it(
      'a kept child killed while idle: the next message still answers, from a fresh child',
      { timeout: RUN_TIMEOUT_MS },
      async () => {
        const engine = warmEngine();
        const from = h.pgids.length;
        const first = await engine.send({ prompt: 'echo: before', cwd: h.sb.cwd });
        killGroups(groupsSince(from));
        expect(await waitGroupGone(groupsSince(from)[0] as number, 5000)).toBe(true);
        const second = await engine.send({ prompt: 'echo: after', cwd: h.sb.cwd, sessionId: first.sessionId });
        expect(second).toMatchObject({ text: 'after', sessionId: first.sessionId });
        expect(groupsSince(from)).toHaveLength(2);
        expect(lastConversationTexts()).toContain('echo: before'); // resumed from the file
      },
    );

    it(
      'a session continued in a terminal meanwhile is resumed fresh, with the terminal’s turn in it',
      { timeout: RUN_TIMEOUT_MS },
      async () => {
        const engine = warmEngine();
        const from = h.pgids.length;
        const first = await engine.send({ prompt: 'echo: from chat', cwd: h.sb.cwd });
        await runTerminalTurn(first.sessionId, 'echo: typed in the terminal');
        const second = await engine.send({ prompt: 'echo: chat again', cwd: h.sb.cwd, sessionId: first.sessionId });
        expect(second.text).toBe('chat again');
        expect(groupsSince(from)).toHaveLength(2);
        expect(lastConversationTexts()).toContain('typed in the terminal');
      },
    );

    it('a terminal claude resuming the session releases the kept child', { timeout: RUN_TIMEOUT_MS }, async () => {
      const engine = warmEngine();
      const from = h.pgids.length;
      const first = await engine.send({ prompt: 'echo: x', cwd: h.sb.cwd });
      const terminal = fakeTerminalClaude(first.sessionId);
      try {
        await sleep(300); // let it start
        const second = await engine.send({ prompt: 'echo: y', cwd: h.sb.cwd, sessionId: first.sessionId });
        expect(second.text).toBe('y');
        expect(groupsSince(from)).toHaveLength(2);
        expect(await waitGroupGone(groupsSince(from)[0] as number, 5000)).toBe(true);
      } finally {
        terminal.kill();
      }
    });

    // Only the sdk mode asks the user (the CLI modes decide by the configured rules).
    it.skipIf(mode !== 'sdk')(
      'a permission prompt of a warm turn goes to that turn’s handler',
      { timeout: RUN_TIMEOUT_MS },
      async () => {
        const engine = warmEngine();
        const from = h.pgids.length;
        const firstHandler = allowing();
        const first = await engine.send(
          { prompt: 'echo: hi', cwd: h.sb.cwd },
          { permissions: firstHandler.permissions },
        );
        const secondHandler = allowing();
        const log = eventLog();
        const second = await engine.send(
          {
            prompt: 'tool: Bash node -e "process.stdout.write(String(6*7))"',
            cwd: h.sb.cwd,
            sessionId: first.sessionId,
          },
          { permissions: secondHandler.permissions, onEvent: log.onEvent },
        );
        expect(firstHandler.asked).toEqual([]);
        expect(secondHandler.asked.map((r) => r.toolName)).toEqual(['Bash']);
        expect(log.types()).toContain('permission_request');
        expect(second.text).toBe('tool-result: ok 42');
        expect(groupsSince(from)).toHaveLength(1);
      },
    );

    it(
      'a stop during a warm turn ends its child; the next message runs on a fresh one',
      { timeout: RUN_TIMEOUT_MS },
      async () => {
        const engine = warmEngine();
        const from = h.pgids.length;
        const first = await engine.send({ prompt: 'echo: start', cwd: h.sb.cwd });
        const ac = new AbortController();
        const e = await engineFailure(
          engine.send(
            { prompt: 'slow: 300', cwd: h.sb.cwd, sessionId: first.sessionId },
            { signal: ac.signal, onEvent: (ev) => ev.type === 'text' && ac.abort() },
          ),
        );
        expect(e.code).toBe('CANCELLED');
        expect(isGroupGone(groupsSince(from)[0] as number)).toBe(true);
        const third = await engine.send({ prompt: 'echo: again', cwd: h.sb.cwd, sessionId: first.sessionId });
        expect(third.text).toBe('again');
        expect(groupsSince(from)).toHaveLength(2);
      },
    );

    it('at most runtime.max_warm children; the least recently used is ended', { timeout: RUN_TIMEOUT_MS }, async () => {
      const engine = warmEngine((c) => (c.runtime.max_warm = 1));
      const from = h.pgids.length;
      await engine.send({ prompt: 'echo: s1', cwd: h.sb.cwd });
      await engine.send({ prompt: 'echo: s2', cwd: h.sb.cwd });
      const [older, newer] = groupsSince(from) as [number, number];
      expect(await waitGroupGone(older, 5000)).toBe(true);
      expect(isGroupGone(newer)).toBe(false);
    });

    it(
      'a child unused for runtime.warm_idle_ms is ended; close() ends the rest',
      { timeout: RUN_TIMEOUT_MS },
      async () => {
        const brief = warmEngine((c) => (c.runtime.warm_idle_ms = 300));
        const from = h.pgids.length;
        await brief.send({ prompt: 'echo: idle', cwd: h.sb.cwd });
        expect(await waitGroupGone(groupsSince(from)[0] as number, 5000)).toBe(true);

        const long = warmEngine();
        const mark = h.pgids.length;
        await long.send({ prompt: 'echo: kept', cwd: h.sb.cwd });
        expect(isGroupGone(groupsSince(mark)[0] as number)).toBe(false);
        await long.close?.();
        expect(isGroupGone(groupsSince(mark)[0] as number)).toBe(true);
      },
    );
  },
);

/** One turn typed in a terminal: a bare `claude -p --resume` of the session, as a user would run it. */
async function runTerminalTurn(sessionId: string, prompt: string): Promise<void> {
  const child = spawn(CLAUDE_BIN as string, ['-p', `--resume=${sessionId}`, '--output-format', 'json'], {
    cwd: h.sb.cwd,
    env: h.sb.env,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  child.stdin.end(prompt);
  child.stdout.resume();
  child.stderr.resume();
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  expect(code).toBe(0);
}

/**
 * A process that looks like a terminal `claude --resume <id>` to the activity check (its argv[0] is
 * named `claude`), started through a shell so it is not a child of this process.
 */
function fakeTerminalClaude(sessionId: string): { kill(): void } {
  const dir = fs.mkdtempSync(path.join(h.sb.home, 'term-'));
  const exe = path.join(dir, 'claude');
  fs.symlinkSync(process.execPath, exe);
  const shell = spawn(
    'sh',
    ['-c', `"$0" -e "setTimeout(() => {}, 20000)" -- --resume "$1" & echo $! ; wait`, exe, sessionId],
    { stdio: ['ignore', 'pipe', 'ignore'], detached: true },
  );
  return {
    kill: () => {
      try {
        process.kill(-(shell.pid as number), 'SIGKILL');
      } catch {
        // already gone
      }
    },
  };
}
