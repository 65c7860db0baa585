/**
 * The agents cc-linker knows by name (docs/design.md#configuration, `[agents]`): `claude`, the
 * native Claude Code engine, and the built-in ACP profiles (their commands and settings live in
 * agents/agent-profiles.ts). `[agents.<name>]` adds any other ACP agent.
 */
export const NATIVE_AGENT = 'claude';

/** The ACP agents with a built-in profile, in the order they are shown. */
export const BUILTIN_ACP_AGENTS = ['codex', 'gemini', 'qwen', 'opencode'] as const;
export type BuiltinAcpAgent = (typeof BUILTIN_ACP_AGENTS)[number];

/** An agent name: a lower-case letter, then up to 31 lower-case letters, digits or '-'. */
export const AGENT_NAME_PATTERN = /^[a-z][a-z0-9-]{0,31}$/;

export function isBuiltinAcpAgent(name: string): name is BuiltinAcpAgent {
  return (BUILTIN_ACP_AGENTS as readonly string[]).includes(name);
}
