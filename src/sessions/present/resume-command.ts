import { shellQuote } from '../../core/shell-quote.js';
import { isReadableAgent, type AgentName, type ReadableAgent } from '../scan/agent-files/agent-name.js';

/**
 * How each agent resumes a session by id: `claude --resume <id>`, `codex resume <id>`,
 * `gemini --resume <id>`, `qwen --resume <id>`, `opencode --session <id>`.
 */
const RESUME_ARGS: Record<ReadableAgent, readonly string[]> = {
  claude: ['claude', '--resume'],
  codex: ['codex', 'resume'],
  gemini: ['gemini', '--resume'],
  qwen: ['qwen', '--resume'],
  opencode: ['opencode', '--session'],
};

/**
 * The command a user pastes into a terminal to continue a session there:
 * `cd <cwd> && <agent's resume command> <id>`, with the directory and the id each quoted for a
 * POSIX shell when they need it (a directory with spaces or `$(…)` is pasted as text, never run).
 * Callers print it only for a session id of that agent (`isAgentSessionId`): quoting keeps the
 * shell out, and the id's shape keeps the agent from reading it as one of its own flags.
 *
 * @example
 *   resumeCommandLine('/w/my app', '8c4b1297-…') // "cd '/w/my app' && claude --resume 8c4b1297-…"
 *   resumeCommandLine('/w', 'ses_ab12', 'opencode') // "cd /w && opencode --session ses_ab12"
 *
 * An agent configured in `[agents]` without a known resume command gets the `cd` and, as a shell
 * comment, which session to open there: cc-linker does not guess another program's flags.
 *
 * `claudeProgram` is the Claude Code executable that runs on this machine (`claudeProgramFor` in
 * `src/claude/find-claude-binary.ts`): `claude` when it is on PATH, else an absolute path (the
 * configured `general.claude_bin`, or the binary bundled with the Agent SDK), shell-quoted here.
 *
 * @example resumeCommandLine('/w', '8c4b…', 'claude', '/opt/x y/claude') // "cd /w && '/opt/x y/claude' --resume 8c4b…"
 */
export function resumeCommandLine(
  cwd: string,
  id: string,
  agent: AgentName = 'claude',
  claudeProgram = 'claude',
): string {
  if (!isReadableAgent(agent)) return `cd ${shellQuote(cwd)}  # ${agent}: ${shellQuote(id)}`;
  const [program = agent, ...args] = RESUME_ARGS[agent];
  const exe = agent === 'claude' ? shellQuote(claudeProgram) : program;
  return `cd ${shellQuote(cwd)} && ${[exe, ...args].join(' ')} ${shellQuote(id)}`;
}
