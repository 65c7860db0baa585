// The ACP engine end to end against the fake ACP agent (a real child process speaking ACP over
// stdio through the SDK's agent side): a new session's mapping, resume, the model list. Permissions
// and stopping: acp-engine-control.test.ts.
import fs from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { isGroupAlive } from '../../process/terminate-group.js';
import { engineFailure } from '../../../test/helpers/engine-failure.js';
import { createAcpEngine } from './create-acp-engine.js';
import {
  useAcpFixture,
  fx,
  harness,
  run,
  agentPids,
  wrappedUp,
  guardDeps,
  recordingLogger,
  type Logged,
  ACP_MODES,
  setWarm,
} from '../../../test/fakes/fake-acp-agent/acp-engine-harness.js';

useAcpFixture();

describe.each(ACP_MODES)('$name', ({ warm }) => {
  beforeEach(() => setWarm(warm));

  describe('a new session', () => {
    it('streams the text, names the session at once and ends the agent after the turn (its wrap-up) or keeps it', async () => {
      const h = harness();
      const { events, promise } = run(h, 'hello there');
      const result = await promise;
      expect(events[0]).toMatchObject({ type: 'session' });
      const sessionId = (events[0] as { sessionId: string }).sessionId;
      expect(sessionId).toMatch(/^fake-/);
      const texts = events.filter((e) => e.type === 'text').map((e) => (e as { delta: string }).delta);
      expect(texts.length).toBe(2);
      expect(result).toMatchObject({
        text: 'echo: hello there',
        sessionId,
        stopReason: 'end_turn',
        numTurns: 1,
        costUsd: null,
        isNewSession: true,
        agent: 'fakeagent',
        usage: { inputTokens: 11, outputTokens: 7 },
        model: 'fake-large',
      });
      const calls = fx.calls();
      expect(calls.find((c) => c.method === 'initialize')?.params).toMatchObject({
        clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false },
      });
      expect(calls.find((c) => c.method === 'session/new')?.params).toEqual({ cwd: fx.cwd, mcpServers: [] });
      await wrappedUp(sessionId);
      if (warm) {
        expect(h.pool?.sessions()).toEqual([sessionId]);
        for (const pid of agentPids()) expect(isGroupAlive(pid)).toBe(true);
        await h.engine.close();
      }
      for (const pid of agentPids()) expect(isGroupAlive(pid)).toBe(false);
    });

    it.skipIf(warm)(
      'after the turn, the agent is left endSettleMs to save it, then its stdin is closed and it exits',
      async () => {
        const engine = createAcpEngine(
          { name: 'fakeagent', command: fx.command, env: fx.env() },
          { guard: guardDeps(recordingLogger([])), killGraceMs: 300, endSettleMs: 700 },
        );
        const result = await engine.send({ prompt: 'save-late now', cwd: fx.cwd });
        expect(result.text).toBe('echo: save-late now');
        await wrappedUp(result.sessionId);
        // Written after the prompt response: a kill or the end of stdin right after the turn loses it.
        expect(fx.calls().filter((c) => c.method === 'saved')).toEqual([
          expect.objectContaining({ params: { sessionId: result.sessionId } }),
        ]);
        for (const pid of agentPids()) expect(isGroupAlive(pid)).toBe(false);
      },
    );

    it.skipIf(warm)('an agent that stays after the end of its input is killed once endGraceMs is over', async () => {
      const logs: Logged[] = [];
      const engine = createAcpEngine(
        { name: 'fakeagent', command: fx.command, env: fx.env() },
        { guard: guardDeps(recordingLogger(logs)), killGraceMs: 300, endSettleMs: 0, endGraceMs: 200 },
      );
      const result = await engine.send({ prompt: 'linger please', cwd: fx.cwd });
      expect(result.text).toBe('echo: linger please');
      await wrappedUp(result.sessionId);
      expect(agentPids()).toHaveLength(1);
      for (const pid of agentPids()) expect(isGroupAlive(pid)).toBe(false);
    });

    it('maps thoughts to thinking, not to the answer', async () => {
      const { events, promise } = run(harness(), 'think hard');
      const result = await promise;
      expect(events).toContainEqual({ type: 'thinking', delta: 'pondering' });
      expect(result.text).toBe('echo: think hard');
    });

    it('maps a plan', async () => {
      const { events, promise } = run(harness(), 'plan it');
      await promise;
      expect(events).toContainEqual({
        type: 'plan',
        entries: [
          { content: 'read the code', status: 'completed' },
          { content: 'write the fix', status: 'in_progress' },
          { content: 'run the tests', status: 'pending' },
        ],
      });
    });

    it('takes usage_update as the input tokens when the response has no usage', async () => {
      const result = await run(harness(), 'usage please').promise;
      expect(result.usage).toEqual({ inputTokens: 1234 });
    });

    it('skips malformed updates and unknown kinds (each logged once) and finishes the turn', async () => {
      const h = harness();
      const result = await run(h, 'malformed').promise;
      expect(result.text).toBe('after malformed');
      const skipped = h.logs.filter((l) => l.msg === 'ACP update skipped').map((l) => String(l.fields?.what));
      expect(skipped.filter((w) => w.includes('mystery_update'))).toHaveLength(1);
      expect(skipped.some((w) => w.includes('agent_message_chunk'))).toBe(true);
      expect(skipped.some((w) => w.includes('without a sessionUpdate'))).toBe(true);
      expect(skipped.some((w) => w.includes('toolCallId'))).toBe(true);
      expect(skipped.some((w) => w.includes('plan'))).toBe(true);
    });

    it('sends images inline with their sniffed type when the agent takes images', async () => {
      const png = path.join(fx.root, 'shot.dat');
      fs.writeFileSync(png, Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]));
      const result = await run(harness(), 'blocks', { imagePaths: [png] }).promise;
      expect(result.text).toBe('text:blocks\nimage:image/png:true');
    });

    it('names the image paths in the text when the agent takes no images', async () => {
      const png = path.join(fx.root, 'shot.png');
      fs.writeFileSync(png, Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
      const result = await run(harness({ FAKE_ACP_NO_IMAGE: '1' }), 'blocks', { imagePaths: [png] }).promise;
      expect(result.text).toBe(`text:blocks\n\n[Attached files: ${png}]`);
    });

    it('selects the requested model through session/set_model', async () => {
      const result = await run(harness(), 'hello', { model: 'fake-small' }).promise;
      expect(result.model).toBe('fake-small');
      expect(fx.calls().find((c) => c.method === 'session/set_model')?.params).toMatchObject({ modelId: 'fake-small' });
    });

    it('keeps the default model when the agent refuses the requested one', async () => {
      const h = harness();
      const result = await run(h, 'hello', { model: 'no-such-model' }).promise;
      expect(result.model).toBe('fake-large');
      expect(h.logs.some((l) => l.msg.includes('refused the model'))).toBe(true);
    });
  });

  describe('resuming', () => {
    it('loads the session; the replayed history (also after the load response) is not this turn', async () => {
      const h = harness();
      const { events, promise } = run(h, 'again', { sessionId: 'abc-123' });
      const result = await promise;
      expect(events[0]).toEqual({ type: 'session', sessionId: 'abc-123' });
      expect(result.text).toBe('echo: again');
      expect(result.isNewSession).toBe(false);
      expect(JSON.stringify(events)).not.toContain('REPLAYED');
      expect(fx.calls().find((c) => c.method === 'session/load')?.params).toEqual({
        sessionId: 'abc-123',
        cwd: fx.cwd,
        mcpServers: [],
      });
    });

    it('an agent without loadSession → LOAD_UNSUPPORTED, nothing loaded', async () => {
      const err = await engineFailure(
        run(harness({ FAKE_ACP_NO_LOAD: '1' }), 'again', { sessionId: 'abc-123' }).promise,
      );
      expect(err.code).toBe('LOAD_UNSUPPORTED');
      expect(err.userMessage).toContain('fakeagent');
      expect(fx.calls().some((c) => c.method === 'session/load' || c.method === 'session/prompt')).toBe(false);
      for (const pid of agentPids()) expect(isGroupAlive(pid)).toBe(false);
    });

    it('a session the agent does not know → SESSION_NOT_FOUND', async () => {
      const err = await engineFailure(run(harness(), 'again', { sessionId: 'gone-42' }).promise);
      expect(err.code).toBe('SESSION_NOT_FOUND');
    });
  });

  describe('listModels', () => {
    it('asks the agent once, then answers from what runs reported', async () => {
      const h = harness();
      expect(await h.engine.listModels(undefined, fx.cwd)).toEqual([
        { id: 'fake-large', name: 'Fake Large' },
        { id: 'fake-small', name: 'Fake Small' },
      ]);
      const probes = fx.calls().filter((c) => c.method === 'session/new').length;
      expect(probes).toBe(1);
      await h.engine.listModels(undefined, fx.cwd);
      expect(fx.calls().filter((c) => c.method === 'session/new').length).toBe(1);
      for (const pid of agentPids()) expect(isGroupAlive(pid)).toBe(false);
    });

    it('is empty when the agent names no models, or cannot be started', async () => {
      expect(await harness({ FAKE_ACP_NO_MODELS: '1' }).engine.listModels(undefined, fx.cwd)).toEqual([]);
      expect(await harness({}, [path.join(fx.root, 'missing')]).engine.listModels(undefined, fx.cwd)).toEqual([]);
    });
  });
});
