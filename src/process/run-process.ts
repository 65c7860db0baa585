import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import type { ChildTracker } from './child-tracker.js';
import { createOutputCollector } from './output-collector.js';
import { ProcessError } from './process-error.js';
import { DEFAULT_KILL_GRACE_MS, isGroupAlive, terminateGroup } from './terminate-group.js';

/** Default per-stream cap on output kept in memory: 10 MiB. */
export const DEFAULT_MAX_OUTPUT_BYTES = 10 * 1024 * 1024;
/**
 * After the direct child exits, how long we still wait for its pipes to close. A grandchild that
 * inherited stdout keeps the pipe open forever; we stop reading after this window.
 */
const DRAIN_MS = 100;

/** How to run one child. Everything is optional; see each field. */
export interface RunOptions {
  cwd?: string;
  /** Passed as-is (an explicit environment); default `process.env`. */
  env?: NodeJS.ProcessEnv;
  /** Written to stdin, then stdin is closed. Omit → stdin is 'ignore' unless `keepStdinOpen`. */
  input?: string | Uint8Array;
  /** For long-lived children that read stdin (stream-json input): stdin stays a pipe the caller writes. */
  keepStdinOpen?: boolean;
  /** No stdout/stderr output for this long → kill, reason 'idle-timeout'. */
  idleTimeoutMs?: number;
  /** Total wall-clock limit → kill, reason 'hard-timeout'. */
  hardTimeoutMs?: number;
  /** Abort → kill, reason 'aborted'. Already aborted → nothing is spawned. */
  signal?: AbortSignal;
  /** SIGTERM to the group, wait this long, then SIGKILL to the group. Default 2000. */
  killGraceMs?: number;
  /** Cap PER stream kept in memory (default 10 MiB); more is counted, not kept → truncated flag. */
  maxOutputBytes?: number;
  /** Decoded UTF-8; never splits a multi-byte character across calls. Gets all output, not just the kept part. */
  onStdout?: (text: string) => void;
  onStderr?: (text: string) => void;
  /** Complete stdout lines (without `\n`); the last partial line is flushed at exit. */
  onStdoutLine?: (line: string) => void;
  onSpawn?: (pid: number) => void;
  /** Records the pgid while the child lives, so a restart after a crash can kill what was left. */
  tracker?: ChildTracker;
}

/** Why a run ended. Only 'exit' means the child ended on its own. */
export type RunReason = 'exit' | 'idle-timeout' | 'hard-timeout' | 'aborted' | 'killed' | 'spawn-error';

/** Everything a run produced. `runProcess` always resolves with one of these. */
export interface RunResult {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  reason: RunReason;
  stdout: string;
  stderr: string;
  stdoutBytes: number;
  stderrBytes: number;
  stdoutTruncated: boolean;
  stderrTruncated: boolean;
  durationMs: number;
  /** e.g. ENOENT (binary not found), EACCES, ENOTDIR/ENOENT for a missing cwd. */
  spawnError?: { code: string; message: string };
  /** The first error an `on*` callback threw; the run went on and the child was still drained. */
  callbackError?: unknown;
}

/** A started child. `done` never rejects. */
export interface RunningProcess {
  readonly pid: number | undefined;
  /** A pipe only with `input` or `keepStdinOpen`; write errors (EPIPE) are swallowed. */
  readonly stdin: NodeJS.WritableStream | null;
  readonly done: Promise<RunResult>;
  /** Kills the whole group (SIGTERM, grace, SIGKILL). A no-op once the child has exited. */
  kill(reason?: 'killed' | 'aborted'): void;
}

function validate(argv: readonly string[], options: RunOptions): void {
  if (argv.length === 0 || !argv[0])
    throw new ProcessError('PROCESS_EMPTY_ARGV', 'startProcess: argv must name a program');
  for (const key of ['idleTimeoutMs', 'hardTimeoutMs', 'killGraceMs', 'maxOutputBytes'] as const) {
    const value = options[key];
    if (value !== undefined && !(Number.isFinite(value) && value >= 0)) {
      throw new ProcessError(
        'PROCESS_BAD_OPTION',
        `startProcess: ${key} must be a non-negative number, got ${String(value)}`,
      );
    }
  }
}

