import fs from 'node:fs';
import path from 'node:path';
import { runProcess, type RunResult } from '../process/run-process.js';
import { buildCliEnv } from './build-cli-env.js';
import { fingerprintCli, sameFingerprint, type CliFingerprint } from './cli-fingerprint.js';
import type { CliVersionCache } from './cli-version-cache.js';
import { stripCliLogs } from './strip-cli-logs.js';
import { checkCliVersion, classifyCliVersion, MIN_CC_VERSION, type CliStatus } from './version-gate.js';

/**
 * SIGTERM to the CLI's group, this long, then SIGKILL to the group. The whole group, because the CLI
 * may start children of its own that a kill of the direct child would leave behind.
 */
export const EXEC_KILL_GRACE_MS = 200;
/** Per-stream cap kept in memory for the UI's full view; the model only ever sees 4 KB of it. */
export const EXEC_MAX_OUTPUT_BYTES = 4 * 1024 * 1024;
/** `--version` loads nothing else (≈90 ms); anything slower than this is a broken install. */
const VERSION_TIMEOUT_MS = 10_000;

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

/** Runs `argv` (command words + args, without the CLI prefix): `ExecService.exec`, or a stand-in. */
export type ExecFn = (argv: string[], signal?: AbortSignal) => Promise<ExecOutcome>;

/** How to run the ChainlessChain CLI: from config `[ccexec]` plus the process environment. */
export interface ExecServiceOptions {
  /** argv prefix, e.g. `['chainlesschain']` or `['/usr/bin/node', '/opt/cc/bin/chainlesschain.js']`. */
  readonly cli: readonly string[];
  readonly cwd: string;
  /** Hard wall-clock limit per run (config `timeout_ms`, default 30 s). */
  readonly timeoutMs: number;
  /** The parent environment; only the allowlisted, non-secret part reaches the CLI. */
  readonly env: NodeJS.ProcessEnv;
  /** Extra variable names to pass (config `env_allow`); secrets are still removed. */
  readonly envAllow?: readonly string[];
  /** Names never passed even when allowed: the model providers' key variables. */
  readonly envDeny?: readonly string[];
  /** Defaults to `EXEC_KILL_GRACE_MS`. */
  readonly killGraceMs?: number;
  readonly maxOutputBytes?: number;
  /** Versions already probed, by CLI fingerprint; without it every `checkVersion` runs `--version`. */
  readonly versionCache?: CliVersionCache;
}

/** Runs CLI queries and checks the CLI; built once per gateway. */
export interface ExecService {
  /**
   * Runs `[...cli, ...argv]`: no shell, own process group, hard timeout, `signal` kills the whole group
   * (SIGTERM → grace → SIGKILL). Never rejects. stdout comes back with the CLI's log lines stripped.
   */
  exec(argv: readonly string[], signal?: AbortSignal): Promise<ExecOutcome & { readonly stdoutBytes: number }>;
  /**
   * `<cli> --version` against `MIN_CC_VERSION`, plus the working directory and CLI entry checks. With a
   * `versionCache`, a version probed for the same fingerprint is reused unless `recheck`.
   */
  checkVersion(min?: string, opts?: { readonly recheck?: boolean }): Promise<CliStatus>;
  /** The files behind the configured CLI, stamped (null when the program is not found). */
  fingerprint(): CliFingerprint | null;
  /** The CLI as the user configured it, for messages: `chainlesschain`, `node /x/chainlesschain.js`. */
  readonly label: string;
}

/**
 * Builds the exec service over the project's process runner: an argv array, never a shell, so no
 * argument is ever interpreted; the CLI prefix comes from config and is never `cc` looked up on PATH
 * (on Linux and macOS that is the C compiler). The environment is computed once with `buildCliEnv`.
 *
 * @example
 *   const svc = createExecService({ cli: ['chainlesschain'], cwd: home, timeoutMs: 30_000, env: process.env });
 *   const r = await svc.exec(['note', 'list', '--limit', '10'], signal); // { exitCode: 0, stdout: 'Notes (2):…', … }
 */
