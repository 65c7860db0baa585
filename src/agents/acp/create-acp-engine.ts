import * as acp from '@agentclientprotocol/sdk';
import { GuardedEngine, type GuardDeps } from '../../engine/guarded-engine.js';
import type { AgentModel } from '../../engine/engine-types.js';
import { openAcpConnection } from './acp-connection.js';
import { createAcpExecutor, type AcpAgentProfile, type AcpExecutorDeps } from './acp-executor.js';
import type { AcpConversation } from './acp-conversation.js';
import type { WarmPool } from '../../engine/warm-pool.js';
import { modelsOf } from './agent-models.js';

/** Everything an ACP agent's engine needs: the guard's deps and the executor's. */
export interface AcpEngineDeps extends Omit<AcpExecutorDeps, 'logger' | 'lang' | 'onModels'> {
  guard: GuardDeps;
  /** How long `listModels` may take to ask the agent when no run has told us yet. */
  probeTimeoutMs?: number;
  /** The agent processes kept between a session's turns (`createAcpWarmPool`); ended by `close()`. */
  warm?: WarmPool<AcpConversation>;
}

const DEFAULT_PROBE_TIMEOUT_MS = 30_000;

/** The ACP agent's engine: a `GuardedEngine` around the ACP executor, plus `listModels`. */
export class AcpEngine extends GuardedEngine {
  /** What the last `session/new` said (shared with the executor, which fills it). */
  private readonly known: { models: AgentModel[] | null };

  constructor(
    private readonly profile: AcpAgentProfile,
    private readonly acpDeps: AcpEngineDeps,
  ) {
    const { guard, probeTimeoutMs: _probe, warm, ...rest } = acpDeps;
    const known: { models: AgentModel[] | null } = { models: null };
    const execute = createAcpExecutor(
      profile,
      {
        ...rest,
        logger: guard.logger,
        lang: guard.lang,
        onModels: (models) => {
          known.models = models;
        },
      },
      warm,
    );
    super(profile.name, 'acp', execute, warm ? { ...guard, warm } : guard);
    this.known = known;
  }

  /**
   * The models the agent offers (`session/new`'s model list). The last run's answer when there was
   * one; otherwise the agent is started once (initialize + `session/new` in `cwd`, default the
   * user's home) to ask — that creates an empty session on the agent's side. Empty when the agent
   * does not say or fails. `_agent` is the router's argument (this engine runs one agent).
   */
  async listModels(_agent?: string, cwd?: string): Promise<AgentModel[]> {
    if (this.known.models) return this.known.models;
    const { guard } = this.acpDeps;
    const dir = cwd ?? guard.paths.userHome;
    const conn = openAcpConnection(
      {
        command: this.profile.command,
        env: this.profile.env,
        cwd: dir,
        ...(this.acpDeps.tracker ? { tracker: this.acpDeps.tracker } : {}),
        ...(this.acpDeps.killGraceMs !== undefined ? { killGraceMs: this.acpDeps.killGraceMs } : {}),
      },
      { onUpdate: () => undefined, onPermission: async () => ({ outcome: { outcome: 'cancelled' } }) },
    );
    // An agent that never answers is ended; its pending requests then fail.
    const timer = setTimeout(() => void conn.close(), this.acpDeps.probeTimeoutMs ?? DEFAULT_PROBE_TIMEOUT_MS);
    try {
      if (conn.pid === undefined) return [];
      await conn.agent.request(acp.methods.agent.initialize, {
        protocolVersion: acp.PROTOCOL_VERSION,
        clientCapabilities: {},
      });
      const session = await conn.agent.request(acp.methods.agent.session.new, { cwd: dir, mcpServers: [] });
      const { available } = modelsOf(session);
      if (available.length > 0) this.known.models = available;
      return available;
    } catch (err) {
      guard.logger.warn('asking the agent for its models failed', { agent: this.profile.name, err });
      return [];
    } finally {
      clearTimeout(timer);
      await conn.close();
    }
  }
}

/**
 * The engine of one ACP agent (Codex, Gemini CLI, Qwen Code, OpenCode, …): every `send` runs one
 * turn over ACP, on the session's kept agent process when `deps.warm` has one, else on a new one
 * (ended after the turn unless it is kept). See `createAcpExecutor` for the turn and
 * `GuardedEngine` for the checks, locks and timeouts around it.
 *
 * @example
 *   const codex = createAcpEngine({ name: 'codex', command: ['/usr/bin/codex-acp'], env }, { guard, tracker, permissionStore });
 *   const result = await codex.send({ agent: 'codex', prompt: 'hello', cwd: '~/Git/app' }, { onEvent, permissions });
 */
export function createAcpEngine(profile: AcpAgentProfile, deps: AcpEngineDeps): AcpEngine {
  return new AcpEngine(profile, deps);
}
