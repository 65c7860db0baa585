import type { EngineMode, EngineResult } from '../engine/engine-types.js';
import { GuardedEngine, type GuardDeps, type RunContext } from '../engine/guarded-engine.js';
import type { ChildTracker } from '../process/child-tracker.js';
import type { SendFileMcp } from '../engine/send-file-mcp.js';
import { claudeSessionFiles } from './claude-session-files.js';
import type { PermissionPolicy, RuleSet } from './permission-policy.js';

/** What Claude Code's three modes share besides the guard's needs. */
export interface ClaudeDeps extends GuardDeps {
  /** The child's environment, already filtered (`buildClaudeEnv`). */
  env: NodeJS.ProcessEnv;
  tracker?: ChildTracker;
  policy: PermissionPolicy;
  /** SIGTERM → SIGKILL grace when a run is stopped (runner default 2000 ms). */
  killGraceMs?: number;
  /** Override of the JSONL polling delays (tests). */
  jsonlPollDelaysMs?: readonly number[];
  /** The stdio `cc-linker mcp` server for the CLI modes' `send_file`; absent = not offered there. */
  sendFileMcp?: SendFileMcp;
}

/** One run as a Claude Code mode sees it: the guard's context plus the child env and the permission rules. */
export interface ClaudeRunContext extends RunContext {
  env: NodeJS.ProcessEnv;
  rules: RuleSet;
}

/** One mode's way to run Claude Code (see `Executor` in engine/guarded-engine.ts for its duties). */
export type ClaudeExecutor = (ctx: ClaudeRunContext, deps: ClaudeDeps) => Promise<EngineResult>;

/** A Claude Code mode inside the guard, with Claude Code's session files as its evidence. */
export function guardedClaudeEngine(mode: EngineMode, execute: ClaudeExecutor, deps: ClaudeDeps): GuardedEngine {
  return new GuardedEngine(
    'claude',
    mode,
    async (ctx) => execute({ ...ctx, env: deps.env, rules: await deps.policy.ruleSet() }, deps),
    { ...deps, files: claudeSessionFiles(deps.paths.claudeProjectsDir, deps.jsonlPollDelaysMs) },
  );
}
