// The product's ACP engine (`createAcpEngine`, wrapped in the real `GuardedEngine`) driving the REAL
// agents offline: codex-acp's native binary against the fake Responses API, Qwen Code against the
// fake chat-completions API (test/fakes/agent-sandbox, test/fakes/fake-llm). Each `send` is one
// agent process; "a new process" below is a fresh engine (as after a daemon restart) on the same
// files. Assertions are on what the engine reports, what the fake model was asked, and the disk.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AgentPermissionStore } from '../../src/agents/acp/agent-permission-store.js';
import { createAcpEngine, type AcpEngine } from '../../src/agents/acp/create-acp-engine.js';
import { agentEngines } from '../../src/cli/start/agent-engines.js';
import type { Config } from '../../src/core/config-schema.js';
import { defaultConfig } from '../../src/core/default-config.js';
import { createLogger, type Logger } from '../../src/core/logger.js';
import { resolvePaths, type Paths } from '../../src/core/paths.js';
import type {
  AgentEngine,
  EngineEvent,
  EngineRequest,
  PermissionDecision,
  PermissionHandler,
  PermissionRequest,
} from '../../src/engine/engine-types.js';
import { defaultOriginOf, type GuardDeps } from '../../src/engine/guarded-engine.js';
import { createRegistrySessionRecorder } from '../../src/engine/registry-session-recorder.js';
import { Semaphore, SessionLocks } from '../../src/engine/session-lock.js';
import { readRegistry } from '../../src/sessions/registry/registry.js';
import { locateAgentSession } from '../../src/sessions/scan/agent-files/locate-agent-session.js';
import { codexAcpBinary, qwenCliScript } from '../fakes/agent-sandbox/agent-binaries.js';
import type { AcpConversation } from '../../src/agents/acp/acp-conversation.js';
import { DEFAULT_END_SETTLE_MS } from '../../src/agents/acp/acp-executor-deps.js';
import { createAcpWarmPool } from '../../src/agents/acp/acp-warm-pool.js';
import type { WarmPool } from '../../src/engine/warm-pool.js';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  createAgentSandbox,
  FAKE_API_KEY,
  type AgentKind,
  type AgentSandbox,
} from '../fakes/agent-sandbox/agent-sandbox.js';
import { startAgentModelServer, type AgentModelServer } from '../fakes/fake-llm/agent-model-server.js';
import { engineFailure } from '../helpers/engine-failure.js';
import { waitNoLeftovers } from './claude-harness.js';

/** Shell-computed marker (the prompt never holds it); `touch` makes Qwen ask too (it runs `echo` unasked). */
const MARKER_COMMAND = 'touch ran-marker && echo cc-linker-$((40 + 2))';
const MARKER = 'cc-linker-42';
const CODEX_CASE_MS = 60_000;
const QWEN_CASE_MS = 180_000;

const LABEL = { codex: 'Codex', qwen: 'Qwen Code' } as const;

interface Rig {
  kind: AgentKind;
  fake: AgentModelServer;
  sb: AgentSandbox;
  paths: Paths;
  logger: Logger;
  logFile: string;
  /**
   * A fresh engine over the same files (what a restarted daemon builds); `warm` gives it a warm pool
   * as the daemon does (`runtime` defaults, the session file for staleness), returned in `pools`.
   */
  engine(opts?: { recorder?: boolean; warm?: boolean }): AcpEngine;
  /** The warm pools of the engines built with `warm`, in order. */
  pools: Array<WarmPool<AcpConversation>>;
  run(
    engine: AgentEngine,
    request: Partial<EngineRequest> & { prompt: string },
    opts?: { permissions?: PermissionHandler; signal?: AbortSignal; onEvent?: (e: EngineEvent) => void },
  ): { events: EngineEvent[]; text: () => string; promise: ReturnType<AgentEngine['send']> };
  close(): Promise<void>;
}

