import { DEFAULT_AGENT, type AgentModel } from '../../engine/engine-types.js';
import { bridgeMessages } from '../bridge-messages.js';
import type { Language } from '../../core/i18n.js';
import type { UserMapping } from '../mapping/user-mapping.js';

/** One agent the user can pick: its name in commands and its name for people. */
export interface AgentInfo {
  name: string;
  label: string;
  /** False when its command was not found when the daemon started (a run then says how to install it). */
  available?: boolean;
}

/**
 * The coding agents this daemon can run (`[agents]` in the config), as the chat commands see them.
 * The runtime implements it over the agent profiles and the engines.
 */
export interface AgentCatalog {
  /** Every agent that can run here, Claude Code first. */
  list(): AgentInfo[];
  /** `agents.default`: the agent `/new` starts when the user named none and chose no default. */
  defaultAgent: string;
  /** The models the agent offers, where it can say (ACP agents: what a new session advertises). */
  models(agent: string): Promise<AgentModel[]>;
}

/** What these helpers read of a command context (kept here so the context can name the catalog). */
interface WithAgents {
  agents?: AgentCatalog;
}

/** Claude Code alone: what a daemon without `[agents]` offers. */
export const CLAUDE_ONLY: AgentCatalog = {
  list: () => [{ name: DEFAULT_AGENT, label: 'Claude Code' }],
  defaultAgent: DEFAULT_AGENT,
  models: async () => [],
};

/** The catalog of the context (Claude Code alone when the daemon has none). */
export function catalogOf(ctx: WithAgents): AgentCatalog {
  return ctx.agents ?? CLAUDE_ONLY;
}

/** `codex` → `Codex`; an agent that is not configured keeps its name. */
export function agentLabel(ctx: WithAgents, name: string | undefined): string {
  const agent = name ?? DEFAULT_AGENT;
  return (
    catalogOf(ctx)
      .list()
      .find((a) => a.name === agent)?.label ?? agent
  );
}

/** The agent `/new` uses for this user: their `/agent` choice, else `agents.default`. */
export async function newSessionAgent(
  ctx: WithAgents & { mapping: Pick<UserMapping, 'defaultAgentOf'>; userId: string },
): Promise<string> {
  const own = await ctx.mapping.defaultAgentOf(ctx.userId);
  const catalog = catalogOf(ctx);
  return own && catalog.list().some((a) => a.name === own) ? own : catalog.defaultAgent;
}

/** Checks a typed agent name against the configured ones: ok, or the reply naming what exists. */
export function checkAgent(
  name: string,
  ctx: WithAgents & { lang: Language },
): { ok: true; agent: AgentInfo } | { ok: false; message: string } {
  const all = catalogOf(ctx).list();
  const found = all.find((a) => a.name === name);
  if (found) return { ok: true, agent: found };
  const known = all.map((a) => a.name).join(', ');
  return { ok: false, message: bridgeMessages(ctx.lang)('agentUnknown', { agent: name, known }) };
}
