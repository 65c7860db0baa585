// What the ACP engine's tests with the REAL agents share: a sandbox per agent (codex-acp's native
// binary against the fake Responses API, Qwen Code against the fake chat-completions API — see
// test/fakes/agent-sandbox, test/fakes/fake-llm), engines built as the daemon builds them, and the
// helpers the cases assert with.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, expect } from 'vitest';
import { AgentPermissionStore } from '../../src/agents/acp/agent-permission-store.js';
import { createAcpEngine, type AcpEngine } from '../../src/agents/acp/create-acp-engine.js';
import { defaultConfig } from '../../src/core/default-config.js';
import { createLogger, type Logger } from '../../src/core/logger.js';
import { resolvePaths, type Paths } from '../../src/core/paths.js';
import type {
  AgentEngine,
  EngineEvent,
  EngineRequest,
  FileSender,
  PermissionHandler,
} from '../../src/engine/engine-types.js';
import { defaultOriginOf, type GuardDeps } from '../../src/engine/guarded-engine.js';
import { createRegistrySessionRecorder } from '../../src/engine/registry-session-recorder.js';
import { Semaphore, SessionLocks } from '../../src/engine/session-lock.js';
import { locateAgentSession } from '../../src/sessions/scan/agent-files/locate-agent-session.js';
import type { AcpConversation } from '../../src/agents/acp/acp-conversation.js';
import { DEFAULT_END_SETTLE_MS } from '../../src/agents/acp/acp-executor-deps.js';
import { createAcpWarmPool } from '../../src/agents/acp/acp-warm-pool.js';
import type { WarmPool } from '../../src/engine/warm-pool.js';
import type { SendFileMcp } from '../../src/engine/send-file-mcp.js';
import { createAgentSandbox, type AgentKind, type AgentSandbox } from '../fakes/agent-sandbox/agent-sandbox.js';
import { startAgentModelServer, type AgentModelServer } from '../fakes/fake-llm/agent-model-server.js';
import { waitNoLeftovers } from './claude-harness.js';

/** Shell-computed marker (the prompt never holds it); `touch` makes Qwen ask too (it runs `echo` unasked). */
export const MARKER_COMMAND = 'touch ran-marker && echo cc-linker-$((40 + 2))';
export const MARKER = 'cc-linker-42';
export const CODEX_CASE_MS = 60_000;
export const QWEN_CASE_MS = 180_000;

export const LABEL = { codex: 'Codex', qwen: 'Qwen Code' } as const;

export interface Rig {
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
  engine(opts?: { recorder?: boolean; warm?: boolean; sendFileMcp?: SendFileMcp }): AcpEngine;
  /** The warm pools of the engines built with `warm`, in order. */
  pools: Array<WarmPool<AcpConversation>>;
  run(
    engine: AgentEngine,
    request: Partial<EngineRequest> & { prompt: string },
    opts?: {
      permissions?: PermissionHandler;
      signal?: AbortSignal;
      onEvent?: (e: EngineEvent) => void;
      files?: FileSender;
    },
  ): { events: EngineEvent[]; text: () => string; promise: ReturnType<AgentEngine['send']> };
  close(): Promise<void>;
}

export async function rig(kind: AgentKind): Promise<Rig> {
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
          ...(opts.sendFileMcp ? { sendFileMcp: opts.sendFileMcp } : {}),
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
          ...(opts.files ? { files: opts.files } : {}),
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

export { answering } from '../fakes/fake-acp-agent/acp-engine-harness.js';

export const sessionOf = (events: EngineEvent[]): string | undefined =>
  (events.find((e) => e.type === 'session') as { sessionId: string } | undefined)?.sessionId;

/** Every streamed model call's request, in order (background calls left out). */
export const streamed = (fake: AgentModelServer) => fake.calls.filter((c) => c.request.stream).map((c) => c.request);

/** The body of the last model request (the raw wire format). */
export const lastBody = (fake: AgentModelServer): unknown => fake.requests.at(-1)?.body;

/** Dumps the engine's warnings when a case fails. */
export function logOnFailure(r: Rig | undefined, ctx: { task: { result?: { state?: string } } }): void {
  if (!r || ctx.task.result?.state !== 'fail' || !fs.existsSync(r.logFile)) return;
  const lines = fs
    .readFileSync(r.logFile, 'utf8')
    .split('\n')
    .filter((l) => /"level":"(warn|error)"/.test(l));
  console.error(`--- engine log (warn/error) ---\n${lines.slice(-30).join('\n')}`);
}

/**
 * A fresh rig of `kind` for every case of the surrounding `describe` (closed after it, with the
 * engine's warnings printed when the case failed); the returned function gives the current one.
 */
export function useRig(kind: AgentKind): () => Rig {
  let r: Rig | undefined;
  beforeEach(async () => {
    r = await rig(kind);
  });
  afterEach(async (ctx) => {
    logOnFailure(r, ctx);
    await r?.close();
    r = undefined;
  }, 20_000);
  return () => r as Rig;
}