async function rig(kind: AgentKind): Promise<Rig> {
  const fake = await startAgentModelServer(kind === 'codex' ? 'responses' : 'chat');
  const sb = createAgentSandbox(kind, { baseUrl: fake.baseUrl });
  const env = { ...sb.env, CC_LINKER_HOME: path.join(sb.root, 'cc-linker') };
  const paths = resolvePaths(env);
  const logFile = path.join(sb.root, 'cc-linker.log');
  const logger = createLogger({ level: 'debug', sink: { file: logFile } });
  const config = defaultConfig();
  config.general.language = 'en';
  config.runtime.stale_timeout_ms = kind === 'qwen' ? 90_000 : 40_000;
  config.runtime.hard_timeout_ms = kind === 'qwen' ? 150_000 : 55_000;
  const locks = new SessionLocks();
  const slots = new Semaphore(2);
  const pools: Array<WarmPool<AcpConversation>> = [];
  return {
    kind,
    fake,
    sb,
    paths,
    logger,
    logFile,
    pools,
    engine(opts = {}) {
      const warm = opts.warm
        ? createAcpWarmPool({
            runtime: config.runtime,
            logger,
            settleMs: DEFAULT_END_SETTLE_MS,
            sessionFile: (id) => locateAgentSession(kind, paths, id),
          })
        : undefined;
      if (warm) pools.push(warm);
      const guard: GuardDeps = {
        config,
        paths,
        logger: logger.child(kind),
        lang: 'en',
        locks,
        slots,
        originOf: defaultOriginOf,
        label: LABEL[kind],
        ...(opts.recorder
          ? {
              sessionRecorder: createRegistrySessionRecorder(paths, logger),
              // As agent-engines.ts gives the guard: a new session's file, found by its id.
              files: {
                transcriptOf: () => null,
                locateNew: async (id: string) => {
                  for (let i = 0; i < 20; i += 1) {
                    const file = locateAgentSession(kind, paths, id);
                    if (file) return file;
                    await new Promise((resolve) => setTimeout(resolve, 250));
                  }
                  return null;
                },
              },
            }
          : {}),
      };
      return createAcpEngine(
        { name: kind, label: LABEL[kind], command: sb.command, env: sb.env, install: 'npm i -g test-agent' },
        {
          guard,
          permissionStore: new AgentPermissionStore(paths.agentPermissionsFile),
          killGraceMs: 2_000,
          ...(warm ? { warm } : {}),
        },
      );
    },
    run(engine, request, opts = {}) {
      const events: EngineEvent[] = [];
      const promise = engine.send(
        { agent: kind, cwd: sb.cwd, userId: 'ou_owner', ...request },
        {
          ...(opts.permissions ? { permissions: opts.permissions } : {}),
          ...(opts.signal ? { signal: opts.signal } : {}),
          onEvent: (e) => {
            events.push(e);
            opts.onEvent?.(e);
          },
        },
      );
      const text = () =>
        events
          .filter((e): e is Extract<EngineEvent, { type: 'text' }> => e.type === 'text')
          .map((e) => e.delta)
          .join('');
      return { events, text, promise };
    },
    async close() {
      await Promise.all(pools.map((pool) => pool.close()));
      const left = await waitNoLeftovers(sb.home, 10_000);
      await fake.close();
      sb.cleanup();
      expect(left).toEqual([]);
    },
  };
}

/** Answers every permission request with `decision`, recording what was asked. */
function answering(decision: PermissionDecision): PermissionHandler & { asked: PermissionRequest[] } {
  const asked: PermissionRequest[] = [];
  return {
    asked,
    requestPermission: async (request) => {
      asked.push(request);
      return decision;
    },
    askQuestion: async () => ({ cancelled: true }),
  };
}

const sessionOf = (events: EngineEvent[]): string | undefined =>
  (events.find((e) => e.type === 'session') as { sessionId: string } | undefined)?.sessionId;

/** Every streamed model call's request, in order (background calls left out). */
const streamed = (fake: AgentModelServer) => fake.calls.filter((c) => c.request.stream).map((c) => c.request);

/** The body of the last model request (the raw wire format). */
const lastBody = (fake: AgentModelServer): unknown => fake.requests.at(-1)?.body;

/** Dumps the engine's warnings when a case fails. */
function logOnFailure(r: Rig | undefined, ctx: { task: { result?: { state?: string } } }): void {
  if (!r || ctx.task.result?.state !== 'fail' || !fs.existsSync(r.logFile)) return;
  const lines = fs
    .readFileSync(r.logFile, 'utf8')
    .split('\n')
    .filter((l) => /"level":"(warn|error)"/.test(l));
  console.error(`--- engine log (warn/error) ---\n${lines.slice(-30).join('\n')}`);
}

describe.skipIf(codexAcpBinary() === null)('the ACP engine with the real Codex (codex-acp)', () => {
  let r: Rig | undefined;
  beforeEach(async () => {
    r = await rig('codex');
  });
  afterEach(async (ctx) => {
    logOnFailure(r, ctx);
    await r?.close();
    r = undefined;
  }, 20_000);

  it(
    'a new session streams the answer as text events and names its session id first',
    async () => {
      const rg = r as Rig;
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
      const rg = r as Rig;
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
      const rg = r as Rig;
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
      const rg = r as Rig;
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
      const rg = r as Rig;
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
      const rg = r as Rig;
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
      const rg = r as Rig;
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
      const rg = r as Rig;
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
      const rg = r as Rig;
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
      const rg = r as Rig;
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

describe.skipIf(qwenCliScript() === null)('the ACP engine with the real Qwen Code', () => {
  let r: Rig | undefined;
  beforeEach(async () => {
    r = await rig('qwen');
  });
  afterEach(async (ctx) => {
    logOnFailure(r, ctx);
    await r?.close();
    r = undefined;
  }, 20_000);

  it(
    'new session, then RUN allowed in a resumed session (new process): the command ran, history was loaded',
    async () => {
      const rg = r as Rig;
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
      const rg = r as Rig;
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
