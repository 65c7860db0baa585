import { EngineError } from '../engine/engine-error.js';
import { resolveConfiguredExecutable } from '../process/find-executable.js';
import { bundledClaudeBinary } from './find-claude-binary.js';
import type { GuardedEngine } from '../engine/guarded-engine.js';
import { guardedClaudeEngine, type ClaudeDeps, type ClaudeRunContext } from './claude-engine-deps.js';
import type { EngineResult } from '../engine/engine-types.js';
import type { WarmPool } from '../engine/warm-pool.js';
import { SdkConversation } from './sdk-conversation.js';
import { runWarmTurn } from './warm-turn.js';

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
  const run = (ctx: ClaudeRunContext): Promise<EngineResult> => {
    const exe = sdkExecutable(deps, ctx.env);
    return runWarmTurn(ctx, deps, warm, () => new SdkConversation(ctx, deps, exe));
  };
  return guardedClaudeEngine('sdk', run, warm ? { ...deps, warm } : deps);
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
