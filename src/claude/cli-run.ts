import { startProcess } from '../process/run-process.js';
import { asResultMessage, type ClaudeResultMessage } from './claude-result.js';
import { buildCliArgs } from './cli-args.js';
import { turnResult } from './conversation-turn.js';
import { EngineError, STDERR_TAIL_CHARS } from '../engine/engine-error.js';
import type { EngineResult } from '../engine/engine-types.js';
import { findClaudeBinary } from './find-claude-binary.js';
import type { ClaudeDeps, ClaudeExecutor, ClaudeRunContext } from './claude-engine-deps.js';
import { StreamJsonParser } from './stream-json-parser.js';
import { TextTail } from '../engine/text-tail.js';
import { offerSendFile } from './send-file-mcp-config.js';

/** Output kept in memory by the runner; only the last line matters, so little is needed. */
const KEPT_OUTPUT_BYTES = 64 * 1024;

/**
 * The executor of the `json` mode: one `claude -p --output-format json` child per message, run by
 * the process runner (argv only, own process group, group kill on stop, pgid tracked), the prompt
 * on stdin (then closed). Nothing streams: the single `result` line arrives at the end; its session
 * and text are emitted as one `session` and one `text` event. The end is mapped by `turnResult`
 * (`conversation-turn.ts`), as the conversation modes' turns are.
 */
export function createCliExecutor(): ClaudeExecutor {
  return async (ctx: ClaudeRunContext, deps: ClaudeDeps): Promise<EngineResult> => {
    const { config, lang } = deps;
    const binary = findClaudeBinary(config.general.claude_bin, ctx.env, deps.paths.userHome);
    if (!binary) throw new EngineError('CLAUDE_NOT_FOUND', { bin: 'claude' }, { lang });
    // The token lives as long as this one child; its calls go to this run's sender.
    const files = offerSendFile(ctx, deps, () => ctx.files);
    const args = buildCliArgs(ctx.request, {
      format: 'json',
      partial: false,
      permissionMode: config.claude.permission_mode,
      rules: files?.rules ?? ctx.rules,
      ...(files ? { mcpArgs: files.args } : {}),
    });
    let result: ClaudeResultMessage | undefined;
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
        result = parseJsonLine(line) ?? result;
      },
      onStderr: (text) => {
        ctx.touch();
        stderr.push(text);
      },
    });
    const exit = await run.done.finally(() => files?.close());
    const end = {
      result,
      parser: new StreamJsonParser(() => undefined), // json mode has no init line: the model is the result's
      exit,
      stderrTail: stderr.text(),
      stderrLastLine: stderr.lastLine(),
      silent: false,
    };
    const outcome = turnResult(end, ctx, deps, binary.path);
    ctx.emit({ type: 'session', sessionId: outcome.sessionId, ...(outcome.model ? { model: outcome.model } : {}) });
    if (outcome.text.length > 0) ctx.emit({ type: 'text', delta: outcome.text });
    return outcome;
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
