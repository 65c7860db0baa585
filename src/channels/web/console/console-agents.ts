import type { AgentCatalog } from '../../../bridge/commands/agent-catalog.js';
import { agentLabel } from '../../../sessions/present/format-session.js';

/** One agent as the console's new-session picker shows it. */
export interface ConsoleAgent {
  name: string;
  label: string;
  /** False when its command was not found when the daemon started (a run then says how to install it). */
  available: boolean;
  /** The agent `/new` would pick for the console's user: their `/agent` choice, else `agents.default`. */
  default: boolean;
}

/** The agents the console offers and names: the daemon's agent catalog, seen from the console. */
export interface ConsoleAgents {
  /** Every agent the daemon runs, Claude Code first; exactly one is `default`. */
  list(): Promise<ConsoleAgent[]>;
  /** True when the daemon runs an agent of this name. */
  has(name: string): boolean;
  /** The agent's label in the catalog, else its usual name (`Codex`), else the name itself. */
  label(name: string): string;
}

/**
 * `ConsoleAgents` over the bridge's `AgentCatalog`. `ownChoice` reads the console user's `/agent`
 * choice (the user mapping); a choice of an agent no longer configured, or a mapping that cannot
 * be read, falls back to `agents.default`, as `/new` does.
 */
export function consoleAgents(catalog: AgentCatalog, ownChoice: () => Promise<string | null>): ConsoleAgents {
  const has = (name: string) => catalog.list().some((a) => a.name === name);
  return {
    has,
    label: (name) => catalog.list().find((a) => a.name === name)?.label ?? agentLabel(name),
    async list() {
      const own = await ownChoice().catch(() => null);
      const picked = own && has(own) ? own : catalog.defaultAgent;
      return catalog.list().map((a) => ({
        name: a.name,
        label: a.label,
        available: a.available !== false,
        default: a.name === picked,
      }));
    },
  };
}
