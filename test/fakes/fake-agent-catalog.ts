import type { AgentCatalog } from '../../src/bridge/commands/agent-catalog.js';

/** Claude Code and Codex installed, Qwen Code configured but not installed; no model lists. */
export const FAKE_AGENT_CATALOG: AgentCatalog = {
  list: () => [
    { name: 'claude', label: 'Claude Code', available: true },
    { name: 'codex', label: 'Codex', available: true },
    { name: 'qwen', label: 'Qwen Code', available: false },
  ],
  defaultAgent: 'claude',
  models: async () => [],
};
