// What the ACP engine's tests share: the fake ACP agent's fixture (a real child process speaking
// ACP over stdio), an engine over it with short timeouts, and ways to look at its processes.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import { defaultConfig } from '../../../src/core/default-config.js';
import type { Logger } from '../../../src/core/logger.js';
import { resolvePaths } from '../../../src/core/paths.js';
import type {
  EngineEvent,
  EngineRequest,
  PermissionDecision,
  PermissionHandler,
  PermissionRequest,
} from '../../../src/engine/engine-types.js';
import { defaultOriginOf, type GuardDeps } from '../../../src/engine/guarded-engine.js';
import { Semaphore, SessionLocks } from '../../../src/engine/session-lock.js';
import { createAcpAgentFixture, type AcpAgentFixture } from './acp-agent-fixture.js';
import { AgentPermissionStore } from '../../../src/agents/acp/agent-permission-store.js';
import { AcpEngine, createAcpEngine } from '../../../src/agents/acp/create-acp-engine.js';
import { createAcpWarmPool } from '../../../src/agents/acp/acp-warm-pool.js';
import type { AcpConversation } from '../../../src/agents/acp/acp-conversation.js';
import type { WarmPool } from '../../../src/engine/warm-pool.js';

/** The current test's fixture (a live binding: a new one for every test of a file that called `useAcpFixture`). */
export let fx: AcpAgentFixture;

/** The engines `harness` built in the current test, closed (their kept processes ended) after it. */
const built: AcpEngine[] = [];

/** Whether `harness` keeps agent processes between a session's turns (`runtime.warm_idle_ms` > 0). */
let warmByDefault = false;

/** The two ways every engine test runs: one process per message, and warm sessions. */
export const ACP_MODES = [
  { name: 'cold (runtime.warm_idle_ms = 0)', warm: false },
  { name: 'warm', warm: true },
] as const;

/** From now on (until the next call), `harness()` builds engines with (true) or without warm sessions. */
export function setWarm(warm: boolean): void {
  warmByDefault = warm;
}

/** A fresh fake-agent fixture for every test of the calling file, removed after it. */
export function useAcpFixture(): void {
  beforeEach(() => {
    fx = createAcpAgentFixture();
  });
  afterEach(async () => {
    await Promise.all(built.splice(0).map((engine) => engine.close()));
    fx.cleanup();
  });
}

export interface Logged {
  level: string;
  msg: string;
  fields?: Record<string, unknown>;
}

export function recordingLogger(into: Logged[]): Logger {
  const log =
    (level: string) =>
    (msg: string, fields?: Record<string, unknown>): void => {
      into.push({ level, msg, ...(fields ? { fields } : {}) });
    };
  const logger: Logger = {
    debug: log('debug'),
    info: log('info'),
    warn: log('warn'),
    error: log('error'),
    child: () => logger,
  };
  return logger;
}

/** The locks of the last engine built: an answered turn's wrap-up holds its session until the agent is gone. */
let lastLocks = new SessionLocks();

/** Until the wrap-up of session `id`'s answered turn is over (the agent saved it and exited). */
export async function wrappedUp(id: string): Promise<void> {
  while (lastLocks.isLocked(id)) await new Promise((r) => setTimeout(r, 20));
}

export function guardDeps(logger: Logger, staleMs = 20_000): GuardDeps {
  const config = defaultConfig();
  lastLocks = new SessionLocks();
  config.runtime.stale_timeout_ms = staleMs;
  config.runtime.hard_timeout_ms = 25_000;
  return {
    config,
    paths: resolvePaths({ HOME: fx.home, CC_LINKER_HOME: path.join(fx.root, 'cc') }),
    logger,
    lang: 'en',
    locks: lastLocks,
    slots: new Semaphore(4),
    originOf: defaultOriginOf,
  };
}

export interface Harness {
  engine: AcpEngine;
  logs: Logged[];
  store: AgentPermissionStore;
  /** The engine's kept processes; undefined when cold. */
  pool: WarmPool<AcpConversation> | undefined;
}

/** How a warm harness keeps processes (defaults: 60 s, 3, no session file). */
export interface WarmOptions {
  idleMs?: number;
  max?: number;
  sessionFile?: (sessionId: string) => string | null;
  endSettleMs?: number;
}

export function harness(
  extraEnv: Record<string, string> = {},
  command?: string[],
  staleMs?: number,
  warm: WarmOptions | false = warmByDefault ? {} : false,
): Harness {
  const logs: Logged[] = [];
  const logger = recordingLogger(logs);
  const store = new AgentPermissionStore(path.join(fx.root, 'cc', 'agent-permissions.json'));
  const endSettleMs = warm ? (warm.endSettleMs ?? 0) : 0;
  const pool = warm
    ? createAcpWarmPool({
        runtime: { warm_idle_ms: warm.idleMs ?? 60_000, max_warm: warm.max ?? 3 },
        logger,
        settleMs: endSettleMs,
        ...(warm.sessionFile ? { sessionFile: warm.sessionFile } : {}),
      })
    : undefined;
  const engine = createAcpEngine(
    { name: 'fakeagent', command: command ?? fx.command, env: fx.env(extraEnv), install: 'npm i -g fake-agent' },
    {
      guard: guardDeps(logger, staleMs),
      permissionStore: store,
      killGraceMs: 300,
      cancelWaitMs: 500,
      endSettleMs,
      replayQuietMs: 400, // the fake replays one update 50 ms after the load: room for a loaded machine
      replayMaxMs: 2000,
      ...(pool ? { warm: pool } : {}),
    },
  );
  built.push(engine);
  return { engine, logs, store, pool };
}

export function run(
  h: Harness,
  prompt: string,
  over: Partial<EngineRequest> = {},
  opts: Parameters<AcpEngine['send']>[1] = {},
) {
  const events: EngineEvent[] = [];
  const promise = h.engine.send(
    { agent: 'fakeagent', prompt, cwd: fx.cwd, ...over },
    { ...opts, onEvent: (e) => events.push(e) },
  );
  return { events, promise };
}

/** A permission handler answering every request with `decision` and counting the calls. */
export function answering(decision: PermissionDecision): PermissionHandler & { asked: PermissionRequest[] } {
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

export const agentPids = (): number[] => [...new Set(fx.calls().map((c) => c.pid))];
export const grandchildPids = (): number[] =>
  fx
    .calls()
    .filter((c) => c.method === 'grandchild')
    .map((c) => c.params.pid as number);

export function pidAlive(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0];
    return state !== 'Z' && state !== 'X';
  } catch {
    return false;
  }
}