/** Turns a spawn failure into the result's `spawnError`, naming the cwd when that is what is missing. */
function describeSpawnError(err: unknown, argv0: string, cwd: string | undefined): { code: string; message: string } {
  const code = (err as NodeJS.ErrnoException).code ?? 'UNKNOWN';
  if (cwd !== undefined && (code === 'ENOENT' || code === 'ENOTDIR')) {
    try {
      if (!fs.statSync(cwd).isDirectory())
        return { code: 'ENOTDIR', message: `working directory is not a directory: ${cwd}` };
    } catch (statErr) {
      return { code: (statErr as NodeJS.ErrnoException).code ?? code, message: `working directory not found: ${cwd}` };
    }
  }
  if (code === 'ENOENT') return { code, message: `executable not found: ${argv0}` };
  if (code === 'EACCES') return { code, message: `permission denied running: ${argv0}` };
  return { code, message: err instanceof Error ? err.message : String(err) };
}

/**
 * Starts one child: argv only (never a shell), in its own process group, with timeouts, an abort
 * signal, capped output and streaming callbacks. Use it when you need the pid or stdin of a
 * long-lived child; otherwise `runProcess`.
 *
 * Ending: the child exiting, or a kill (timeout, abort, `kill()`), which is SIGTERM to the group, the
 * grace period, then SIGKILL to the group. After the direct child exits we read its pipes for a short
 * window more, then stop (grandchildren may hold them forever); any process still left in the group
 * is then terminated too, so `done` resolves only when the group is gone and nothing stray remains.
 *
 * @example
 *   const run = startProcess(['claude', '--print'], { keepStdinOpen: true, onStdoutLine: handle, idleTimeoutMs: 600_000 });
 *   run.stdin?.write(JSON.stringify(msg) + '\n');
 *   const result = await run.done; // { exitCode, signal, reason, stdout, stderr, ... }
 * @throws ProcessError only for programmer errors (empty argv, negative option values).
 */
