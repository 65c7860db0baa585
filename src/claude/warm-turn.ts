import type { ClaudeDeps, ClaudeRunContext } from './claude-engine-deps.js';
import { conversationKey, turnResult, type Conversation } from './conversation-turn.js';
import type { EngineResult } from '../engine/engine-types.js';
import fs from 'node:fs';
import type { WarmPool } from '../engine/warm-pool.js';
import { claudeSessionFiles } from './claude-session-files.js';

/**
 * Runs one turn of a long-lived conversation (`sdk` and `stream-json` modes), warm or cold:
 * - a resume takes the session's kept child from `pool` when its key matches and it is not stale,
 *   else `start` makes a new one;
 * - a kept child that died before the turn emitted anything (killed while idle, or as the message
 *   was written) and before its file recorded the message → the turn runs on a fresh child that
 *   resumes the session from its file, as a cold run would;
 * - success → the child goes back to the pool; with warm sessions off it is disposed through
 *   `ctx.wrapUp` (the answer is returned first, the session's lock waits for the exit);
 * - failure → the child is disposed before the error is thrown.
 * See docs/design.md#warm-sessions.
 */
export async function runWarmTurn<C extends Conversation>(
  ctx: ClaudeRunContext,
  deps: ClaudeDeps,
  pool: WarmPool<C> | undefined,
  start: () => C,
  bin?: string,
): Promise<EngineResult> {
  const kept = ctx.request.sessionId && pool ? await pool.take(ctx.request.sessionId, conversationKey(ctx)) : undefined;
  const transcript = kept ? transcriptSize(ctx, deps) : null;
  let conversation = kept ?? start();
  let end = await conversation.run(ctx);
  // Sent again only when the dead child left no trace of the message in the session's file: a
  // prompt it had recorded would reach the model twice (the turn then fails as a cold one would).
  if (kept && end.silent && !ctx.signal.aborted && transcriptSize(ctx, deps) === transcript) {
    deps.logger.info('warm process gone; resuming cold', { sessionId: ctx.request.sessionId });
    await conversation.dispose('died');
    conversation = start();
    end = await conversation.run(ctx);
  }
  let result: EngineResult;
  try {
    result = turnResult(end, ctx, deps, bin);
  } catch (err) {
    await conversation.dispose('failed');
    throw err;
  }
  if (pool?.enabled && conversation.alive) pool.keep(result.sessionId, conversation);
  else ctx.wrapUp(conversation.dispose('one turn')); // the answer is out; the lock waits for the exit
  return result;
}

/** The size of the session's transcript now (-1 when it cannot be read). */
function transcriptSize(ctx: ClaudeRunContext, deps: ClaudeDeps): number {
  const file = ctx.request.sessionId
    ? claudeSessionFiles(deps.paths.claudeProjectsDir).transcriptOf(ctx.request.sessionId, ctx.cwd)
    : null;
  try {
    return file ? fs.statSync(file).size : -1;
  } catch {
    return -1;
  }
}
