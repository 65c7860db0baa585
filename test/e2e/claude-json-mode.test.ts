// The `json` engine mode with the REAL Claude Code binary against the fake Anthropic API.
// 6 real runs: new session (CJK, ~ cwd) + resume, unknown resume, a denied tool, a persisted
// "always allow" rule, cancel mid-run.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PermissionStore } from '../../src/claude/permission-store.js';
import { readRegistry } from '../../src/sessions/registry/registry.js';
import { encodeProjectDir } from '../../src/sessions/scan/project-dir.js';
import {
  allGroupsGone,
  CLAUDE_BIN,
  eventLog,
  RUN_TIMEOUT_MS,
  startEngineHarness,
  until,
  waitNoLeftovers,
  type EngineHarness,
} from './claude-harness.js';
import { engineFailure } from '../helpers/engine-failure.js';

let h: EngineHarness;
beforeAll(async () => {
  h = await startEngineHarness();
});
afterAll(async () => h?.close());

const failure = engineFailure;

describe.skipIf(!CLAUDE_BIN)('json mode, real claude', () => {
  it(
    'new session with a CJK prompt in a ~ cwd, registered active, then resumed',
    { timeout: RUN_TIMEOUT_MS },
    async () => {
      const dir = path.join(h.sb.home, '项目 dir');
      fs.mkdirSync(dir);
      const engine = h.engine('json');
      const log = eventLog();
      const first = await engine.send(
        { prompt: 'echo: 你好，世界', cwd: '~/项目 dir', userId: 'ou_owner' },
        { onEvent: log.onEvent },
      );
      expect(first).toMatchObject({ text: '你好，世界', isNewSession: true, numTurns: 1, stopReason: 'end_turn' });
      expect(first.costUsd).toBeGreaterThan(0);
      expect(log.events[0]).toEqual({ type: 'session', sessionId: first.sessionId, model: expect.any(String) });
      expect(log.text()).toBe('你好，世界');
      const file = path.join(h.sb.home, '.claude', 'projects', encodeProjectDir(dir), `${first.sessionId}.jsonl`);
      expect(fs.existsSync(file)).toBe(true);
      expect((await readRegistry(h.paths)).registry.sessions[first.sessionId]).toMatchObject({
        status: 'active',
        jsonl_path: file,
        cwd: dir,
        origin: 'feishu',
        feishu_user_id: 'ou_owner',
      });

      const second = await engine.send({ prompt: 'echo: again', cwd: '~/项目 dir', sessionId: first.sessionId });
      expect(second).toMatchObject({ text: 'again', sessionId: first.sessionId, isNewSession: false });
      const request = h.fake.messageRequests().at(-1)?.body as { messages: unknown[] };
      expect(JSON.stringify(request.messages)).toContain('你好，世界'); // the earlier turn was resumed
      expect((await readRegistry(h.paths)).registry.sessions[first.sessionId]?.last_assistant_preview).toBe('again');
    },
  );

  it('an unknown session is SESSION_NOT_FOUND and makes no API call', { timeout: RUN_TIMEOUT_MS }, async () => {
    const before = h.fake.messageRequests().length;
    const e = await failure(
      h.engine('json').send({ prompt: 'echo: x', cwd: h.sb.cwd, sessionId: '00000000-0000-4000-8000-00000000dead' }),
    );
    expect(e.code).toBe('SESSION_NOT_FOUND');
    expect(e.userMessage).toContain('/switch');
    expect(h.fake.messageRequests().length).toBe(before);
  });

  it(
    'a tool needing approval is denied (no interactive approval in json mode)',
    { timeout: RUN_TIMEOUT_MS },
    async () => {
      const r = await h.engine('json').send({ prompt: 'tool: Bash node -e 1', cwd: h.sb.cwd });
      expect(r.permissionDenials).toEqual([
        { toolName: 'Bash', toolUseId: expect.any(String), input: { command: 'node -e 1' } },
      ]);
      expect(r.text).toMatch(/^tool-result: error/);
    },
  );

  it(
    'a persisted "always allow" rule is passed as --allowedTools and the tool runs',
    { timeout: RUN_TIMEOUT_MS },
    async () => {
      await new PermissionStore(h.paths.permissionsFile).add('Bash(node -e:*)');
      const r = await h.engine('json').send({ prompt: 'tool: Bash node -e 1', cwd: h.sb.cwd });
      expect(r.permissionDenials).toEqual([]);
      expect(r.text).toMatch(/^tool-result: ok/);
      fs.rmSync(h.paths.permissionsFile);
    },
  );

  it('cancel mid-run: CANCELLED, and no process of the group is left', { timeout: RUN_TIMEOUT_MS }, async () => {
    const ac = new AbortController();
    const before = h.fake.messageRequests().length;
    const run = h.engine('json').send({ prompt: 'slow: 300', cwd: h.sb.cwd }, { signal: ac.signal });
    await until(() => h.fake.messageRequests().length > before);
    ac.abort();
    const e = await failure(run);
    expect(e.code).toBe('CANCELLED');
    expect(allGroupsGone(h.pgids)).toBe(true);
    expect(await waitNoLeftovers(h.sb.home, 0)).toEqual([]);
  });
});