export function createExecService(options: ExecServiceOptions): ExecService {
  if (options.cli.length === 0 || options.cli.some((part) => part === '')) {
    throw new TypeError('createExecService: cli must be a non-empty argv prefix');
  }
  const cli = [...options.cli];
  const env = buildCliEnv(options.env, options.envAllow ?? [], options.envDeny ?? []);
  const graceMs = options.killGraceMs ?? EXEC_KILL_GRACE_MS;
  const maxOutputBytes = options.maxOutputBytes ?? EXEC_MAX_OUTPUT_BYTES;
  const label = cli.join(' ');
  const fingerprint = (): CliFingerprint | null => fingerprintCli(cli, options.cwd, env.PATH);

  const run = (argv: readonly string[], timeoutMs: number, signal?: AbortSignal): Promise<RunResult> =>
    runProcess([...cli, ...argv], {
      cwd: options.cwd,
      env,
      hardTimeoutMs: timeoutMs,
      killGraceMs: graceMs,
      maxOutputBytes,
      ...(signal ? { signal } : {}),
    });

  return {
    label,
    async exec(argv, signal) {
      return toOutcome(await run(argv, options.timeoutMs, signal));
    },
    fingerprint,
    async checkVersion(min = MIN_CC_VERSION, opts = {}) {
      const problem = checkInstall(cli, options.cwd);
      if (problem) return problem;
      const cache = options.versionCache;
      const before = cache ? fingerprint() : null;
      const cached = before && !opts.recheck ? cache?.get(before) : undefined;
      if (cached !== undefined) return classifyCliVersion(cached, min);
      const status = await checkCliVersion(async () => {
        const r = toOutcome(await run(['--version'], Math.min(VERSION_TIMEOUT_MS, options.timeoutMs)));
        return {
          exitCode: r.exitCode,
          stdout: r.stdout,
          ...(r.spawnErrorCode ? { spawnErrorCode: r.spawnErrorCode } : {}),
        };
      }, min);
      // Only a version read from an unchanged CLI is kept: one replaced during the probe is probed again.
      if (cache && before && 'version' in status) {
        const after = fingerprint();
        if (after && sameFingerprint(before, after)) cache.put(after, status.version);
      }
      return status;
    },
  };
}

/** The runner's result as an `ExecOutcome`, log lines stripped before anyone reads stdout. */
function toOutcome(r: RunResult): ExecOutcome & { stdoutBytes: number } {
  return {
    exitCode: r.reason === 'spawn-error' ? null : r.exitCode,
    signal: r.signal,
    timedOut: r.reason === 'hard-timeout' || r.reason === 'idle-timeout',
    cancelled: r.reason === 'aborted',
    durationMs: r.durationMs,
    stdout: stripCliLogs(r.stdout),
    stderr: r.stderr,
    stdoutTruncated: r.stdoutTruncated,
    stderrTruncated: r.stderrTruncated,
    stdoutBytes: r.stdoutBytes,
    ...(r.spawnError ? { spawnErrorCode: r.spawnError.code } : {}),
  };
}

/**
 * Install checks of the configured prefix, before `--version` runs, so the user gets a clear message
 * instead of a spawn error: a missing working directory is a broken setup; a missing absolute program
 * or script entry (`/x/bin/chainlesschain.js`) means the CLI is not installed where the config says.
 */
function checkInstall(cli: readonly string[], cwd: string): CliStatus | undefined {
  try {
    if (!fs.statSync(cwd).isDirectory())
      return { status: 'cli-broken', detail: `working directory is not a directory: ${cwd}` };
  } catch {
    return { status: 'cli-broken', detail: `working directory not found: ${cwd}` };
  }
  const files = cli.filter((part, i) =>
    i === 0 ? path.isAbsolute(part) : path.isAbsolute(part) || /\.[cm]?js$/.test(part),
  );
  if (files.some((file) => !fs.existsSync(path.resolve(cwd, file)))) return { status: 'cli-not-found' };
  return undefined;
}
