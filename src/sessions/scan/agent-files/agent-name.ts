import { AGENT_NAME_PATTERN } from '../../../core/agent-names.js';
import { isSessionId } from '../session-id.js';

/**
 * The coding agents whose session files cc-linker reads. `claude` is Claude Code (its sessions are
 * read by the scanner in `sessions/scan/`); the others are read by this folder's readers.
 */
export const AGENT_NAMES = ['claude', 'codex', 'gemini', 'qwen', 'opencode'] as const;
export type ReadableAgent = (typeof AGENT_NAMES)[number];

/**
 * The agent a registry entry belongs to: one of `AGENT_NAMES`, or an agent configured in
 * `[agents.<name>]` whose sessions the registry records when chat creates them (there is no reader
 * for its files, so nothing is scanned for it).
 */
export type AgentName = string;

/** True when `name` has the shape of an agent name (`[a-z][a-z0-9-]{0,31}`). */
export function isAgentName(name: unknown): name is AgentName {
  return typeof name === 'string' && AGENT_NAME_PATTERN.test(name);
}

/** True when cc-linker reads this agent's session files. */
export function isReadableAgent(name: unknown): name is ReadableAgent {
  return typeof name === 'string' && (AGENT_NAMES as readonly string[]).includes(name);
}

/**
 * Ids of the other agents: UUIDs (Codex, Gemini, Qwen) or `ses_…` (OpenCode). Letters, digits,
 * `_` and `-`, starting with a letter or digit — so an id never reads as a flag of the agent's
 * command and never needs the shell (it is still quoted when printed).
 */
const AGENT_SESSION_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;

/**
 * True when `id` has the shape of a session id of `agent`: a UUID for Claude Code (see
 * `isSessionId`), the safe shape above for the others.
 */
export function isAgentSessionId(agent: AgentName, id: string): boolean {
  return agent === 'claude' ? isSessionId(id) : AGENT_SESSION_ID.test(id);
}
