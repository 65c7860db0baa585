import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../core/config-schema.js';
import { expandHome } from '../core/expand-home.js';
import type { Language } from '../core/i18n.js';
import type { Logger } from '../core/logger.js';
import type { Paths } from '../core/paths.js';
import { ActivityWatchdog } from './activity-watchdog.js';
import { EngineError, failureDetail } from './engine-error.js';
import type {
  AgentEngine,
  EngineEvent,
  EngineMode,
  EngineRequest,
  EngineResult,
  EngineSendOptions,
  FileSender,
  PermissionHandler,
} from './engine-types.js';
import { preview } from '../sessions/scan/preview.js';
import type { SessionOrigin, SessionRecorder } from './session-recorder.js';
import type { Release, Semaphore, SessionLocks } from './session-lock.js';
import type { WarmPool } from './warm-pool.js';

/** The longest prompt accepted; a longer one is refused (`MESSAGE_TOO_LONG`) before anything is spawned. */
export const MAX_PROMPT_CHARS = 10_000;

/**
 * Where an agent keeps its sessions' transcripts. Every piece is optional evidence: without
 * `newestWrite` only the agent's output keeps a silent run alive; without `locateNew` a new session
 * is recorded without its file (the next sync finds it).
 */
export interface SessionFiles {
  /** The transcript of `sessionId` run in the real directory `realCwd` (may not exist yet); null when it cannot be named. */
  transcriptOf(sessionId: string, realCwd: string): string | null;
  /** Newest write (ms) to this run's session files — the idle watchdog's evidence that a silent run still works. */
  newestWrite?(realCwd: string, sessionId?: string): number | null;
  /** A new session's transcript, looked for by short polling; null when not found. */
  locateNew?(sessionId: string, realCwd: string): Promise<string | null>;
}

/** What the guard around every agent's runs needs: config, where things are, the run-wide coordination objects. */
export interface GuardDeps {
  config: Config;
  /** Resolved from the same environment the child gets. */
  paths: Paths;
  logger: Logger;
  lang: Language;
  sessionRecorder?: SessionRecorder;
  locks: SessionLocks;
  slots: Semaphore;
  /** Where a run came from, for the registry; see `defaultOriginOf`. */
  originOf: (request: EngineRequest) => SessionOrigin;
  files?: SessionFiles;
  /** The agent's name in messages (`Codex`); absent = Claude Code. */
  label?: string;
  /** The agent processes its executor keeps between turns, ended by `close()`. */
  warm?: Pick<WarmPool, 'close'>;
}

/** Why the engine stopped a run itself. */
type StopReason = 'cancelled' | 'idle' | 'hard';

/** Everything one mode needs to run one request. */
export interface RunContext {
  request: EngineRequest;
  /** `~`-expanded, symlinks resolved, known to exist. */
  cwd: string;
  isNew: boolean;
  /** Aborted when the run must stop (cancel, idle or hard timeout); the mode kills its child group. */
  signal: AbortSignal;
  permissions?: PermissionHandler;
  /** Where the agent's `send_file` calls of this run go (absent = refused). */
  files?: FileSender;
  /** Forwards an event to the caller; `session` events also start the registry bookkeeping. */
  emit(event: EngineEvent): void;
  /** Sign of life (output) for the idle timeout. */
  touch(): void;
  /** Stop / restart the idle clock while a user decides (nestable). */
  pause(): void;
  resume(): void;
  /** Start of the run (performance.now()), for `durationMs`. */
  startedAt: number;
  /**
   * Work the agent still does after it answered (saving the turn, exiting): the answer is returned
   * at once, while the session's lock and the run slot are held until `work` settles, so the next
   * turn of the session never starts before the last one is saved. `work` must end by itself
   * within a bounded time and never reject.
   */
  wrapUp(work: Promise<void>): void;
}

/**
 * One agent's way to run a request. It must: start the agent in `ctx.cwd`, feed events to
 * `ctx.emit` (including a `session` event as soon as the agent names the session), stop when
 * `ctx.signal` aborts, make sure the agent's whole process group is gone before it settles, and
 * throw an `EngineError` (`RUN_FAILED`, `SESSION_NOT_FOUND`, `CLAUDE_NOT_FOUND`, `AGENT_NOT_FOUND`)
 * on failure.
 */
export type Executor = (ctx: RunContext) => Promise<EngineResult>;

/**
 * `~`-expands and checks the working directory before anything is spawned, so a missing directory
 * is a clear `CWD_MISSING` naming it, not a confusing spawn error. Returns the real path (Claude
 * Code records the symlink-resolved cwd and names its project directory after it).
 */
function checkCwd(cwd: string, home: string, lang: Language): string {
  const expanded = path.resolve(expandHome(cwd.trim(), home));
  let real: string;
  try {
    real = fs.realpathSync(expanded);
  } catch (err) {
    throw new EngineError(
      'CWD_MISSING',
      { cwd: expanded, reason: (err as NodeJS.ErrnoException).code ?? 'ENOENT' },
      { lang, cause: err },
    );
  }
  if (!fs.statSync(real).isDirectory())
    throw new EngineError('CWD_MISSING', { cwd: expanded, reason: 'ENOTDIR' }, { lang });
  return real;
}

