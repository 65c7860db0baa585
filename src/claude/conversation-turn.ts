import type { RunResult } from '../process/run-process.js';
import { isSessionMissingText, resultFailure, toEngineResult, type ClaudeResultMessage } from './claude-result.js';
import { readableDirectories } from './cli-args.js';
import type { ClaudeDeps, ClaudeRunContext } from './claude-engine-deps.js';
import { EngineError, failureDetail, shortSessionId, STDERR_TAIL_CHARS } from '../engine/engine-error.js';
import type { EngineEvent, EngineResult } from '../engine/engine-types.js';
import { TextTail } from '../engine/text-tail.js';
import type { WarmProcess } from '../engine/warm-pool.js';
import { StreamJsonParser } from './stream-json-parser.js';

/** After the input ends, how long a conversation's child may take to exit on its own before we end its group. */
export const EXIT_WAIT_MS = 3000;

/** How one turn ended, for `turnResult` to turn into a result or an error. */
export interface TurnEnd {
  result: ClaudeResultMessage | undefined;
  /** The turn's own parser (its session id and model). */
  parser: StreamJsonParser;
  /** What the conversation's iterator threw, when it did (sdk mode). */
  thrown?: unknown;
  /** The child's end, when the turn ended without a result because the child ended (cli modes). */
  exit?: RunResult;
  stderrTail: string;
  stderrLastLine: string;
  /** True when the turn emitted nothing before the child ended (a warm child that had died). */
  silent: boolean;
}

/**
 * One Claude Code child that takes turns: `sdk-conversation.ts` (the Agent SDK's streaming input)
 * and `cli-conversation.ts` (`claude --input-format stream-json`). A stop of the turn's signal ends
 * the child's whole group before `run` returns.
 */
export interface Conversation extends WarmProcess {
  run(ctx: ClaudeRunContext): Promise<TurnEnd>;
}

/**
 * One running turn's own state: its parser (events go to `ctx.emit`), its stderr tail (starting
 * with what the child said before the turn, e.g. at start-up), whether it emitted anything, and
 * `done`, settled by `finish` (the `result`, the child's end, a stop).
 */
export class TurnState {
  readonly parser: StreamJsonParser;
  readonly stderr = new TextTail(STDERR_TAIL_CHARS);
  readonly done: Promise<void>;
  readonly finish: () => void;
  private emitted = false;

  constructor(
    readonly ctx: ClaudeRunContext,
    before: TextTail,
  ) {
    let finish = (): void => undefined;
    this.done = new Promise<void>((resolve) => (finish = resolve));
    this.finish = finish;
    this.stderr.push(before.text());
    this.parser = new StreamJsonParser((event: EngineEvent) => {
      this.emitted = true;
      ctx.emit(event);
    });
  }

  /** The turn's end; `silent` when it neither emitted anything nor got a result. */
  end(how: { thrown?: unknown; exit?: RunResult }): TurnEnd {
    return {
      result: this.parser.result,
      parser: this.parser,
      ...(how.thrown !== undefined ? { thrown: how.thrown } : {}),
      ...(how.exit ? { exit: how.exit } : {}),
      stderrTail: this.stderr.text(),
      stderrLastLine: this.stderr.lastLine(),
      silent: !this.emitted && !this.parser.result,
    };
  }
}

/** The options a conversation is started with that a later turn cannot change: its key. */
export function conversationKey(ctx: ClaudeRunContext): string {
  return JSON.stringify([ctx.cwd, ctx.request.model ?? '', ctx.rules, readableDirectories(ctx.request)]);
}

/**
 * A turn's end as the engine's result, or the matching `EngineError`:
 * - the child could not start: a missing cwd → `CWD_MISSING`, a missing or non-executable binary
 *   (`bin`) → `CLAUDE_NOT_FOUND`;
 * - "No conversation found" on resume (in the result, the thrown error or stderr) → `SESSION_NOT_FOUND`;
 * - an `is_error` result, a stop, a non-zero exit, a crash, a thrown error or no result → `RUN_FAILED`
 *   with a one-line detail and the redacted stderr tail.
 * The model is the one `system/init` named, else the result's.
 */
export function turnResult(end: TurnEnd, ctx: ClaudeRunContext, deps: ClaudeDeps, bin = 'claude'): EngineResult {
  const { lang } = deps;
  const { thrown, exit, stderrTail: tail, parser, result } = end;
  const cause = thrown !== undefined ? { cause: thrown } : {};
  const fail = (detail: string): EngineError =>
    new EngineError('RUN_FAILED', { detail: failureDetail(detail) }, { lang, stderrTail: tail, ...cause });
  const sessionGone = (): EngineError =>
    new EngineError(
      'SESSION_NOT_FOUND',
      { session: shortSessionId(ctx.request.sessionId ?? '') },
      { lang, stderrTail: tail, ...cause },
    );
  const said = end.stderrLastLine;
  if (exit?.reason === 'spawn-error') {
    const code = exit.spawnError?.code ?? '';
    if (code === 'ENOENT' && /working directory/.test(exit.spawnError?.message ?? ''))
      throw new EngineError('CWD_MISSING', { cwd: ctx.cwd }, { lang });
    if (code === 'ENOENT' || code === 'EACCES') throw new EngineError('CLAUDE_NOT_FOUND', { bin }, { lang });
    throw fail(exit.spawnError?.message ?? 'spawn failed');
  }
  if (exit && exit.reason !== 'exit') throw fail(`stopped (${exit.reason})`); // the engine reports the real reason
  if (result) {
    const failure = resultFailure(result);
    if (failure?.sessionMissing && ctx.request.sessionId) throw sessionGone();
    if (failure) throw fail(failure.detail);
  }
  if (exit && exit.exitCode !== 0) {
    if (ctx.request.sessionId && isSessionMissingText(tail)) throw sessionGone();
    throw fail(
      exit.signal
        ? `terminated by ${exit.signal}${said ? `: ${said}` : ''}`
        : `exit code ${String(exit.exitCode)}${said ? `: ${said}` : ''}`,
    );
  }
  if (!result && thrown !== undefined) {
    const message = thrown instanceof Error ? thrown.message : String(thrown);
    if (ctx.request.sessionId && isSessionMissingText(message, tail)) throw sessionGone();
    throw fail(message);
  }
  if (!result) throw fail(`no result in the output${said ? ` (${said})` : ''}`);
  const sessionId =
    typeof result.session_id === 'string' && result.session_id.length > 0
      ? result.session_id
      : (parser.sessionId ?? '');
  if (!sessionId) throw fail('the result has no session_id');
  return toEngineResult(result, {
    sessionId,
    durationMs: performance.now() - ctx.startedAt,
    isNewSession: ctx.isNew,
    ...(parser.model ? { model: parser.model } : {}),
  });
}
