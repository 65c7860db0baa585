import { createCliExecutor } from './cli-run.js';
import type { GuardedEngine } from '../engine/guarded-engine.js';
import { guardedClaudeEngine, type ClaudeDeps } from './claude-engine-deps.js';

/**
 * The `json` mode: `claude -p --output-format json`, one line of JSON at
 * the end. The simplest and most robust mode; nothing streams, and tool approval comes only from
 * `--permission-mode` / `--allowedTools` / `--disallowedTools` (no interactive prompts).
 *
 * @example const engine = createJsonEngine(deps); await engine.send({ prompt: 'hi', cwd: '~/Git/app' })
 */
export function createJsonEngine(deps: ClaudeDeps): GuardedEngine {
  return guardedClaudeEngine('json', createCliExecutor(), deps);
}
