import { CliConversation } from './cli-conversation.js';
import type { EngineResult } from '../engine/engine-types.js';
import { EngineError } from '../engine/engine-error.js';
import type { GuardedEngine } from '../engine/guarded-engine.js';
import type { WarmPool } from '../engine/warm-pool.js';
import { guardedClaudeEngine, type ClaudeDeps, type ClaudeRunContext } from './claude-engine-deps.js';
import { findClaudeBinary } from './find-claude-binary.js';
import { runWarmTurn } from './warm-turn.js';

/**
 * The `stream-json` mode: `claude --print --input-format stream-json --output-format stream-json
 * --verbose`, plus `--include-partial-messages` when `stream.enabled` for token-level text. Streams
 * text, thinking and tool events as they happen; tool approval as in `json` mode. Each message is
 * one turn of a `CliConversation`; with `warm` the session's child stays alive between turns
 * (`runtime.warm_idle_ms`, `runtime.max_warm`), without it the child is used once and its exit
 * awaited under the session's lock.
 *
 * @example const engine = createStreamJsonEngine(deps, pool); await engine.send(req, { onEvent })
 */
export function createStreamJsonEngine(deps: ClaudeDeps, warm?: WarmPool<CliConversation>): GuardedEngine {
  const run = (ctx: ClaudeRunContext): Promise<EngineResult> => {
    const binary = findClaudeBinary(deps.config.general.claude_bin, ctx.env, deps.paths.userHome);
    if (!binary) throw new EngineError('CLAUDE_NOT_FOUND', { bin: 'claude' }, { lang: deps.lang });
    return runWarmTurn(ctx, deps, warm, () => new CliConversation(ctx, deps, binary.path), binary.path);
  };
  return guardedClaudeEngine('stream-json', run, warm ? { ...deps, warm } : deps);
}
