import { startProcess, type RunResult } from '../process/run-process.js';
import {
  asResultMessage,
  isSessionMissingText,
  resultFailure,
  toEngineResult,
  type ClaudeResultMessage,
} from './claude-result.js';
import { buildCliArgs, type CliFormat } from './cli-args.js';
import { EngineError, failureDetail, shortSessionId, STDERR_TAIL_CHARS } from '../engine/engine-error.js';
import type { EngineResult } from '../engine/engine-types.js';
import { findClaudeBinary } from './find-claude-binary.js';
import type { ClaudeDeps, ClaudeExecutor, ClaudeRunContext } from './claude-engine-deps.js';
import { StreamJsonParser } from './stream-json-parser.js';
import { TextTail } from '../engine/text-tail.js';

/** Output kept in memory by the runner; lines are parsed as they stream, so little is needed. */
const KEPT_OUTPUT_BYTES = 64 * 1024;

/**
 * The executor of the `json` and `stream-json` modes: one `claude -p` child per message, run by
 * the process runner (argv only, own process group, group kill on stop, pgid tracked), the prompt
 * on stdin, stdout parsed line by line.
 *
 * json: nothing streams; the single `result` line arrives at the end and its text is emitted as
 * one `text` event. stream-json: `StreamJsonParser` turns each line into events as it comes.
 * Failures: binary missing → `CLAUDE_NOT_FOUND`; "No conversation found" (on stderr or in an
 * `is_error` result) → `SESSION_NOT_FOUND`; an `is_error` result, a non-zero exit, a crash or
 * output without a `result` → `RUN_FAILED` carrying the redacted stderr tail.
 */
export function createCliExecutor(format: CliFormat): ClaudeExecutor {
  return async (ctx: ClaudeRunContext, deps: ClaudeDeps): Promise<EngineResult> => {
    const { config, lang } = deps;
    const binary = findClaudeBinary(config.general.claude_bin, ctx.env, deps.paths.userHome);
    if (!binary) throw new EngineError('CLAUDE_NOT_FOUND', { bin: 'claude' }, { lang });
    const args = buildCliArgs(ctx.request, {
      format,
      partial: config.stream.enabled,
      permissionMode: config.claude.permission_mode,
      rules: ctx.rules,
    });
    const parser = new StreamJsonParser(ctx.emit);
    let jsonResult: ClaudeResultMessage | undefined;
    const stderr = new TextTail(STDERR_TAIL_CHARS);
    const run = startProcess([binary.path, ...args], {
      cwd: ctx.cwd,
      env: ctx.env,
      input: ctx.request.prompt,
      signal: ctx.signal,
      ...(deps.killGraceMs !== undefined ? { killGraceMs: deps.killGraceMs } : {}),
      ...(deps.tracker ? { tracker: deps.tracker } : {}),
      maxOutputBytes: KEPT_OUTPUT_BYTES,
      onStdoutLine: (line) => {
        ctx.touch();
        if (format === 'stream-json') parser.pushLine(line);
        else jsonResult = parseJsonLine(line) ?? jsonResult;
      },
      onStderr: (text) => {
        ctx.touch();
        stderr.push(text);
      },
    });
    const r = await run.done;
    const result = format === 'stream-json' ? parser.result : jsonResult;
    const outcome = interpret(r, result, stderr, ctx, deps, binary.path);
    if (format === 'json') {
      ctx.emit({ type: 'session', sessionId: outcome.sessionId, ...(outcome.model ? { model: outcome.model } : {}) });
      if (outcome.text.length > 0) ctx.emit({ type: 'text', delta: outcome.text });
    }
    return { ...outcome, ...(parser.model && !outcome.model ? { model: parser.model } : {}) };
  };
}

function parseJsonLine(line: string): ClaudeResultMessage | null {
  const trimmed = line.trim();
  if (!trimmed.startsWith('{')) return null;
  try {
    return asResultMessage(JSON.parse(trimmed));
  } catch {
    return null;
  }
}

/** Turns the run's end into an `EngineResult` or the matching `EngineError`. */
function interpret(
  r: RunResult,
  result: ClaudeResultMessage | undefined,
  stderr: TextTail,
  ctx: ClaudeRunContext,
  deps: ClaudeDeps,
  bin: string,
): EngineResult {
  const { lang } = deps;
  const tail = stderr.text();
  const fail = (detail: string): EngineError =>
    new EngineError('RUN_FAILED', { detail: failureDetail(detail) }, { lang, stderrTail: tail });
  if (r.reason === 'spawn-error') {
    const code = r.spawnError?.code ?? '';
    if (code === 'ENOENT' && /working directory/.test(r.spawnError?.message ?? ''))
      throw new EngineError('CWD_MISSING', { cwd: ctx.cwd }, { lang });
    if (code === 'ENOENT' || code === 'EACCES') throw new EngineError('CLAUDE_NOT_FOUND', { bin }, { lang });
    throw fail(r.spawnError?.message ?? 'spawn failed');
  }
  if (r.reason !== 'exit') throw fail(`stopped (${r.reason})`); // the engine reports the real reason
  const sessionGone = (): EngineError =>
    new EngineError(
      'SESSION_NOT_FOUND',
      { session: shortSessionId(ctx.request.sessionId ?? '') },
      { lang, stderrTail: tail },
    );
  if (result) {
    const failure = resultFailure(result);
    if (failure?.sessionMissing && ctx.request.sessionId) throw sessionGone();
    if (failure) throw fail(failure.detail);
  }
  if (r.exitCode !== 0) {
    if (ctx.request.sessionId && isSessionMissingText(tail)) throw sessionGone();
    const said = stderr.lastLine();
    throw fail(
      r.signal
        ? `terminated by ${r.signal}${said ? `: ${said}` : ''}`
        : `exit code ${String(r.exitCode)}${said ? `: ${said}` : ''}`,
    );
  }
  if (!result) throw fail(`no result in the output${stderr.lastLine() ? ` (${stderr.lastLine()})` : ''}`);
  const sessionId = typeof result.session_id === 'string' ? result.session_id : '';
  if (!sessionId) throw fail('the result has no session_id');
  return toEngineResult(result, { sessionId, durationMs: performance.now() - ctx.startedAt, isNewSession: ctx.isNew });
}