/**
 * A new session whose id the caller chose is resumed instead when its transcript already exists:
 * an earlier attempt (cut short by a crash or a restart) created it, and starting it again would
 * refuse an id in use. Everything else is passed through.
 */
function plannedOrResumed(request: EngineRequest, files: SessionFiles | undefined, cwd: string): EngineRequest {
  const planned = request.newSessionId;
  if (request.sessionId || !planned || !files) return request;
  const file = files.transcriptOf(planned, cwd);
  if (!file || !fs.existsSync(file)) return request;
  const { newSessionId: _planned, ...rest } = request;
  return { ...rest, sessionId: planned };
}

/**
 * The guard every agent's engine runs inside: validation, locks, timeouts, registry bookkeeping and
 * error mapping around one `Executor`.
 *
 * Order of a `send`: prompt length (`MESSAGE_TOO_LONG`) → cwd (`CWD_MISSING`) → the session's lock
 * (`SESSION_BUSY` after `runtime.session_lock_timeout_ms`) → a global slot
 * (`runtime.max_concurrent_sessions`) → the run, under an idle watchdog
 * (`runtime.stale_timeout_ms`) and a hard timer (`runtime.hard_timeout_ms`). A new session's id
 * is locked as soon as it is known, recorded `provisioning`, and its transcript looked for by short
 * polling (`resolved` / `degraded`, when the agent's `SessionFiles` can); every successful run ends with `runFinished`. Cancel and
 * timeouts become `CANCELLED` / `TIMEOUT_IDLE` / `TIMEOUT_HARD` only after the child's process
 * group is gone.
 */
export class GuardedEngine implements AgentEngine {
  constructor(
    readonly agent: string,
    readonly mode: EngineMode,
    private readonly execute: Executor,
    private readonly deps: GuardDeps,
  ) {}

  async send(input: EngineRequest, options: EngineSendOptions = {}): Promise<EngineResult> {
    const { deps } = this;
    const { lang, config } = deps;
    const startedAt = performance.now();
    // Characters as users count them (code points): an emoji is one, not two UTF-16 units.
    const length = input.prompt.length > MAX_PROMPT_CHARS ? [...input.prompt].length : input.prompt.length;
    if (length > MAX_PROMPT_CHARS)
      throw new EngineError('MESSAGE_TOO_LONG', { length, limit: MAX_PROMPT_CHARS }, { lang });
    const cwd = checkCwd(input.cwd, deps.paths.userHome, lang);
    if (options.signal?.aborted) throw new EngineError('CANCELLED', {}, { lang });
    const request = plannedOrResumed(input, deps.files, cwd);

    const releases: Release[] = [];
    const wrapUps: Promise<void>[] = [];
    const stop = new AbortController();
    let stopReason: StopReason | undefined;
    const stopWith = (reason: StopReason): void => {
      if (stopReason) return;
      stopReason = reason;
      stop.abort();
    };
    const onExternalAbort = (): void => stopWith('cancelled');
    let watchdog: ActivityWatchdog | undefined;
    let hardTimer: NodeJS.Timeout | undefined;
    let recording: Promise<void> = Promise.resolve();
    let sessionId = request.sessionId ?? request.newSessionId;
    let model = request.model;
    const isNew = !request.sessionId;

    try {
      if (request.sessionId)
        releases.push(
          await deps.locks.acquire(request.sessionId, {
            timeoutMs: config.runtime.session_lock_timeout_ms,
            ...(options.signal ? { signal: options.signal } : {}),
            lang,
          }),
        );
      releases.push(await deps.slots.acquire(options.signal, lang));
      options.signal?.addEventListener('abort', onExternalAbort, { once: true });
      if (options.signal?.aborted) stopWith('cancelled');

      watchdog = new ActivityWatchdog(
        config.runtime.stale_timeout_ms,
        () => stopWith('idle'),
        () => deps.files?.newestWrite?.(cwd, sessionId) ?? null,
      );
      hardTimer = setTimeout(() => stopWith('hard'), config.runtime.hard_timeout_ms);
      hardTimer.unref?.();

      const forward = (event: EngineEvent): void => {
        try {
          options.onEvent?.(event);
        } catch (err) {
          deps.logger.warn('onEvent handler threw; event dropped', { type: event.type, err });
        }
      };
      let sessionAnnounced = false;
      const emit = (event: EngineEvent): void => {
        if (event.type === 'session') {
          if (sessionAnnounced) return;
          sessionAnnounced = true;
          sessionId = event.sessionId;
          model = event.model ?? model;
          if (isNew) {
            const release = deps.locks.tryAcquire(event.sessionId);
            if (release) releases.push(release);
            recording = this.recordNewSession({ sessionId: event.sessionId, cwd, request, model });
          }
        }
        forward(event);
      };
      const dog = watchdog;
      const ctx: RunContext = {
        request,
        cwd,
        isNew,
        signal: stop.signal,
        ...(options.permissions ? { permissions: options.permissions } : {}),
        ...(options.files ? { files: options.files } : {}),
        emit,
        touch: () => dog.touch(),
        pause: () => dog.pause(),
        resume: () => dog.resume(),
        startedAt,
        wrapUp: (work) => void wrapUps.push(work),
      };
      const result = await this.execute(ctx);
      if (!sessionAnnounced)
        emit({ type: 'session', sessionId: result.sessionId, ...(result.model ? { model: result.model } : {}) });
      await recording;
      await this.recordRunFinished(request.prompt, result);
      return { ...result, agent: this.agent, durationMs: Math.round(performance.now() - startedAt) };
    } catch (err) {
      await recording;
      throw this.mapError(err, stopReason);
    } finally {
      watchdog?.stop();
      clearTimeout(hardTimer);
      options.signal?.removeEventListener('abort', onExternalAbort);
      const releaseAll = (): void => {
        for (const release of releases.reverse()) release();
      };
      if (wrapUps.length === 0) releaseAll();
      else void Promise.allSettled(wrapUps).then(releaseAll);
    }
  }

