import type { OfferedTool } from './agent-script.js';

/** Shell tool names, in the order the fake prefers them: Codex, Qwen/Gemini, OpenCode, Claude. */
export const SHELL_TOOL_NAMES = ['exec_command', 'run_shell_command', 'bash', 'Bash', 'shell'] as const;

type Schema = { type?: unknown; properties?: Record<string, { type?: unknown }>; required?: unknown };

/**
 * A call of the request's own shell tool running `command`. The tool is picked by name
 * ({@link SHELL_TOOL_NAMES}); its schema decides the argument: `cmd` or `command`, a string or an
 * argv array (`["bash", "-lc", command]`), plus a `description` when the schema has one.
 * Throws when no shell tool is offered or its schema has neither `cmd` nor `command`.
 */
export function shellToolCall(tools: OfferedTool[], command: string): { name: string; args: Record<string, unknown> } {
  const tool = SHELL_TOOL_NAMES.map((name) => tools.find((t) => t.name === name)).find((t) => t !== undefined);
  if (!tool) {
    const offered = tools.map((t) => t.name).join(', ') || 'none';
    throw new Error(`fake model: no shell tool offered (wanted one of ${SHELL_TOOL_NAMES.join(', ')}; got ${offered})`);
  }
  const props = (tool.parameters as Schema | undefined)?.properties ?? {};
  const key = ['cmd', 'command'].find((k) => k in props);
  if (key === undefined)
    throw new Error(`fake model: shell tool ${tool.name} has neither "cmd" nor "command" in its schema`);
  const args: Record<string, unknown> = {
    [key]: props[key]?.type === 'array' ? ['bash', '-lc', command] : command,
  };
  if ('description' in props) args.description = `run ${command}`;
  return { name: tool.name, args };
}
