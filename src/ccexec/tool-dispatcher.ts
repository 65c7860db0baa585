import { redact } from '../core/redact.js';
import { applyDefaults } from './apply-defaults.js';
import type { ExecFn, ExecOutcome } from './exec-service.js';
import { gate, quoteForReason } from './gate.js';
import type { ParsedToolCall } from './parse-tool-call.js';
import { CC_EXEC_TOOL_NAME } from './tool-descriptor.js';
import { truncateForModel } from './truncate-for-model.js';

/**
 * The dispatcher's answer for one tool call: what happened, the plain-text tool result for the model
 * (`content`) and the full output for the UI.
 * - `allowed`: the CLI ran (or failed to start: exit -1); a non-zero CLI exit is passed through as is.
 * - `denied`: the gate refused; nothing ran; exit 126, and stderr says "command not allowed in
 *   read-only mode: <reason>" so the model can paraphrase it.
 * - `invalid`: the arguments could not be read as `{command, subargs}`; exit 64.
 * - `unknown-tool`: a tool other than `cc_exec`; exit 127.
 *
 * `argv` is the argv that ran (after `applyDefaults`) when allowed, the argv as requested when denied
 * with a readable command and string subargs, and absent otherwise. It is model-supplied: escape it
 * before rendering.
 */
export interface ToolOutcome {
  readonly decision: 'allowed' | 'denied' | 'invalid' | 'unknown-tool';
  readonly argv?: string[];
  readonly reason?: string;
  readonly exitCode: number;
  readonly durationMs: number;
  /**
   * `exitCode=…\nduration=…ms\nstdout (truncated to 4KB if needed):\n…\n\nstderr:\n…`: plain text, not
   * JSON, so the model reads the CLI's output as output rather than as metadata.
   */
  readonly content: string;
  /** Full stdout for the UI's expand view. */
  readonly stdout: string;
  readonly stderr: string;
  /**
   * Set when an allowed call was stopped before the CLI exited by itself (`exitCode` is then -1):
   * `cancelled` by the user (or before it started), `timeout` at the run limit. A card says so
   * instead of "done".
   */
  readonly stopped?: ToolStopped;
}

/** Why an allowed call ended without the CLI's own exit. */
export type ToolStopped = 'cancelled' | 'timeout';

/** The dispatcher's collaborators: how to run the CLI, and the turn's cancel signal. */
export interface DispatchDeps {
  readonly exec: ExecFn;
  readonly signal?: AbortSignal;
}

export const EXIT_DENIED = 126;
export const EXIT_UNKNOWN_TOOL = 127;
export const EXIT_MALFORMED = 64;
export const EXIT_EXEC_FAILED = -1;

const STDERR_MODEL_BYTES = 1024;

/**
 * Routes one model tool call, already read by `parseToolCall`: name check → argument shape → gate →
 * `applyDefaults` → exec. Never rejects and never runs anything the gate did not allow; every refusal
 * comes back as a fake tool result (the exit code and the reason in stderr) so the model can explain it
 * instead of the chat failing. A non-zero exit of the CLI itself is not a failure (an empty `skill list`
 * or `note show` of an unknown id exit 1): it is passed through for the model to judge.
 *
 * @example
 *   await dispatchToolCall(parseToolCall({ id: 'c1', name: 'cc_exec', arguments: '{"command":"note","subargs":["list"]}' }), { exec })
 *   // exec called with ['note', 'list', '--limit', '20']; { decision: 'allowed', exitCode: 0, content: 'exitCode=0\n…' }
 */