  /** Ends the processes kept between turns; later turns start cold. */
  async close(): Promise<void> {
    await this.deps.warm?.close();
  }

  /** Where this agent writes session `sessionId` run in `cwd` (see `AgentEngine`); null when it cannot say. */
  transcriptOf(sessionId: string, cwd: string): string | null {
    const files = this.deps.files;
    if (!files || !/^[\w-]{1,128}$/.test(sessionId)) return null;
    let real: string;
    try {
      real = fs.realpathSync(path.resolve(expandHome(cwd.trim(), this.deps.paths.userHome)));
    } catch {
      return null;
    }
    return files.transcriptOf(sessionId, real);
  }

  private mapError(err: unknown, stopReason: StopReason | undefined): EngineError {
    const { lang, config, label } = this.deps;
    const agent: Record<string, string> = label ? { agent: label } : {};
    if (stopReason === 'cancelled') return new EngineError('CANCELLED', {}, { lang, cause: err });
    if (stopReason === 'idle')
      return new EngineError(
        'TIMEOUT_IDLE',
        { ...agent, timeoutMs: config.runtime.stale_timeout_ms },
        { lang, cause: err },
      );
    if (stopReason === 'hard')
      return new EngineError(
        'TIMEOUT_HARD',
        { ...agent, timeoutMs: config.runtime.hard_timeout_ms },
        { lang, cause: err },
      );
    if (err instanceof EngineError) return err;
    this.deps.logger.error('unexpected engine failure', { agent: this.agent, mode: this.mode, err });
    return new EngineError(
      'RUN_FAILED',
      { ...agent, detail: failureDetail(err instanceof Error ? err.message : String(err)) },
      { lang, cause: err },
    );
  }

  /** provisioning → poll for the transcript → resolved | degraded. Never rejects. */
  private async recordNewSession(e: {
    sessionId: string;
    cwd: string;
    request: EngineRequest;
    model: string | undefined;
  }): Promise<void> {
    const { sessionRecorder: recorder, logger, files } = this.deps;
    if (!recorder) return;
    try {
      await recorder.provisioning({
        sessionId: e.sessionId,
        cwd: e.cwd,
        agent: this.agent,
        origin: this.deps.originOf(e.request),
        ...(e.request.userId ? { userId: e.request.userId } : {}),
        ...(e.model ? { model: e.model } : {}),
        prompt: e.request.prompt,
      });
      if (!files?.locateNew) return;
      const file = await files.locateNew(e.sessionId, e.cwd);
      if (file) await recorder.resolved(e.sessionId, file);
      else await recorder.degraded(e.sessionId, 'jsonl_not_found');
    } catch (err) {
      logger.warn('recording the new session failed', { sessionId: e.sessionId, err });
    }
  }

  private async recordRunFinished(prompt: string, result: EngineResult): Promise<void> {
    const recorder = this.deps.sessionRecorder;
    if (!recorder) return;
    try {
      await recorder.runFinished({
        sessionId: result.sessionId,
        userPreview: preview(prompt, 200),
        assistantPreview: preview(result.text, 200),
        ...(result.model ? { model: result.model } : {}),
      });
    } catch (err) {
      this.deps.logger.warn('recording the finished run failed', { sessionId: result.sessionId, err });
    }
  }
}

/**
 * The default origin of a run for the registry: user ids of the web console start with `web`
 * (`web:…`), terminal callers use `cli`; everything else came from Feishu.
 */
export function defaultOriginOf(request: EngineRequest): SessionOrigin {
  const id = request.userId ?? '';
  if (id.startsWith('web')) return 'web';
  if (id.startsWith('cli')) return 'cli';
  return 'feishu';
}
