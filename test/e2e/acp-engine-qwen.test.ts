// The product's ACP engine driving the REAL Qwen Code offline (against the fake chat-completions
// API): resume with history, an allowed and a denied command, a stop. Slow (Qwen starts in 9–14 s).
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { qwenCliScript } from '../fakes/agent-sandbox/agent-binaries.js';
import { engineFailure } from '../helpers/engine-failure.js';
import { waitNoLeftovers } from './claude-harness.js';
import { MARKER_COMMAND, MARKER, QWEN_CASE_MS, answering, streamed, useRig } from './acp-real-rig.js';

describe.skipIf(qwenCliScript() === null)('the ACP engine with the real Qwen Code', () => {
  const current = useRig('qwen');

  it(
    'new session, then RUN allowed in a resumed session (new process): the command ran, history was loaded',
    async () => {
      const rg = current();
      const first = rg.run(rg.engine(), { prompt: 'hello qwen' });
      const created = await first.promise;
      expect(first.events[0]?.type).toBe('session');
      expect(created).toMatchObject({ agent: 'qwen', isNewSession: true, stopReason: 'end_turn' });
      expect(first.text()).toContain('ok: hello qwen');

      const handler = answering({ behavior: 'allow' });
      const second = rg.run(
        rg.engine(),
        { prompt: `RUN: ${MARKER_COMMAND}`, sessionId: created.sessionId },
        { permissions: handler },
      );
      const result = await second.promise;
      expect(result).toMatchObject({ sessionId: created.sessionId, isNewSession: false });
      expect(handler.asked).toHaveLength(1);
      expect(handler.asked[0]?.kind).toBe('execute');
      expect(fs.existsSync(path.join(rg.sb.cwd, 'ran-marker'))).toBe(true);
      expect(result.text).toContain(MARKER);
      const loaded = streamed(rg.fake).find((c) => c.lastUserText === `RUN: ${MARKER_COMMAND}`);
      expect(loaded?.userTexts).toEqual(expect.arrayContaining(['hello qwen']));
      // The first turn's answer is in the loaded history: Qwen Code writes it to its session file
      // after answering the prompt, so the engine must not stop it before that.
      expect(JSON.stringify(rg.fake.requests.find((q) => JSON.stringify(q.body).includes('RUN: '))?.body)).toContain(
        'ok: hello qwen',
      );
    },
    QWEN_CASE_MS,
  );

  it(
    'RUN denied → nothing ran; cancel mid-turn → CANCELLED with no Qwen process left',
    async () => {
      const rg = current();
      const handler = answering({ behavior: 'deny' });
      const denied = await rg.run(rg.engine(), { prompt: `RUN: ${MARKER_COMMAND}` }, { permissions: handler }).promise;
      expect(handler.asked).toHaveLength(1);
      expect(fs.existsSync(path.join(rg.sb.cwd, 'ran-marker'))).toBe(false);
      expect(denied.text).not.toContain(MARKER);
      expect(denied.permissionDenials).toHaveLength(1);

      const stop = new AbortController();
      const err = await engineFailure(
        rg.run(
          rg.engine(),
          { prompt: 'SLOW: 400' },
          { signal: stop.signal, onEvent: (e) => e.type === 'text' && stop.abort() },
        ).promise,
      );
      expect(err.code).toBe('CANCELLED');
      expect(await waitNoLeftovers(rg.sb.home, 10_000)).toEqual([]);
    },
    QWEN_CASE_MS,
  );
});
