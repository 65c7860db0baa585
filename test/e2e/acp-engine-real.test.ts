// The product's ACP engine (`createAcpEngine`, wrapped in the real `GuardedEngine`) driving the REAL
// Codex offline (codex-acp's native binary against the fake Responses API). Each cold `send` is one
// agent process; "a new process" below is a fresh engine (as after a daemon restart) on the same
// files. Assertions are on what the engine reports, what the fake model was asked, and the disk.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { AgentPermissionStore } from '../../src/agents/acp/agent-permission-store.js';
import { agentEngines } from '../../src/cli/start/agent-engines.js';
import type { Config } from '../../src/core/config-schema.js';
import { defaultConfig } from '../../src/core/default-config.js';
import { resolvePaths } from '../../src/core/paths.js';
import type { AgentEngine } from '../../src/engine/engine-types.js';
import { createRegistrySessionRecorder } from '../../src/engine/registry-session-recorder.js';
import { Semaphore, SessionLocks } from '../../src/engine/session-lock.js';
import { readRegistry } from '../../src/sessions/registry/registry.js';
import { codexAcpBinary } from '../fakes/agent-sandbox/agent-binaries.js';
import type { AcpConversation } from '../../src/agents/acp/acp-conversation.js';
import type { WarmPool } from '../../src/engine/warm-pool.js';
import { setTimeout as sleep } from 'node:timers/promises';
import { FAKE_API_KEY } from '../fakes/agent-sandbox/agent-sandbox.js';
import { engineFailure } from '../helpers/engine-failure.js';
import { waitNoLeftovers } from './claude-harness.js';
import {
  MARKER_COMMAND,
  MARKER,
  CODEX_CASE_MS,
  answering,
  sessionOf,
  streamed,
  lastBody,
  useRig,
} from './acp-real-rig.js';

