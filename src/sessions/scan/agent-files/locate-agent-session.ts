import path from 'node:path';
import type { AgentDirs } from './agent-reader.js';
import { readerOf } from './agent-readers.js';
import type { AgentName } from './agent-name.js';

/**
 * The file that holds session `id` of `agent`, found by its name: Codex's
 * `rollout-<time>-<id>.jsonl`, Qwen Code's `<id>.jsonl`, Gemini CLI's `session-<time>-<first 8 of
 * id>.jsonl` (the newest such file), OpenCode's database (it holds every session). Null when none
 * is there (yet), or when cc-linker does not read this agent's files.
 *
 * @example locateAgentSession('codex', dirs, '019a…') // '~/.codex/sessions/2026/12/02/rollout-…-019a….jsonl'
 */
export function locateAgentSession(agent: AgentName, dirs: AgentDirs, id: string): string | null {
  const reader = agent === 'claude' ? null : readerOf(agent);
  if (!reader) return null;
  const files = reader.list(dirs, [], []);
  if (agent === 'opencode') return files[0] ?? null;
  const key = agent === 'gemini' ? `-${id.slice(0, 8)}.jsonl` : `${id}.jsonl`;
  const found = files.filter((f) => path.basename(f).endsWith(key));
  return found.at(-1) ?? null;
}
