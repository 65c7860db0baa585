import { AgentError } from '../../agents/agent-error.js';
import { agentDirsFor } from '../../agents/agent-dirs.js';
import { agentEnvFor } from '../../agents/agent-env.js';
import { agentProfiles, type AgentProfile } from '../../agents/agent-profiles.js';
import { createAcpEngine } from '../../agents/acp/create-acp-engine.js';
import { createAcpWarmPool } from '../../agents/acp/acp-warm-pool.js';
import { DEFAULT_END_SETTLE_MS } from '../../agents/acp/acp-executor-deps.js';
import { AgentPermissionStore } from '../../agents/acp/agent-permission-store.js';
import { resolveAgentCommand } from '../../agents/resolve-agent-command.js';
import type { AgentCatalog } from '../../bridge/commands/agent-catalog.js';
import { ENGINE_KILL_GRACE_MS } from '../../claude/create-engine.js';
import type { Config } from '../../core/config-schema.js';
import type { Language } from '../../core/i18n.js';
import type { Logger } from '../../core/logger.js';
import type { Paths } from '../../core/paths.js';
import { AgentRouter } from '../../engine/agent-router.js';
import { DEFAULT_AGENT, type AgentEngine } from '../../engine/engine-types.js';
import { defaultOriginOf } from '../../engine/guarded-engine.js';
import type { SessionRecorder } from '../../engine/session-recorder.js';
import { Semaphore, SessionLocks } from '../../engine/session-lock.js';
import type { WarmBudget } from '../../engine/warm-pool.js';
import type { SendFileMcp } from '../../engine/send-file-mcp.js';
import type { ChildTracker } from '../../process/child-tracker.js';
import { locateAgentSession } from '../../sessions/scan/agent-files/locate-agent-session.js';
import { isReadableAgent } from '../../sessions/scan/agent-files/agent-name.js';
import type { SessionFiles } from '../../engine/guarded-engine.js';
import type { AgentDirs } from '../../sessions/scan/agent-files/agent-reader.js';
import { setTimeout as sleep } from 'node:timers/promises';

/** What `agentEngines` needs: the daemon's parts that every agent's engine shares. */
export interface AgentEnginesDeps {
  config: Config;
  paths: Paths;
  lang: Language;
  logger: Logger;
  env: NodeJS.ProcessEnv;
  tracker?: ChildTracker;
  sessionRecorder?: SessionRecorder;
  /** Claude Code's native engine (built from the same config). */
  claude: AgentEngine;
  /** Shared with Claude Code's engine, so `runtime.max_concurrent_sessions` counts every agent's runs. */
  slots: Semaphore;
  locks: SessionLocks;
  /** Shared with Claude Code's engine, so `runtime.max_warm` counts every agent's kept processes. */
  warmBudget?: WarmBudget;
  /** The stdio `cc-linker mcp` server each agent session is offered (`send_file`). */
  sendFileMcp?: SendFileMcp;
}

/** Waits between lookups of a new ACP session's file (the agent writes it during the turn). */
const LOCATE_DELAYS_MS = [0, 300, 700, 1500, 3000];

/**
 * Where an ACP agent keeps its sessions, as far as the registry needs it: a new session's file,
 * found by its id. No transcript for the bridge's recovery (it reads Claude Code's format only),
 * so an interrupted turn of these agents is sent again from its prompt (docs/design.md#agents).
 */
function acpSessionFiles(agent: string, dirs: AgentDirs): SessionFiles {
  if (!isReadableAgent(agent)) return { transcriptOf: () => null };
  return {
    transcriptOf: () => null,
    locateNew: async (sessionId) => {
      for (const wait of LOCATE_DELAYS_MS) {
        if (wait > 0) await sleep(wait);
        const file = locateAgentSession(agent, dirs, sessionId);
        if (file) return file;
      }
      return null;
    },
  };
}

/**
 * The file of one session of `agent`, for the warm pool's staleness check: only for agents that
 * keep one file per session — OpenCode's database holds every session, so any other session's
 * turn would change it (its kept processes are checked for death only).
 */
function acpSessionFile(agent: string, dirs: AgentDirs): ((sessionId: string) => string | null) | undefined {
  if (!isReadableAgent(agent) || agent === 'opencode') return undefined;
  return (sessionId) => locateAgentSession(agent, dirs, sessionId);
}

/** A profile's command and environment as the agent gets them, and whether its command was found. */
function launchOf(
  profile: AgentProfile,
  deps: AgentEnginesDeps,
): { command: string[]; env: NodeJS.ProcessEnv; found: boolean } {
  const env = agentEnvFor(profile, deps.env, deps.config);
  try {
    return { command: resolveAgentCommand(profile, env, deps.paths.userHome), env, found: true };
  } catch (err) {
    if (!(err instanceof AgentError)) throw err;
    // Not installed (yet): a run says so, naming the command and how to install it.
    return { command: profile.command, env, found: false };
  }
}

/**
 * Every agent the config names behind one `AgentEngine` (Claude Code's native engine first, then
 * one ACP engine per profile of `[agents]`, built-in ones included), and the catalog the chat
 * commands show. An agent whose command is not installed stays listed (as not installed) so
 * `/new --agent` can say how to install it.
 */
export function agentEngines(deps: AgentEnginesDeps): { engine: AgentRouter; catalog: AgentCatalog } {
  const { config, paths, lang, logger } = deps;
  const permissionStore = new AgentPermissionStore(paths.agentPermissionsFile);
  const engines: AgentEngine[] = [deps.claude];
  const info = [{ name: DEFAULT_AGENT, label: 'Claude Code', available: true }];
  const acpEngines = new Map<string, ReturnType<typeof createAcpEngine>>();
  for (const profile of agentProfiles(config)) {
    const launch = launchOf(profile, deps);
    const dirs = agentDirsFor(launch.env);
    const agentLogger = logger.child(profile.name);
    const sessionFile = acpSessionFile(profile.name, dirs);
    const warm = createAcpWarmPool({
      runtime: config.runtime,
      logger: agentLogger,
      settleMs: DEFAULT_END_SETTLE_MS,
      ...(sessionFile ? { sessionFile } : {}),
      ...(deps.warmBudget ? { budget: deps.warmBudget } : {}),
    });
    const engine = createAcpEngine(
      { name: profile.name, label: profile.label, command: launch.command, env: launch.env, install: profile.install },
      {
        guard: {
          config,
          paths,
          logger: agentLogger,
          lang,
          locks: deps.locks,
          slots: deps.slots,
          originOf: defaultOriginOf,
          label: profile.label,
          // Where this agent writes, as its own environment says (a profile's CODEX_HOME …).
          files: acpSessionFiles(profile.name, dirs),
          ...(deps.sessionRecorder ? { sessionRecorder: deps.sessionRecorder } : {}),
        },
        permissionStore,
        killGraceMs: ENGINE_KILL_GRACE_MS,
        // Kept processes count against runtime.max_warm with every other agent's (docs/design.md#warm-sessions).
        ...(warm ? { warm } : {}),
        ...(deps.tracker ? { tracker: deps.tracker } : {}),
        ...(deps.sendFileMcp ? { sendFileMcp: deps.sendFileMcp } : {}),
      },
    );
    engines.push(engine);
    acpEngines.set(profile.name, engine);
    info.push({ name: profile.name, label: profile.label, available: launch.found });
  }
  return {
    engine: new AgentRouter(engines, lang),
    catalog: {
      list: () => info,
      defaultAgent: config.agents.default,
      models: async (agent) => (await acpEngines.get(agent)?.listModels()) ?? [],
    },
  };
}
