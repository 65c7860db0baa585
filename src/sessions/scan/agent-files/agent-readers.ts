import type { AgentReader } from './agent-reader.js';
import type { AgentName } from './agent-name.js';
import { codexReader } from './codex-sessions.js';
import { geminiReader } from './gemini-sessions.js';
import { opencodeReader } from './opencode-sessions.js';
import { qwenReader } from './qwen-sessions.js';

/** Every agent's reader (Claude Code's sessions are the scanner's, `scan-claude-projects.ts`). */
export const AGENT_READERS: readonly AgentReader[] = [codexReader, geminiReader, qwenReader, opencodeReader];

/** The reader of `agent`, or null for Claude Code (read by the scanner itself). */
export function readerOf(agent: AgentName): AgentReader | null {
  return AGENT_READERS.find((r) => r.agent === agent) ?? null;
}