describe.skipIf(codexAcpBinary() === null)('the ACP engine with the real Codex (codex-acp)', () => {
  const current = useRig('codex');

  it(
    'a new session streams the answer as text events and names its session id first',
    async () => {
      const rg = current();
      const { events, text, promise } = rg.run(rg.engine(), { prompt: 'hello' });
      const result = await promise;
      expect(events[0]?.type).toBe('session');
      const id = sessionOf(events);
      expect(id).toMatch(/^[0-9a-f-]{36}$/);
      expect(result).toMatchObject({ agent: 'codex', sessionId: id, isNewSession: true, stopReason: 'end_turn' });
      expect(text()).toContain('ok: hello');
      expect(result.text).toContain('ok: hello');
      expect(streamed(rg.fake).at(-1)?.lastUserText).toBe('hello');
    },
    CODEX_CASE_MS,
  );

  it(
    'RUN: the permission request reaches the handler; allow → the command ran and the answer quotes its output',
    async () => {
      const rg = current();
      const handler = answering({ behavior: 'allow' });
      const { events, promise } = rg.run(rg.engine(), { prompt: `RUN: ${MARKER_COMMAND}` }, { permissions: handler });
      const result = await promise;
      expect(handler.asked).toHaveLength(1);
      expect(handler.asked[0]).toMatchObject({ kind: 'execute' });
      expect(handler.asked[0]?.summary).toContain('touch ran-marker');
      expect(events.some((e) => e.type === 'permission_request')).toBe(true);
      expect(fs.existsSync(path.join(rg.sb.cwd, 'ran-marker'))).toBe(true);
      expect(result.text).toContain(MARKER);
      expect(streamed(rg.fake).at(-1)?.toolResults.join('\n')).toContain(MARKER);
      expect(result.permissionDenials).toEqual([]);
    },
    CODEX_CASE_MS,
  );

  it(
    'RUN: deny → nothing ran, the model never got an output, the denial is reported',
    async () => {
      const rg = current();
      const handler = answering({ behavior: 'deny' });
      const result = await rg.run(rg.engine(), { prompt: `RUN: ${MARKER_COMMAND}` }, { permissions: handler }).promise;
      expect(handler.asked).toHaveLength(1);
      expect(fs.existsSync(path.join(rg.sb.cwd, 'ran-marker'))).toBe(false);
      expect(rg.fake.calls.some((c) => c.request.toolResults.join('').includes(MARKER))).toBe(false);
      expect(result.text).not.toContain(MARKER);
      expect(result.permissionDenials).toHaveLength(1);
    },
    CODEX_CASE_MS,
  );

  it(
    'RUN: always → stored in our rule store (not the project); the same command in a new process runs unasked',
    async () => {
      const rg = current();
      const first = answering({ behavior: 'allow', always: true });
      await rg.run(rg.engine(), { prompt: `RUN: ${MARKER_COMMAND}` }, { permissions: first }).promise;
      expect(first.asked).toHaveLength(1);
      expect(fs.existsSync(path.join(rg.sb.cwd, 'ran-marker'))).toBe(true);
      const rules = await new AgentPermissionStore(rg.paths.agentPermissionsFile).list('codex');
      expect(rules).toEqual([expect.objectContaining({ agent: 'codex', kind: 'execute', command: MARKER_COMMAND })]);
      expect(fs.statSync(rg.paths.agentPermissionsFile).mode & 0o777).toBe(0o600);
      expect(fs.readdirSync(rg.sb.cwd)).toEqual(['ran-marker']); // nothing written into the project

      fs.rmSync(path.join(rg.sb.cwd, 'ran-marker'));
      const second = answering({ behavior: 'deny' });
      const result = await rg.run(rg.engine(), { prompt: `RUN: ${MARKER_COMMAND}` }, { permissions: second }).promise;
      expect(second.asked).toEqual([]);
      expect(fs.existsSync(path.join(rg.sb.cwd, 'ran-marker'))).toBe(true);
      expect(result.text).toContain(MARKER);

      // Only that exact command: another one is still asked.
      const third = answering({ behavior: 'deny' });
      await rg.run(rg.engine(), { prompt: 'RUN: touch other-file' }, { permissions: third }).promise;
      expect(third.asked).toHaveLength(1);
      expect(fs.existsSync(path.join(rg.sb.cwd, 'other-file'))).toBe(false);
    },
    CODEX_CASE_MS,
  );

  it(
    'resume in a new process (session/load) continues the session: the model sees the earlier prompts',
    async () => {
      const rg = current();
      const first = rg.run(rg.engine(), { prompt: 'remember the word pelican' });
      const id = (await first.promise).sessionId;
      const second = rg.run(rg.engine(), { prompt: 'what word?', sessionId: id });
      const result = await second.promise;
      expect(result).toMatchObject({ sessionId: id, isNewSession: false, stopReason: 'end_turn' });
      expect(sessionOf(second.events)).toBe(id);
      const last = streamed(rg.fake).at(-1);
      expect(last?.lastUserText).toBe('what word?');
      expect(last?.userTexts).toEqual(expect.arrayContaining(['remember the word pelican', 'what word?']));
      // The earlier answer is part of the history too (the agent kept it before it was stopped).
      expect(JSON.stringify(lastBody(rg.fake))).toContain('ok: remember the word pelican');
      // The replayed history is not part of this turn's answer.
      expect(result.text).toContain('ok: what word?');
      expect(result.text).not.toContain('pelican');
    },
    CODEX_CASE_MS,
  );

  it(
    'warm: a follow-up is written to the kept codex-acp process, which answers with the first turn in context',
    async () => {
      const rg = current();
      const engine = rg.engine({ warm: true });
      const pool = rg.pools[0] as WarmPool<AcpConversation>;
      const id = (await rg.run(engine, { prompt: 'remember the word heron' }).promise).sessionId;
      const kept = pool.pids();
      expect(kept).toHaveLength(1);
      // A follow-up comes after Codex saved the turn: the session file is marked by then, and its
      // own writes must not count as the session continued elsewhere.
      await sleep(1_000);
      const second = rg.run(engine, { prompt: 'which word?', sessionId: id });
      const result = await second.promise;
      expect(result).toMatchObject({ sessionId: id, isNewSession: false, stopReason: 'end_turn' });
      expect(sessionOf(second.events)).toBe(id);
      expect(pool.pids()).toEqual(kept);
      const last = streamed(rg.fake).at(-1);
      expect(last?.userTexts).toEqual(expect.arrayContaining(['remember the word heron', 'which word?']));
      expect(JSON.stringify(lastBody(rg.fake))).toContain('ok: remember the word heron');
      expect(result.text).toContain('ok: which word?');
      await engine.close();
      expect(pool.pids()).toEqual([]);
    },
    CODEX_CASE_MS,
  );

  it(
    'resuming a session id the agent does not know fails with SESSION_NOT_FOUND and leaves nothing running',
    async () => {
      const rg = current();
      const err = await engineFailure(
        rg.run(rg.engine(), { prompt: 'hi', sessionId: '019ae000-0000-7000-8000-000000000000' }).promise,
      );
      expect(err.code).toBe('SESSION_NOT_FOUND');
    },
    CODEX_CASE_MS,
  );

  it(
    'cancel mid-turn (SLOW) → CANCELLED, the model stream is cut and no agent process is left',
    async () => {
      const rg = current();
      const stop = new AbortController();
      let texts = 0;
      const { promise } = rg.run(
        rg.engine(),
        { prompt: 'SLOW: 400' },
        { signal: stop.signal, onEvent: (e) => e.type === 'text' && ++texts === 2 && stop.abort() },
      );
      const err = await engineFailure(promise);
      expect(err.code).toBe('CANCELLED');
      expect(await waitNoLeftovers(rg.sb.home, 10_000)).toEqual([]);
      await rg.fake.waitForDisconnects(1);
    },
    CODEX_CASE_MS,
  );

  it(
    'the registry gets the new session as agent codex, with its rollout file found (status active)',
    async () => {
      const rg = current();
      const { events, promise } = rg.run(rg.engine({ recorder: true }), { prompt: 'hello registry' });
      const id = (await promise).sessionId;
      expect(sessionOf(events)).toBe(id);
      const entry = (await readRegistry(rg.paths)).registry.sessions[id];
      expect(entry).toMatchObject({ agent: 'codex', cwd: rg.sb.cwd, status: 'active', origin: 'feishu' });
      expect(entry?.jsonl_path).toMatch(
        new RegExp(`^${rg.sb.sessionsDir}/\\d{4}/\\d\\d/\\d\\d/rollout-.*-${id}\\.jsonl$`),
      );
      expect(fs.existsSync(entry?.jsonl_path as string)).toBe(true);
    },
    CODEX_CASE_MS,
  );

  it(
    'wired as the daemon wires it (agentEngines, [agents.codex] + env_pass): the key reaches Codex, the registry finds the file',
    async () => {
      const rg = current();
      const config: Config = defaultConfig();
      config.general.language = 'en';
      // Codex's home where the profile says, not the default ~/.codex.
      const codexHome = path.join(rg.sb.root, 'codex-elsewhere');
      fs.cpSync(rg.sb.env.CODEX_HOME as string, codexHome, { recursive: true });
      config.agents.profiles.codex = {
        kind: 'acp',
        command: rg.sb.command,
        env: { CODEX_HOME: codexHome },
        env_pass: ['FAKE_API_KEY'],
      };
      // The daemon's own environment: the key is there, CODEX_HOME is not (the profile sets it).
      const daemonEnv = { PATH: rg.sb.env.PATH, HOME: rg.sb.home, FAKE_API_KEY, CC_LINKER_HOME: rg.paths.home };
      const paths = resolvePaths(daemonEnv);
      const claude: AgentEngine = {
        agent: 'claude',
        mode: 'sdk',
        send: () => Promise.reject(new Error('claude is not part of this test')),
      };
      const { engine, catalog } = agentEngines({
        config,
        paths,
        lang: 'en',
        logger: rg.logger,
        env: daemonEnv,
        claude,
        slots: new Semaphore(2),
        locks: new SessionLocks(),
        sessionRecorder: createRegistrySessionRecorder(paths, rg.logger),
      });
      expect(catalog.list().find((a) => a.name === 'codex')).toMatchObject({ label: 'Codex', available: true });
      const { promise } = rg.run(engine, { prompt: 'hello daemon' });
      const result = await promise;
      expect(result.text).toContain('ok: hello daemon');
      const entry = (await readRegistry(paths)).registry.sessions[result.sessionId];
      expect(entry).toMatchObject({ agent: 'codex', status: 'active' });
      expect(entry?.jsonl_path).toMatch(new RegExp(`^${codexHome}/sessions/.*${result.sessionId}\\.jsonl$`));
      // The model list comes from the last run's session/new.
      expect((await catalog.models('codex')).length).toBeGreaterThan(0);
      await engine.close(); // as the daemon's stop: the kept codex-acp process ends
    },
    CODEX_CASE_MS,
  );
});
