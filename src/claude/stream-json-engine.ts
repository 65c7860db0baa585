import { createCliExecutor } from './cli-run.js';
import type { GuardedEngine } from '../engine/guarded-engine.js';
import { guardedClaudeEngine, type ClaudeDeps } from './claude-engine-deps.js';

/**
 * The `stream-json` mode: `claude --print --output-format
 * stream-json --verbose`, plus `--include-partial-messages` when `stream.enabled` for token-level
 * text. Streams text, thinking and tool events as they happen; tool approval as in `json` mode.
 *
 * @example const engine = createStreamJsonEngine(deps); await engine.send(req, { onEvent })
 */
export function createStreamJsonEngine(deps: ClaudeDeps): GuardedEngine {
  return guardedClaudeEngine('stream-json', createCliExecutor('stream-json'), deps);
}
