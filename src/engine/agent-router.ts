import type { Language } from '../core/i18n.js';
import { EngineError } from './engine-error.js';
import {
  DEFAULT_AGENT,
  type AgentEngine,
  type AgentModel,
  type EngineRequest,
  type EngineResult,
  type EngineSendOptions,
} from './engine-types.js';

/**
 * Every agent's engine behind one `AgentEngine`: a request goes to the engine of `request.agent`
 * (absent = Claude Code), so the bridge runs a Codex session exactly like a Claude Code one and
 * never asks which agent it is. An agent that is not configured is `AGENT_UNKNOWN`, naming the
 * ones that are.
 *
 * @example
 *   const engine = new AgentRouter([claudeEngine, codexEngine], 'en');
 *   await engine.send({ agent: 'codex', prompt: 'hi', cwd: '~/Git/app' });
 */
export class AgentRouter implements AgentEngine {
  readonly agent = DEFAULT_AGENT;
  private readonly engines = new Map<string, AgentEngine>();

  constructor(
    engines: readonly AgentEngine[],
    private readonly lang: Language,
  ) {
    for (const engine of engines) this.engines.set(engine.agent, engine);
  }

  /** The mode of Claude Code's engine (what `status` shows as the engine). */
  get mode(): AgentEngine['mode'] {
    return this.engines.get(DEFAULT_AGENT)?.mode ?? 'acp';
  }

  /** The agents that can run, in the order they were given. */
  agents(): string[] {
    return [...this.engines.keys()];
  }

  has(agent: string): boolean {
    return this.engines.has(agent);
  }

  /** The engine of `agent` (absent = Claude Code); `AGENT_UNKNOWN` when it is not configured. */
  get(agent: string | undefined): AgentEngine {
    const name = agent ?? DEFAULT_AGENT;
    const engine = this.engines.get(name);
    if (!engine) throw new EngineError('AGENT_UNKNOWN', { name, known: this.agents().join(', ') }, { lang: this.lang });
    return engine;
  }

  send(request: EngineRequest, options?: EngineSendOptions): Promise<EngineResult> {
    try {
      return this.get(request.agent).send(request, options);
    } catch (err) {
      return Promise.reject(err);
    }
  }

  transcriptOf(sessionId: string, cwd: string, agent?: string): string | null {
    return this.engines.get(agent ?? DEFAULT_AGENT)?.transcriptOf?.(sessionId, cwd) ?? null;
  }

  async listModels(agent?: string): Promise<AgentModel[]> {
    return (await this.get(agent).listModels?.()) ?? [];
  }

  async close(): Promise<void> {
    await Promise.all([...this.engines.values()].map((engine) => engine.close?.()));
  }
}
