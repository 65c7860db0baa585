import { redact } from '../core/redact.js';
import { applyDefaults } from './apply-defaults.js';
import { gate, quoteForReason } from './gate.js';
import { CC_EXEC_TOOL_NAME } from './tool-descriptor.js';
import { truncateForModel } from './truncate-for-model.js';

/**
 * What the exec service reports for one run of the CLI. It never rejects for a process failure; a
 * spawn failure sets `spawnErrorCode` (`ENOENT`, `EACCES`, …) and a kill leaves `exitCode` null.
 */
export interface ExecOutcome {
  /** The CLI's exit code; null when it did not exit by itself (killed, timed out, cancelled, never started). */
  readonly exitCode: number | null;
  readonly signal?: string | null;
  readonly timedOut?: boolean;
  readonly cancelled?: boolean;
  readonly durationMs: number;
  /** Everything captured (up to the runner's cap), with the CLI's `[AppConfig]`/`[DatabaseManager]` log lines already stripped. */
  readonly stdout: string;
  readonly stderr: string;
  /** True when the runner's output cap cut the stream. */
  readonly stdoutTruncated: boolean;
  readonly stderrTruncated: boolean;
  readonly spawnErrorCode?: string;
}

/** Runs `argv` (command words + args, without the CLI prefix). Supplied by the exec service. */
export type ExecFn = (argv: string[], signal?: AbortSignal) => Promise<ExecOutcome>;

/** One tool call as the provider layer delivers it; `arguments` is an object or a JSON string (T9). */
export interface ToolCallInput {
  readonly name: string;
  readonly arguments: unknown;
}

/**
 * The dispatcher's answer for one tool call: what happened, the §4.3 text for the model (`content`)
 * and the full output for the UI.
 * - `allowed`: the CLI ran (or failed to start: exit -1); a non-zero CLI exit is passed through (T4).
 * - `denied`: the gate refused; nothing ran; exit 126 and the reason (seed OQ-6).
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
  /** `exitCode=…\nduration=…ms\nstdout (truncated to 4KB if needed):\n…\n\nstderr:\n…` (seed §4.3). */
  readonly content: string;
  /** Full stdout for the UI's expand view. */
  readonly stdout: string;
  readonly stderr: string;
}

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
 * Routes one model tool call: name check → safe argument parsing → gate → `applyDefaults` → exec.
 * Never rejects and never runs anything the gate did not allow; every refusal comes back as a fake
 * tool result so the model can explain it instead of the chat failing (seed §3, §4.3, OQ-6, T4, T9).
 *
 * @example
 *   await dispatchToolCall({ name: 'cc_exec', arguments: '{"command":"note","subargs":["list"]}' }, { exec })
 *   // exec called with ['note', 'list', '--limit', '20']; { decision: 'allowed', exitCode: 0, content: 'exitCode=0\n…' }
 */
export async function dispatchToolCall(call: ToolCallInput, deps: DispatchDeps): Promise<ToolOutcome> {
  if (call.name !== CC_EXEC_TOOL_NAME) {
    const name = typeof call.name === 'string' ? quoteForReason(call.name) : String(typeof call.name);
    return refusal('unknown-tool', EXIT_UNKNOWN_TOOL, `unknown tool ${name}; the only tool is ${CC_EXEC_TOOL_NAME}`);
  }
  const args = readArguments(call.arguments);
  if (typeof args === 'string') return refusal('invalid', EXIT_MALFORMED, args, 'malformed arguments');

  const decision = gate(args.command, args.subargs);
  if (!decision.allow) {
    const requested = requestedArgv(args.command, args.subargs);
    return {
      ...refusal('denied', EXIT_DENIED, decision.reason, 'command not allowed in read-only mode'),
      ...(requested ? { argv: requested } : {}),
    };
  }

  const argv = applyDefaults(decision.argv, decision.spec);
  if (deps.signal?.aborted) return execFailure(argv, 'cancelled before it started', '', 0);
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
  if (exec.exitCode === null) return execFailure(argv, whyNoExitCode(exec), exec.stderr, exec.durationMs, exec.stdout);

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

/** Own-keys-only reading of `{command, subargs}`; returns a reason string when the shape is wrong. */
function readArguments(raw: unknown): { command: string; subargs: unknown } | string {
  let value: unknown = raw;
  if (typeof raw === 'string') {
    try {
      value = JSON.parse(raw);
    } catch {
      return 'arguments are not valid JSON';
    }
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    return 'arguments must be a JSON object with command and subargs';
  try {
    for (const key of Reflect.ownKeys(value)) {
      if (key !== 'command' && key !== 'subargs') {
        return `unexpected field ${typeof key === 'string' ? quoteForReason(key) : 'symbol'}; only command and subargs are allowed`;
      }
    }
    const command = ownValue(value, 'command');
    const subargs = ownValue(value, 'subargs');
    if (command === MISSING) return 'missing field command';
    if (subargs === MISSING) return 'missing field subargs';
    if (typeof command !== 'string') return 'command must be a string';
    return { command, subargs };
  } catch {
    return 'arguments could not be read';
  }
}

const MISSING = Symbol('missing');

/** `[command, ...subargs]` of a denied call for the audit and the UI card, when subargs is readable strings. */
function requestedArgv(command: string, subargs: unknown): string[] | undefined {
  try {
    return Array.isArray(subargs) && subargs.every((a) => typeof a === 'string')
      ? [command, ...(subargs as string[])]
      : undefined;
  } catch {
    return undefined;
  }
}

/** The value of an own data property, or MISSING; accessors are treated as missing (never invoked). */
function ownValue(object: object, key: string): unknown {
  const descriptor = Object.getOwnPropertyDescriptor(object, key);
  return descriptor && 'value' in descriptor ? descriptor.value : MISSING;
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

function execFailure(argv: string[], reason: string, stderr: string, durationMs: number, stdout = ''): ToolOutcome {
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
  };
}

/** The §4.3 plain-text tool result; stdout cut at 4 KB and stderr at 1 KB for the model. */
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
