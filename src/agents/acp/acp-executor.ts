import type { EngineResult } from '../../engine/engine-types.js';
import type { Executor, RunContext } from '../../engine/guarded-engine.js';
import type { WarmPool } from '../../engine/warm-pool.js';
import { AcpConversation, acpConversationKey } from './acp-conversation.js';
import type { AcpAgentProfile, AcpExecutorDeps } from './acp-executor-deps.js';
import { GoneBeforePrompt } from './acp-failures.js';

export type { AcpAgentProfile, AcpExecutorDeps } from './acp-executor-deps.js';

/**
 * The ACP `Executor`: each `send` is one turn on an `AcpConversation` (one agent process).
 *
 * - A resume takes the session's kept process from `warm` when its key (cwd, model) matches and it
 *   is neither dead nor stale; the turn is then just `session/prompt`. Otherwise a new process
 *   starts (initialize, `session/new` or `session/load`).
 * - A kept process found ended before the prompt was written to it → the turn runs on a fresh
 *   process that loads the session, as a cold run would. One that ends after the prompt was
 *   written fails the turn (`RUN_FAILED`): the agent may have recorded the prompt, and sending it
 *   again would give it to the model twice.
 * - Success → the process goes back to `warm`; with warm sessions off (or not kept) it is ended
 *   through `ctx.wrapUp`: the answer goes out now while the agent saves the turn and exits (the
 *   session stays locked until it has).
 * - Failure or stop → the group is ended before the error is thrown (the guard maps a stop to
 *   CANCELLED / TIMEOUT_*).
 * See docs/design.md#warm-sessions and `AcpConversation` for the turn itself.
 */
export function createAcpExecutor(
  profile: AcpAgentProfile,
  deps: AcpExecutorDeps,
  warm?: WarmPool<AcpConversation>,
): Executor {
  return (ctx) => runTurn(profile, deps, warm, ctx);
}

async function runTurn(
  profile: AcpAgentProfile,
  deps: AcpExecutorDeps,
  warm: WarmPool<AcpConversation> | undefined,
  ctx: RunContext,
): Promise<EngineResult> {
  const resumeId = ctx.request.sessionId;
  const kept = resumeId && warm ? await warm.take(resumeId, acpConversationKey(ctx)) : undefined;
  const start = (): AcpConversation => new AcpConversation(profile, deps, ctx);
  let conversation = kept ?? start();
  let result: EngineResult;
  try {
    result = await conversation.run(ctx);
  } catch (err) {
    if (!(err instanceof GoneBeforePrompt)) throw err;
    deps.logger.info('warm process gone; starting the agent again', { agent: profile.name, sessionId: resumeId });
    conversation = start();
    result = await conversation.run(ctx);
  }
  if (ctx.signal.aborted)
    await conversation.kill(); // stopped as it answered: nothing is kept
  else if (warm?.enabled && conversation.alive) warm.keep(result.sessionId, conversation);
  else ctx.wrapUp(conversation.dispose('one turn'));
  return result;
}