export function startProcess(argv: readonly string[], options: RunOptions = {}): RunningProcess {
  validate(argv, options);
  const argv0 = argv[0] as string;
  const started = performance.now();
  const graceMs = options.killGraceMs ?? DEFAULT_KILL_GRACE_MS;
  const maxBytes = options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES;
  let callbackError: unknown;
  let hasCallbackError = false;
  const onCallbackError = (err: unknown): void => {
    if (hasCallbackError) return;
    hasCallbackError = true;
    callbackError = err;
  };
  const out = createOutputCollector({
    maxBytes,
    onText: options.onStdout,
    onLine: options.onStdoutLine,
    onCallbackError,
  });
  const err = createOutputCollector({ maxBytes, onText: options.onStderr, onCallbackError });

  let resolveDone!: (result: RunResult) => void;
  const done = new Promise<RunResult>((resolve) => {
    resolveDone = resolve;
  });

  let exitCode: number | null = null;
  let exitSignal: NodeJS.Signals | null = null;
  let spawnError: RunResult['spawnError'];
  let killReason: RunReason | undefined;
  let settled = false;

  const settle = (reason: RunReason): void => {
    settled = true;
    out.finish();
    err.finish();
    resolveDone({
      exitCode,
      signal: exitSignal,
      reason,
      stdout: out.text(),
      stderr: err.text(),
      stdoutBytes: out.bytes,
      stderrBytes: err.bytes,
      stdoutTruncated: out.truncated,
      stderrTruncated: err.truncated,
      durationMs: performance.now() - started,
      ...(spawnError ? { spawnError } : {}),
      ...(hasCallbackError ? { callbackError } : {}),
    });
  };

  if (options.signal?.aborted) {
    settle('aborted');
    return { pid: undefined, stdin: null, done, kill: () => undefined };
  }

  const wantsStdin = options.input !== undefined || options.keepStdinOpen === true;
  let child: ChildProcess;
  try {
    child = spawn(argv0, argv.slice(1), {
      cwd: options.cwd,
      env: options.env ?? process.env,
      shell: false,
      detached: true, // setsid(): the child leads its own process group, pgid === pid
      stdio: [wantsStdin ? 'pipe' : 'ignore', 'pipe', 'pipe'],
      windowsHide: true,
    });
  } catch (spawnErr) {
    spawnError = describeSpawnError(spawnErr, argv0, options.cwd);
    settle('spawn-error');
    return { pid: undefined, stdin: null, done, kill: () => undefined };
  }

  const pid = child.pid;
  const tracker = options.tracker;
  if (pid !== undefined) tracker?.add({ pid, pgid: pid, argv0 });

  let exited = false;
  let pipesClosed = false;
  let finishing = false;
  let terminating: Promise<unknown> | null = null;
  let idleTimer: NodeJS.Timeout | undefined;
  let hardTimer: NodeJS.Timeout | undefined;
  let drainTimer: NodeJS.Timeout | undefined;

  const clearRunTimers = (): void => {
    clearTimeout(idleTimer);
    clearTimeout(hardTimer);
  };

  const kill = (reason: RunReason): void => {
    if (settled || exited || killReason !== undefined || pid === undefined) return;
    killReason = reason;
    clearRunTimers();
    terminating = terminateGroup(pid, { graceMs });
  };

  const onAbort = (): void => kill('aborted');

  const finish = async (): Promise<void> => {
    if (finishing || settled) return;
    finishing = true;
    clearTimeout(drainTimer);
    clearRunTimers();
    options.signal?.removeEventListener('abort', onAbort);
    if (pid !== undefined) {
      // Our kill is still in its grace period, or the child left members of its group behind.
      if (terminating) await terminating;
      else if (isGroupAlive(pid)) await terminateGroup(pid, { graceMs });
      tracker?.remove(pid);
    }
    settle(spawnError ? 'spawn-error' : (killReason ?? 'exit'));
  };

  const maybeFinish = (): void => {
    if (exited && pipesClosed) void finish();
  };

  child.on('error', (spawnErr) => {
    // After a successful spawn we never use the child's own kill/send, so any error is a spawn failure.
    if (pid !== undefined || settled) return;
    spawnError = describeSpawnError(spawnErr, argv0, options.cwd);
    exited = true;
    pipesClosed = true;
    maybeFinish();
  });
  child.on('spawn', () => {
    if (pid === undefined || !options.onSpawn) return;
    try {
      options.onSpawn(pid);
    } catch (cbErr) {
      onCallbackError(cbErr);
    }
  });
  child.stdout?.on('data', (chunk: Buffer) => {
    out.push(chunk);
    idleTimer?.refresh();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    err.push(chunk);
    idleTimer?.refresh();
  });
  child.stdin?.on('error', () => undefined); // EPIPE when the child does not read its input
  child.on('exit', (code, sig) => {
    exited = true;
    exitCode = code;
    exitSignal = sig;
    clearRunTimers();
    drainTimer = setTimeout(() => {
      child.stdout?.destroy();
      child.stderr?.destroy();
      pipesClosed = true;
      maybeFinish();
    }, DRAIN_MS);
    maybeFinish();
  });
  child.on('close', () => {
    pipesClosed = true;
    maybeFinish();
  });

  if (pid !== undefined) {
    if (options.idleTimeoutMs !== undefined) idleTimer = setTimeout(() => kill('idle-timeout'), options.idleTimeoutMs);
    if (options.hardTimeoutMs !== undefined) hardTimer = setTimeout(() => kill('hard-timeout'), options.hardTimeoutMs);
    options.signal?.addEventListener('abort', onAbort, { once: true });
    if (child.stdin && options.input !== undefined) {
      if (options.keepStdinOpen) child.stdin.write(options.input);
      else child.stdin.end(options.input);
    }
  }

  return {
    pid,
    stdin: child.stdin,
    done,
    kill: (reason = 'killed') => kill(reason),
  };
}

/**
 * Runs one child to the end and returns what happened. Never rejects: a missing binary, a crash, a
 * timeout or an abort all come back as a `RunResult` with the matching `reason`.
 *
 * @example
 *   const r = await runProcess(['git', 'status', '--short'], { cwd, hardTimeoutMs: 30_000, signal });
 *   if (r.reason !== 'exit' || r.exitCode !== 0) report(r.stderr);
 */
export function runProcess(argv: readonly string[], options?: RunOptions): Promise<RunResult> {
  return startProcess(argv, options).done;
}
