import type { SpawnedProcess, SpawnOptions } from '@anthropic-ai/claude-agent-sdk';
import { EventEmitter } from 'node:events';
import { PassThrough, type Writable } from 'node:stream';
import type { ChildTracker } from '../process/child-tracker.js';
import { startProcess, type RunningProcess, type RunResult } from '../process/run-process.js';

/** Options of `createSdkSpawner`. */
export interface SdkSpawnerOptions {
  tracker?: ChildTracker;
  killGraceMs?: number;
  /** Any output from the child (stdout or stderr): a sign of life for the idle watchdog. */
  onActivity?: () => void;
  /** The child's stderr (the SDK does not read it when it does not spawn the child itself). */
  onStderr?: (text: string) => void;
}

/** A spawner for the SDK plus a handle on the child it started. */
export interface SdkSpawner {
  /** Pass as `options.spawnClaudeCodeProcess`. */
  spawn: (options: SpawnOptions) => SpawnedProcess;
  /** Kills the child's whole group now (SIGTERM, grace, SIGKILL); no-op when nothing runs. */
  kill(): void;
  /** Resolves when the child and its whole process group are gone (immediately if none started). */
  settled(): Promise<RunResult | null>;
  /** Whether a child was started. */
  readonly started: boolean;
  /** The child's pid (= its pgid), once started. */
  readonly pid: number | undefined;
}

/**
 * Lets the Agent SDK start Claude Code through our process runner (`spawnClaudeCodeProcess`,
 * SDK ≥ 0.3): the child then runs in its own process group, is recorded by the child tracker for
 * crash recovery, and a cancel or timeout kills the whole group (SIGTERM → grace → SIGKILL) —
 * the SDK's own spawn would leave grandchildren (shells, MCP servers) behind and gives us no pid.
 *
 * The returned object satisfies the SDK's `SpawnedProcess`: stdin is the child's stdin pipe,
 * stdout a stream fed from the runner's decoded output, `exit` fires once the group is gone.
 *
 * @example
 *   const spawner = createSdkSpawner({ tracker, onActivity: touch });
 *   query({ prompt, options: { spawnClaudeCodeProcess: spawner.spawn, … } });
 *   … spawner.kill(); await spawner.settled();
 */
export function createSdkSpawner(options: SdkSpawnerOptions = {}): SdkSpawner {
  let run: RunningProcess | undefined;
  return {
    spawn(spawnOptions) {
      if (run) run.kill('killed'); // one child per query; never leave an earlier one running
      const { process, running } = spawnThroughRunner(spawnOptions, options);
      run = running;
      return process;
    },
    kill() {
      run?.kill('aborted');
    },
    async settled() {
      return run ? run.done : null;
    },
    get started() {
      return run !== undefined;
    },
    get pid() {
      return run?.pid;
    },
  };
}

type Listener = ((code: number | null, signal: NodeJS.Signals | null) => void) | ((error: Error) => void);

function spawnThroughRunner(
  o: SpawnOptions,
  opts: SdkSpawnerOptions,
): { process: SpawnedProcess; running: RunningProcess } {
  const stdout = new PassThrough();
  const events = new EventEmitter();
  let exitCode: number | null = null;
  let signalCode: NodeJS.Signals | null = null;
  let killed = false;
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(o.env)) if (v !== undefined) env[k] = v;
  const running = startProcess([o.command, ...o.args], {
    ...(o.cwd ? { cwd: o.cwd } : {}),
    env,
    keepStdinOpen: true,
    maxOutputBytes: 0, // everything goes to the SDK through `stdout`; stderr through onStderr
    ...(opts.killGraceMs !== undefined ? { killGraceMs: opts.killGraceMs } : {}),
    ...(opts.tracker ? { tracker: opts.tracker } : {}),
    onStdout: (text) => {
      opts.onActivity?.();
      stdout.write(text);
    },
    onStderr: (text) => {
      opts.onActivity?.();
      opts.onStderr?.(text);
    },
  });
  // The SDK aborts this forwarded signal only after its own stdin-EOF grace window.
  o.signal.addEventListener('abort', () => running.kill('aborted'), { once: true });
  void running.done.then((r) => {
    exitCode = r.exitCode;
    signalCode = r.signal;
    if (exitCode === null && signalCode === null) exitCode = r.reason === 'spawn-error' ? 127 : 1;
    stdout.end();
    if (r.reason === 'spawn-error' && events.listenerCount('error') > 0) {
      const err = Object.assign(new Error(r.spawnError?.message ?? 'spawn failed'), {
        code: r.spawnError?.code,
        syscall: 'spawn',
      });
      events.emit('error', err);
    }
    events.emit('exit', exitCode, signalCode);
  });
  const stdin = (running.stdin as Writable | null) ?? new PassThrough();
  const proc: SpawnedProcess = {
    stdin,
    stdout,
    get killed() {
      return killed;
    },
    get exitCode() {
      return exitCode;
    },
    get signalCode() {
      return signalCode;
    },
    kill(_signal: NodeJS.Signals) {
      killed = true;
      running.kill('killed'); // always the whole group, SIGTERM first
      return true;
    },
    on(event: 'exit' | 'error', listener: Listener) {
      events.on(event, listener as (...args: unknown[]) => void);
    },
    once(event: 'exit' | 'error', listener: Listener) {
      events.once(event, listener as (...args: unknown[]) => void);
    },
    off(event: 'exit' | 'error', listener: Listener) {
      events.off(event, listener as (...args: unknown[]) => void);
    },
  } as SpawnedProcess;
  return { process: proc, running };
}