export async function dispatchToolCall(call: ParsedToolCall, deps: DispatchDeps): Promise<ToolOutcome> {
  if (call.name !== CC_EXEC_TOOL_NAME) {
    const name = typeof call.name === 'string' ? quoteForReason(call.name) : String(typeof call.name);
    return refusal('unknown-tool', EXIT_UNKNOWN_TOOL, `unknown tool ${name}; the only tool is ${CC_EXEC_TOOL_NAME}`);
  }
  const request = call.request;
  if (!request.ok) return refusal('invalid', EXIT_MALFORMED, request.reason, 'malformed arguments');

  const decision = gate(request.command, request.subargs);
  if (!decision.allow) {
    return {
      ...refusal('denied', EXIT_DENIED, decision.reason, 'command not allowed in read-only mode'),
      ...(call.argv ? { argv: [...call.argv] } : {}),
    };
  }

  const argv = applyDefaults(decision.argv, decision.spec);
  if (deps.signal?.aborted) return execFailure(argv, 'cancelled before it started', '', 0, '', 'cancelled');
  let exec: ExecOutcome;
  try {
    exec = await deps.exec([...argv], deps.signal);
  } catch (err) {
    return execFailure(
      argv,
      `exec failed: ${redact(err instanceof Error ? err.message : String(err)).slice(0, 200)}`,
      '',
      0,
    );
  }
  if (exec.spawnErrorCode)
    return execFailure(
      argv,
      `could not start the CLI (${exec.spawnErrorCode})`,
      exec.stderr,
      exec.durationMs,
      exec.stdout,
    );
  if (exec.exitCode === null) {
    const stopped = exec.cancelled ? 'cancelled' : exec.timedOut ? 'timeout' : undefined;
    return execFailure(argv, whyNoExitCode(exec), exec.stderr, exec.durationMs, exec.stdout, stopped);
  }

  const content = formatContent(exec.exitCode, exec.durationMs, exec.stdout, exec.stderr, exec.stdoutTruncated);
  return {
    decision: 'allowed',
    argv,
    exitCode: exec.exitCode,
    durationMs: exec.durationMs,
    content,
    stdout: exec.stdout,
    stderr: exec.stderr,
  };
}

function whyNoExitCode(exec: ExecOutcome): string {
  if (exec.cancelled) return 'cancelled';
  if (exec.timedOut) return `timed out after ${exec.durationMs}ms`;
  return exec.signal ? `killed by ${exec.signal}` : 'the CLI ended without an exit code';
}

function refusal(decision: ToolOutcome['decision'], exitCode: number, reason: string, prefix?: string): ToolOutcome {
  const stderr = prefix ? `${prefix}: ${reason}` : reason;
  return {
    decision,
    reason,
    exitCode,
    durationMs: 0,
    content: formatContent(exitCode, 0, '', stderr, false),
    stdout: '',
    stderr,
  };
}

function execFailure(
  argv: string[],
  reason: string,
  stderr: string,
  durationMs: number,
  stdout = '',
  stopped?: ToolStopped,
): ToolOutcome {
  const fullStderr = stderr ? `${stderr}\n${reason}` : reason;
  return {
    decision: 'allowed',
    argv,
    reason,
    exitCode: EXIT_EXEC_FAILED,
    durationMs,
    content: formatContent(EXIT_EXEC_FAILED, durationMs, stdout, fullStderr, false),
    stdout,
    stderr: fullStderr,
    ...(stopped ? { stopped } : {}),
  };
}

/**
 * The plain-text tool result: exit code and duration first, then stdout cut at 4 KB and stderr at
 * 1 KB, so a large output cannot flood the model's context; the UI keeps the full output.
 */
function formatContent(
  exitCode: number,
  durationMs: number,
  stdout: string,
  stderr: string,
  runnerCut: boolean,
): string {
  const out =
    truncateForModel(stdout).text +
    (runnerCut ? '\n… [OUTPUT CAP REACHED: the CLI printed more than was captured]' : '');
  const parts = [
    `exitCode=${exitCode}`,
    `duration=${Math.round(durationMs)}ms`,
    'stdout (truncated to 4KB if needed):',
    out,
  ];
  if (stderr !== '') parts.push('', 'stderr:', truncateForModel(stderr, STDERR_MODEL_BYTES).text);
  return parts.join('\n');
}
