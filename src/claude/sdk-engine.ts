import { isSessionMissingText, resultFailure, toEngineResult } from './claude-result.js';
import { EngineError, failureDetail, shortSessionId } from '../engine/engine-error.js';
import type { EngineResult } from '../engine/engine-types.js';
import { resolveConfiguredExecutable } from '../process/find-executable.js';
import { bundledClaudeBinary } from './find-claude-binary.js';
import type { GuardedEngine } from '../engine/guarded-engine.js';
import { guardedClaudeEngine, type ClaudeDeps, type ClaudeRunContext } from './claude-engine-deps.js';
import type { WarmPool } from '../engine/warm-pool.js';
import { conversationKey, SdkConversation, type TurnEnd } from './sdk-conversation.js';

/**
 * The `sdk` mode, the default (`sdk.enabled` is true unless configured off):
 * `@anthropic-ai/claude-agent-sdk` `query()` with `canUseTool` wired to the bridge's
 * `PermissionHandler`, so the user approves tools and answers AskUserQuestion from chat.
 *
 * - Executable: `sdk.claude_executable` when set (a name is looked up on PATH), else the binary
 *   the SDK bundles. The SDK starts it through our process runner (`spawnClaudeCodeProcess`), so
 *   it has its own process group, is tracked for crash recovery, and stop = group kill.
 * - `env` is passed explicitly (the SDK replaces the child's environment) — the filtered env.
 * - `permissionMode` = `sdk.permission_mode`; `disallowedTools` = `claude.disallowed_tools`;
 *   `allowedTools` = the allow rules that have content (`Bash(npm test:*)`, persisted ones included)
 *   — bare names (`Read`) are allowed by `canUseTool`; `includePartialMessages` = `stream.enabled`.
 * - Messages are the stream-json objects, parsed by the same `StreamJsonParser`.
 * - Errors: a bad `resume` yields an `is_error` result, then the iterator throws →
 *   `SESSION_NOT_FOUND`; other failures → `RUN_FAILED` with the stderr tail.
 *
 * @example const engine = createSdkEngine(deps); await engine.send(req, { onEvent, permissions, signal })
 */
export function createSdkEngine(deps: ClaudeDeps, warm?: WarmPool<SdkConversation>): GuardedEngine {
  return guardedClaudeEngine('sdk', (ctx) => runSdk(ctx, deps, warm), warm ? { ...deps, warm } : deps);
}

/** The Claude Code executable for the SDK, or `CLAUDE_NOT_FOUND`. */
function sdkExecutable(deps: ClaudeDeps, env: NodeJS.ProcessEnv): { path: string; bundled: boolean } {
  const configured = deps.config.sdk.claude_executable.trim();
  if (configured) {
    const resolved = resolveConfiguredExecutable(configured, env, deps.paths.userHome);
    if (!resolved) throw new EngineError('CLAUDE_NOT_FOUND', { bin: configured }, { lang: deps.lang });
    return { path: resolved, bundled: false };
  }
  const bundled = bundledClaudeBinary();
  if (!bundled)
    throw new EngineError('CLAUDE_NOT_FOUND', { bin: '@anthropic-ai/claude-agent-sdk (bundled)' }, { lang: deps.lang });
  return { path: bundled, bundled: true };
}

async function runSdk(
  ctx: ClaudeRunContext,
  deps: ClaudeDeps,
  pool: WarmPool<SdkConversation> | undefined,
): Promise<EngineResult> {
  const exe = sdkExecutable(deps, ctx.env);
  const kept = ctx.request.sessionId && pool ? await pool.take(ctx.request.sessionId, conversationKey(ctx)) : undefined;
  let conversation = kept ?? new SdkConversation(ctx, deps, exe);
  let end = await conversation.run(ctx);
  if (kept && end.silent && !ctx.signal.aborted) {
    // The kept child had died (or died as the message was written) before this turn did anything:
    // the turn runs on a fresh child that resumes the session from its file, as a cold run would.
    deps.logger.info('warm process gone; resuming cold', { sessionId: ctx.request.sessionId });
    await conversation.dispose('died');
    conversation = new SdkConversation(ctx, deps, exe);
    end = await conversation.run(ctx);
  }
  let result: EngineResult;
  try {
    result = sdkTurnResult(end, ctx, deps);
  } catch (err) {
    await conversation.dispose('failed');
    throw err;
  }
  if (pool?.enabled && conversation.alive) pool.keep(result.sessionId, conversation);
  else ctx.wrapUp(conversation.dispose('one turn')); // the answer is out; the lock waits for the exit
  return result;
}

/** A turn's end as the engine's result, or the matching `EngineError`. */
function sdkTurnResult(end: TurnEnd, ctx: ClaudeRunContext, deps: ClaudeDeps): EngineResult {
  const { lang } = deps;
  const { thrown, stderrTail: tail, parser } = end;
  const sessionGone = (): EngineError =>
    new EngineError(
      'SESSION_NOT_FOUND',
      { session: shortSessionId(ctx.request.sessionId ?? '') },
      { lang, stderrTail: tail, cause: thrown },
    );
  const result = end.result;
  if (result) {
    const failure = resultFailure(result);
    if (failure?.sessionMissing && ctx.request.sessionId) throw sessionGone();
    if (failure)
      throw new EngineError(
        'RUN_FAILED',
        { detail: failureDetail(failure.detail) },
        { lang, stderrTail: tail, cause: thrown },
      );
  }
  if (!result && thrown !== undefined) {
    const message = thrown instanceof Error ? thrown.message : String(thrown);
    if (ctx.request.sessionId && isSessionMissingText(message, tail)) throw sessionGone();
    throw new EngineError('RUN_FAILED', { detail: failureDetail(message) }, { lang, stderrTail: tail, cause: thrown });
  }
  if (!result)
    throw new EngineError(
      'RUN_FAILED',
      { detail: failureDetail(`no result from Claude Code${end.stderrLastLine ? ` (${end.stderrLastLine})` : ''}`) },
      { lang, stderrTail: tail },
    );
  const sessionId =
    typeof result.session_id === 'string' && result.session_id.length > 0
      ? result.session_id
      : (parser.sessionId ?? '');
  if (!sessionId)
    throw new EngineError('RUN_FAILED', { detail: 'the result has no session_id' }, { lang, stderrTail: tail });
  return toEngineResult(result, {
    sessionId,
    durationMs: performance.now() - ctx.startedAt,
    isNewSession: ctx.isNew,
    ...(parser.model ? { model: parser.model } : {}),
  });
}
