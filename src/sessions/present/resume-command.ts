import { shellQuote } from '../../core/shell-quote.js';
import type { AgentName } from '../scan/agents/agent-name.js';

/**
 * How each agent resumes a session by id: `claude --resume <id>`, `codex resume <id>`,
 * `gemini --resume <id>`, `qwen --resume <id>`, `opencode --session <id>`.
 */
const RESUME_ARGS: Record<AgentName, readonly string[]> = {
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
 */
export function resumeCommandLine(cwd: string, id: string, agent: AgentName = 'claude'): string {
  return `cd ${shellQuote(cwd)} && ${RESUME_ARGS[agent].join(' ')} ${shellQuote(id)}`;
}
