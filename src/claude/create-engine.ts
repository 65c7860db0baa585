import type { Config } from '../core/config-schema.js';
import type { Language } from '../core/i18n.js';
import type { Logger } from '../core/logger.js';
import type { Paths } from '../core/paths.js';
import type { ChildTracker } from '../process/child-tracker.js';
import { claudeEnvFor } from './claude-env.js';
import type { AgentEngine, EngineMode, EngineRequest } from '../engine/engine-types.js';

/** Claude Code's native modes. */
export type ClaudeMode = Exclude<EngineMode, 'acp'>;
import { createJsonEngine } from './json-engine.js';
import { defaultOriginOf } from '../engine/guarded-engine.js';
import type { ClaudeDeps } from './claude-engine-deps.js';
import { PermissionPolicy } from './permission-policy.js';
import { PermissionStore } from './permission-store.js';
import { createSdkEngine } from './sdk-engine.js';
import type { SessionOrigin, SessionRecorder } from '../engine/session-recorder.js';
import { Semaphore, SessionLocks } from '../engine/session-lock.js';
import { createStreamJsonEngine } from './stream-json-engine.js';
import { WarmPool, type WarmBudget } from '../engine/warm-pool.js';
import { claudeSessionFiles } from './claude-session-files.js';
import { claudeWarmChecks } from './warm-staleness.js';
import type { WarmProcess } from '../engine/warm-pool.js';
import type { SendFileMcp } from '../engine/send-file-mcp.js';

/** What `createEngine` needs besides the config. */
export interface CreateEngineDeps {
  paths: Paths;
  logger: Logger;
  lang: Language;
  /** Records live child process groups for crash recovery (`createChildTracker(paths.childrenDir)`). */
  tracker?: ChildTracker;
  /**
   * The environment the child's is built from (default `process.env`), filtered by `claudeEnvFor`
   * (the allowlist plus `claude.env_allow`) — cc-linker's own secrets never reach Claude Code.
   */
  env?: NodeJS.ProcessEnv;
  sessionRecorder?: SessionRecorder;
  /** Where a run came from, for the registry (default: `web…` user ids → web, `cli…` → cli, else feishu). */
  originOf?: (request: EngineRequest) => SessionOrigin;
  /** SIGTERM → SIGKILL grace when stopping a run (default `ENGINE_KILL_GRACE_MS`). */
  killGraceMs?: number;
  /** Share locks/slots between engines (e.g. after a config reload); default: new ones. */
  locks?: SessionLocks;
  slots?: Semaphore;
  /** Share `runtime.max_warm` with the other agents' engines; default: this engine's own limit. */
  warmBudget?: WarmBudget;
  /** The stdio `cc-linker mcp` server, so `json` / `stream-json` children are offered `send_file`. */
  sendFileMcp?: SendFileMcp;
}

/**
 * How long a Claude Code child has between SIGTERM and SIGKILL when its run is stopped (the
 * owner's Stop, a shutdown, a timeout). Short on purpose: a stopped turn's processes must be gone
 * within 300 ms, and Claude Code's own shutdown on SIGTERM can take more than a second on a busy
 * machine. Its transcript is written line by line as the turn goes, so nothing it has done is
 * lost; the tool shells it started in groups of their own are killed with it.
 */
export const ENGINE_KILL_GRACE_MS = 100;

/**
 * Which implementation `claude.mode` selects: `auto` = `sdk` when `sdk.enabled`, else
 * `stream-json` when `stream.enabled`, else `json` — exactly one mode per daemon; all three share
 * the registry, spool and delivery machinery.
 */
export function selectEngineMode(config: Config): ClaudeMode {
  const mode = config.claude.mode;
  if (mode !== 'auto') return mode;
  if (config.sdk.enabled) return 'sdk';
  return config.stream.enabled ? 'stream-json' : 'json';
}

/**
 * Builds the `AgentEngine` the config asks for. The engine owns the per-session locks and the
 * global run limit, the permission policy (config lists + `~/.cc-linker/permissions.json`) and the
 * child environment; pass a `sessionRecorder` (e.g. `createRegistrySessionRecorder`) to keep the
 * registry up to date.
 *
 * @example
 *   const engine = createEngine(config, { paths, logger, lang: config.general.language, tracker, sessionRecorder });
 *   const result = await engine.send({ prompt, cwd, sessionId }, { signal, onEvent, permissions });
 */
export function createEngine(config: Config, deps: CreateEngineDeps): AgentEngine {
  const logger = deps.logger.child('claude');
  const engineDeps: ClaudeDeps = {
    config,
    paths: deps.paths,
    logger,
    lang: deps.lang,
    env: claudeEnvFor(config, deps.env ?? process.env),
    ...(deps.tracker ? { tracker: deps.tracker } : {}),
    ...(deps.sessionRecorder ? { sessionRecorder: deps.sessionRecorder } : {}),
    locks: deps.locks ?? new SessionLocks(),
    slots: deps.slots ?? new Semaphore(config.runtime.max_concurrent_sessions),
    policy: new PermissionPolicy(config.claude, new PermissionStore(deps.paths.permissionsFile), logger),
    originOf: deps.originOf ?? defaultOriginOf,
    killGraceMs: deps.killGraceMs ?? ENGINE_KILL_GRACE_MS,
    ...(deps.sendFileMcp ? { sendFileMcp: deps.sendFileMcp } : {}),
  };
  switch (selectEngineMode(config)) {
    case 'sdk':
      return createSdkEngine(engineDeps, warmPool(config, engineDeps, deps.warmBudget));
    case 'stream-json':
      return createStreamJsonEngine(engineDeps, warmPool(config, engineDeps, deps.warmBudget));
    case 'json':
      return createJsonEngine(engineDeps);
  }
}

/**
 * The children kept alive between a session's turns (`runtime.warm_idle_ms`, `runtime.max_warm`;
 * either 0 = none): a follow-up is written to the session's child instead of starting Claude Code
 * again. The same for both conversation modes (`SdkConversation`, `CliConversation`). See
 * docs/design.md#warm-sessions.
 */
function warmPool<P extends WarmProcess>(
  config: Config,
  deps: ClaudeDeps,
  budget: WarmBudget | undefined,
): WarmPool<P> | undefined {
  const { warm_idle_ms: idleMs, max_warm: max } = config.runtime;
  if (idleMs <= 0 || max <= 0) return undefined;
  return new WarmPool<P>({
    idleMs,
    max,
    logger: deps.logger,
    ...(budget ? { budget } : {}),
    ...claudeWarmChecks(claudeSessionFiles(deps.paths.claudeProjectsDir)),
  });
}
