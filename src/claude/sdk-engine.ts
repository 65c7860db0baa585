import type { Options } from '@anthropic-ai/claude-agent-sdk';
import { setTimeout as sleep } from 'node:timers/promises';
import { isSessionMissingText, resultFailure, toEngineResult } from './claude-result.js';
import { imageDirectories } from './cli-args.js';
import { EngineError, failureDetail, shortSessionId, STDERR_TAIL_CHARS } from '../engine/engine-error.js';
import type { EngineResult } from '../engine/engine-types.js';
import { resolveConfiguredExecutable } from '../process/find-executable.js';
import { bundledClaudeBinary } from './find-claude-binary.js';
import type { GuardedEngine } from '../engine/guarded-engine.js';
import { guardedClaudeEngine, type ClaudeDeps, type ClaudeRunContext } from './claude-engine-deps.js';
import { createCanUseTool } from './sdk-permissions.js';
import { createSdkSpawner } from './sdk-spawn.js';
import { loadAgentSdk } from './load-agent-sdk.js';
import { readUntilResult } from './read-until-result.js';
import { StreamJsonParser } from './stream-json-parser.js';
import { TextTail } from '../engine/text-tail.js';

/** After the last message, how long the child may take to exit on its own before we end its group. */
const EXIT_WAIT_MS = 3000;

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
export function createSdkEngine(deps: ClaudeDeps): GuardedEngine {
  return guardedClaudeEngine('sdk', runSdk, deps);
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

async function runSdk(ctx: ClaudeRunContext, deps: ClaudeDeps): Promise<EngineResult> {
  const { config, lang, logger } = deps;
  const exe = sdkExecutable(deps, ctx.env);
  const stderr = new TextTail(STDERR_TAIL_CHARS);
  const spawner = createSdkSpawner({
    ...(deps.tracker ? { tracker: deps.tracker } : {}),
    ...(deps.killGraceMs !== undefined ? { killGraceMs: deps.killGraceMs } : {}),
    onActivity: ctx.touch,
    onStderr: (text) => stderr.push(text),
  });
  const abortController = new AbortController();
  const onStop = (): void => {
    abortController.abort();
    spawner.kill(); // at once: the SDK itself would wait ~2 s after closing stdin
  };
  ctx.signal.addEventListener('abort', onStop, { once: true });
  const parser = new StreamJsonParser(ctx.emit);
  const permissionMode = config.sdk.permission_mode;
  const options: Options = {
    cwd: ctx.cwd,
    env: ctx.env,
    abortController,
    pathToClaudeCodeExecutable: exe.path,
    spawnClaudeCodeProcess: spawner.spawn,
    // The bundled CLI reads MCP servers from the initialize request; an older configured one needs argv.
    mcpServersDelivery: exe.bundled ? 'initialize' : 'argv',
    permissionMode,
    ...(permissionMode === 'bypassPermissions' ? { allowDangerouslySkipPermissions: true } : {}),
    // Bare tool names are allowed by our canUseTool instead: given to the SDK they "shadow" the
    // callback (a CLAUDE_SDK_CAN_USE_TOOL_SHADOWED warning on every run); rules with content are fine.
    allowedTools: ctx.rules.allowed.filter((r) => r.includes('(')),
    disallowedTools: [...ctx.rules.disallowed],
    includePartialMessages: config.stream.enabled,
    canUseTool: createCanUseTool({
      policy: deps.policy,
      rules: ctx.rules,
      handler: ctx.permissions,
      emit: ctx.emit,
      pause: ctx.pause,
      resume: ctx.resume,
      runSignal: ctx.signal,
      timeoutMs: config.sdk.timeout_ms,
      cwd: ctx.cwd,
      home: deps.paths.userHome,
      ...(ctx.request.userId ? { userId: ctx.request.userId } : {}),
      lang,
      logger,
    }),
    stderr: (text) => stderr.push(text),
    ...(ctx.request.sessionId ? { resume: ctx.request.sessionId } : {}),
    ...(!ctx.request.sessionId && ctx.request.newSessionId ? { sessionId: ctx.request.newSessionId } : {}),
    ...(ctx.request.model ? { model: ctx.request.model } : {}),
    ...(ctx.request.imagePaths?.length ? { additionalDirectories: imageDirectories(ctx.request.imagePaths) } : {}),
  };

  let thrown: unknown;
  let answered = false;
  try {
    if (ctx.signal.aborted) throw new Error('stopped before start');
    const { query } = await loadAgentSdk();
    const reading = readUntilResult(query({ prompt: ctx.request.prompt, options }), (message) => {
      ctx.touch();
      parser.push(message);
    });
    await reading.untilResult;
    // A successful answer goes out now; Claude Code saves the turn and exits under the session's lock.
    answered = !ctx.signal.aborted && parser.result !== undefined && !resultFailure(parser.result);
    if (answered) ctx.wrapUp(finishAfterAnswer(reading.rest, spawner, logger));
    else thrown = await reading.rest;
  } catch (err) {
    thrown = err;
  } finally {
    ctx.signal.removeEventListener('abort', onStop);
    if (!answered) await ensureGone(spawner);
  }

  const tail = stderr.text();
  const sessionGone = (): EngineError =>
    new EngineError(
      'SESSION_NOT_FOUND',
      { session: shortSessionId(ctx.request.sessionId ?? '') },
      { lang, stderrTail: tail, cause: thrown },
    );
  const result = parser.result;
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
  if (thrown !== undefined) {
    const message = thrown instanceof Error ? thrown.message : String(thrown);
    if (ctx.request.sessionId && isSessionMissingText(message, tail)) throw sessionGone();
    throw new EngineError('RUN_FAILED', { detail: failureDetail(message) }, { lang, stderrTail: tail, cause: thrown });
  }
  if (!result)
    throw new EngineError(
      'RUN_FAILED',
      { detail: failureDetail(`no result from Claude Code${stderr.lastLine() ? ` (${stderr.lastLine()})` : ''}`) },
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

/** After an answer was returned: the rest of the messages, then the child's group gone. Never rejects. */
async function finishAfterAnswer(
  rest: Promise<unknown>,
  spawner: ReturnType<typeof createSdkSpawner>,
  logger: ClaudeDeps['logger'],
): Promise<void> {
  const late = await rest;
  if (late !== undefined) logger.warn('Claude Code failed after it answered', { err: late });
  await ensureGone(spawner);
}

/** Waits for the child's group to be gone; ends it when it lingers after the conversation ended. */
async function ensureGone(spawner: ReturnType<typeof createSdkSpawner>): Promise<void> {
  if (!spawner.started) return;
  const done = spawner.settled();
  const lingering = await Promise.race([done.then(() => false), sleep(EXIT_WAIT_MS).then(() => true)]);
  if (lingering) spawner.kill();
  await done;
}
