import { setTimeout as sleep } from 'node:timers/promises';
import * as acp from '@agentclientprotocol/sdk';
import type { Language } from '../../core/i18n.js';
import type { Logger } from '../../core/logger.js';
import type { ChildTracker } from '../../process/child-tracker.js';
import type { RunResult } from '../../process/run-process.js';
import { EngineError, failureDetail, shortSessionId } from '../../engine/engine-error.js';
import type { AgentModel, EngineResult, PermissionDenial } from '../../engine/engine-types.js';
import type { Executor, RunContext } from '../../engine/guarded-engine.js';
import { openAcpConnection, type AcpConnection } from './acp-connection.js';
import type { AgentPermissionStore } from './agent-permission-store.js';
import { answerPermission } from './answer-permission.js';
import { modelsOf } from './agent-models.js';
import { promptBlocks } from './prompt-blocks.js';
import { SessionUpdateMapper } from './session-update-mapper.js';

/** The agent to run: its name, argv and whole environment (built by the caller). */
export interface AcpAgentProfile {
  /** The agent's name in config and requests (`codex`). */
  name: string;
  /** Its display name in messages (`Codex`); default `name`. */
  label?: string;
  command: readonly string[];
  env: NodeJS.ProcessEnv;
  /** How to install it, for the "not found" message. */
  install?: string;
}

/** What the ACP executor needs besides the profile. */
export interface AcpExecutorDeps {
  logger: Logger;
  lang: Language;
  tracker?: ChildTracker;
  permissionStore?: AgentPermissionStore;
  /** Answer "always" with the agent's own `allow_always` option (see `PermissionContext`); default off. */
  passAlwaysToAgent?: boolean;
  /** SIGTERM → SIGKILL grace when the agent is stopped (runner default 2000 ms). */
  killGraceMs?: number;
  /** After `session/cancel`, how long the turn may take to end by itself before the group is killed. */
  cancelWaitMs?: number;
  /**
   * After a finished turn, how long the agent is left running before its stdin is closed: agents
   * save part of the turn after answering it (Qwen Code writes the answer to its session file
   * ~0.1 s later, and exits at the end of its input without writing it), so killed or closed at
   * once, the next `session/load` lacks the answer.
   */
  endSettleMs?: number;
  /** … then how long it may take to exit by itself once its stdin is closed before the group is killed. */
  endGraceMs?: number;
  /** After `session/load`, the history replay counts as over once no update came for this long. */
  replayQuietMs?: number;
  /** … but the prompt is sent after this much waiting at the latest. */
  replayMaxMs?: number;
  /** Told the models every `session/new` reports (for `listModels`). */
  onModels?(models: AgentModel[]): void;
}

const DEFAULT_CANCEL_WAIT_MS = 1000;
const DEFAULT_END_SETTLE_MS = 500;
const DEFAULT_END_GRACE_MS = 500;
const DEFAULT_REPLAY_QUIET_MS = 300;
const DEFAULT_REPLAY_MAX_MS = 3000;

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The process ended while we waited for the agent. */
class AgentExited extends Error {
  constructor(readonly result: RunResult) {
    super('the agent process ended');
  }
}
/** The run's signal aborted while we waited for the agent. */
class RunStopped extends Error {
  constructor() {
    super('the run was stopped');
  }
}

/**
 * The ACP `Executor`: one agent process per `send`, ended after the turn.
 *
 * initialize → `session/new {cwd, mcpServers: []}` (or, to resume, `session/load {sessionId, cwd,
 * mcpServers: []}`, refused with `LOAD_UNSUPPORTED` when the agent has no `loadSession`) → a
 * `session` event → `session/prompt` (text, plus images when the agent takes them) → the result.
 * Updates count for the turn only once the prompt is sent: a load replays the session's history
 * (Gemini partly after the load response), so the prompt waits until the replay is quiet.
 *
 * Stops: the run's signal aborting sends `session/cancel` (pending permission requests are answered
 * `cancelled`), waits up to `cancelWaitMs` for the turn to end, then kills the group and throws
 * (the guard maps it to CANCELLED / TIMEOUT_*). The process ending first → `RUN_FAILED` with the
 * last stderr line (redacted); a command that cannot be started → `AGENT_NOT_FOUND`.
 */
export function createAcpExecutor(profile: AcpAgentProfile, deps: AcpExecutorDeps): Executor {
  return (ctx) => runTurn(profile, deps, ctx);
}

async function runTurn(profile: AcpAgentProfile, deps: AcpExecutorDeps, ctx: RunContext): Promise<EngineResult> {
  const { logger, lang } = deps;
  const agentName = profile.name;
  const label = profile.label ?? profile.name;
  const denials: PermissionDenial[] = [];
  let mapper: SessionUpdateMapper | undefined;
  let promptSent = false;
  let answered = false;
  let lastUpdateAt = performance.now();
  const onSkipped = (what: string): void => logger.warn('ACP update skipped', { agent: agentName, what });

  const conn = openAcpConnection(
    {
      command: profile.command,
      env: profile.env,
      cwd: ctx.cwd,
      ...(deps.tracker ? { tracker: deps.tracker } : {}),
      ...(deps.killGraceMs !== undefined ? { killGraceMs: deps.killGraceMs } : {}),
      onActivity: () => ctx.touch(),
    },
    {
      onUpdate: (params) => {
        lastUpdateAt = performance.now();
        // Before the prompt is sent, everything is the replay of a loaded session's history.
        if (promptSent) mapper?.accept(params);
      },
      onPermission: (params, signal) => {
        if (isObj(params)) mapper?.noteToolCall(params.toolCall);
        return answerPermission(params, signal, {
          agent: agentName,
          handler: ctx.permissions,
          ...(deps.permissionStore ? { store: deps.permissionStore } : {}),
          ...(deps.passAlwaysToAgent ? { passAlwaysToAgent: true } : {}),
          ...(ctx.request.userId ? { userId: ctx.request.userId } : {}),
          emit: (e) => ctx.emit(e),
          pause: () => ctx.pause(),
          resume: () => ctx.resume(),
          runSignal: ctx.signal,
          denials,
          logger,
        });
      },
      onUnknownRequest: (method) => logger.info('ACP agent request not supported', { agent: agentName, method }),
    },
  );
  if (conn.pid === undefined) throw notStarted(profile, await conn.exited, lang);

  const step = <T>(p: Promise<T>): Promise<T> => raceRun(p, conn, ctx.signal);
  try {
    const init = await step(
      conn.agent.request(acp.methods.agent.initialize, {
        protocolVersion: acp.PROTOCOL_VERSION,
        clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false },
        clientInfo: { name: 'cc-linker', version: '1' },
      }),
    );
    const caps = isObj(init.agentCapabilities) ? init.agentCapabilities : {};
    const acceptsImages = isObj(caps.promptCapabilities) && caps.promptCapabilities.image === true;

    let sessionId: string;
    let session: Obj;
    const resumeId = ctx.request.sessionId;
    if (resumeId) {
      if (caps.loadSession !== true)
        throw new EngineError('LOAD_UNSUPPORTED', { agent: label, name: agentName }, { lang });
      sessionId = resumeId;
      session = await step(
        conn.agent.request(acp.methods.agent.session.load, { sessionId, cwd: ctx.cwd, mcpServers: [] }),
      ).catch((err: unknown) => {
        throw loadFailure(err, label, resumeId, lang);
      });
      ctx.emit({ type: 'session', sessionId });
      await step(replayQuiet(() => lastUpdateAt, deps));
    } else {
      const created = await step(conn.agent.request(acp.methods.agent.session.new, { cwd: ctx.cwd, mcpServers: [] }));
      if (typeof created.sessionId !== 'string' || !created.sessionId)
        throw new EngineError('RUN_FAILED', { agent: label, detail: 'session/new returned no sessionId' }, { lang });
      sessionId = created.sessionId;
      session = created as unknown as Obj;
      ctx.emit({ type: 'session', sessionId });
    }
    const models = modelsOf(session);
    if (models.available.length > 0) deps.onModels?.(models.available);
    let model = models.current;
    if (ctx.request.model && ctx.request.model !== model) {
      if (await selectModel(conn, step, sessionId, ctx.request.model, session, logger, agentName))
        model = ctx.request.model;
    }

    const turn = new SessionUpdateMapper(sessionId, (e) => ctx.emit(e), onSkipped);
    mapper = turn;
    promptSent = true;
    const prompt: acp.ContentBlock[] = promptBlocks(ctx.request.prompt, ctx.request.imagePaths ?? [], acceptsImages);
    const prompting = conn.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt });
    prompting.catch(() => undefined);
    let response: Awaited<typeof prompting>;
    try {
      response = await step(prompting);
    } catch (err) {
      if (err instanceof RunStopped) await cancelTurn(conn, sessionId, prompting, deps);
      throw err;
    }
    answered = true;
    turn.setResponseUsage((response as unknown as Obj).usage);
    const usage = turn.usage();
    return {
      text: turn.text(),
      sessionId,
      costUsd: null,
      durationMs: Math.round(performance.now() - ctx.startedAt),
      numTurns: 1,
      stopReason: typeof response.stopReason === 'string' ? response.stopReason : null,
      permissionDenials: denials,
      ...(model ? { model } : {}),
      isNewSession: !resumeId,
      agent: agentName,
      ...(usage ? { usage } : {}),
    };
  } catch (err) {
    if (err instanceof AgentExited) throw crashed(label, err.result, conn, lang);
    if (err instanceof EngineError || err instanceof RunStopped) throw err;
    // A JSON-RPC error from the agent, or the connection failing.
    if (conn.hasExited) throw crashed(label, await conn.exited, conn, lang);
    throw new EngineError(
      'RUN_FAILED',
      { agent: label, detail: failureDetail(errorText(err)) },
      { lang, cause: err, stderrTail: conn.stderrTail().text() },
    );
  } finally {
    // A finished turn: the answer goes out now while the agent saves it and exits (the session
    // stays locked until it has); anything else: end the group now.
    if (answered && !ctx.signal.aborted)
      ctx.wrapUp(
        conn
          .finish(deps.endSettleMs ?? DEFAULT_END_SETTLE_MS, deps.endGraceMs ?? DEFAULT_END_GRACE_MS)
          .catch(() => conn.close())
          .then(() => undefined),
      );
    else await conn.close();
  }
}

/** `p`, unless the process ends (`AgentExited`) or the run stops (`RunStopped`) first. */
function raceRun<T>(p: Promise<T>, conn: AcpConnection, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(new RunStopped());
    if (signal.aborted) onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    void conn.exited.then((result) => reject(new AgentExited(result)));
    p.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/**
 * The cancel of a running turn: `session/cancel`, then up to `cancelWaitMs` for the prompt to end
 * (an agent that ignores the cancel is killed by the caller's `close`).
 */
async function cancelTurn(
  conn: AcpConnection,
  sessionId: string,
  prompting: Promise<unknown>,
  deps: AcpExecutorDeps,
): Promise<void> {
  if (conn.hasExited) return;
  try {
    await conn.agent.notify(acp.methods.agent.session.cancel, { sessionId });
  } catch {
    return; // the connection is gone: nothing to wait for
  }
  const wait = deps.cancelWaitMs ?? DEFAULT_CANCEL_WAIT_MS;
  const timer = new AbortController();
  await Promise.race([
    prompting.catch(() => undefined),
    conn.exited,
    sleep(wait, undefined, { signal: timer.signal }).catch(() => undefined),
  ]);
  timer.abort();
}

/** Resolves once no `session/update` came for `replayQuietMs` (at most `replayMaxMs` after the call). */
async function replayQuiet(lastUpdateAt: () => number, deps: AcpExecutorDeps): Promise<void> {
  const quiet = deps.replayQuietMs ?? DEFAULT_REPLAY_QUIET_MS;
  const deadline = performance.now() + (deps.replayMaxMs ?? DEFAULT_REPLAY_MAX_MS);
  for (;;) {
    const now = performance.now();
    const left = Math.min(quiet - (now - lastUpdateAt()), deadline - now);
    if (left <= 0) return;
    await sleep(Math.max(left, 1));
  }
}

/**
 * Asks the agent to use `model` for this session: through a `model` config option when the session
 * offers one, else the older `session/set_model`. A failure is logged and the agent's default kept.
 */
async function selectModel(
  conn: AcpConnection,
  step: <T>(p: Promise<T>) => Promise<T>,
  sessionId: string,
  model: string,
  session: Obj,
  logger: Logger,
  agent: string,
): Promise<boolean> {
  const option = Array.isArray(session.configOptions)
    ? session.configOptions.find((o): o is Obj => isObj(o) && o.category === 'model' && typeof o.id === 'string')
    : undefined;
  try {
    if (option)
      await step(
        conn.agent.request(acp.methods.agent.session.setConfigOption, {
          sessionId,
          configId: option.id as string,
          value: model,
        }),
      );
    else if (isObj(session.models)) await step(conn.agent.request('session/set_model', { sessionId, modelId: model }));
    else return false;
    return true;
  } catch (err) {
    if (err instanceof RunStopped || err instanceof AgentExited) throw err;
    logger.warn('the agent refused the model; using its default', { agent, model, err: errorText(err) });
    return false;
  }
}

function notStarted(profile: AcpAgentProfile, result: RunResult, lang: Language): EngineError {
  const code = result.spawnError?.code;
  const command = profile.command[0] ?? '';
  const agent = profile.label ?? profile.name;
  if (code === 'ENOENT' || code === 'EACCES' || code === 'ENOTDIR')
    return new EngineError(
      'AGENT_NOT_FOUND',
      { agent, name: profile.name, command, install: profile.install ?? '' },
      { lang, cause: result.spawnError },
    );
  return new EngineError(
    'RUN_FAILED',
    { agent, detail: failureDetail(result.spawnError?.message ?? 'the agent could not be started') },
    { lang, cause: result.spawnError },
  );
}

/** `RUN_FAILED` for an agent that ended mid-run: its last stderr line, else how it ended. */
function crashed(agent: string, result: RunResult, conn: AcpConnection, lang: Language): EngineError {
  const tail = conn.stderrTail();
  const how =
    result.signal !== null ? `killed by ${result.signal}` : `exited with code ${String(result.exitCode ?? '?')}`;
  const last = tail.lastLine();
  return new EngineError(
    'RUN_FAILED',
    { agent, detail: failureDetail(last ? `${how}: ${last}` : how) },
    { lang, stderrTail: tail.text() },
  );
}

/** A failed `session/load`: an unknown session → `SESSION_NOT_FOUND`, anything else → `RUN_FAILED`. */
function loadFailure(err: unknown, agent: string, sessionId: string, lang: Language): unknown {
  if (err instanceof RunStopped || err instanceof AgentExited || err instanceof EngineError) return err;
  const code = isObj(err) ? err.code : undefined;
  const text = errorText(err);
  // -32002 is ACP's "resource not found"; Gemini answers an unknown session with -32603 and this text.
  if (code === -32002 || /no previous session|not found/i.test(text))
    return new EngineError('SESSION_NOT_FOUND', { agent, session: shortSessionId(sessionId) }, { lang, cause: err });
  return new EngineError('RUN_FAILED', { agent, detail: failureDetail(`session/load: ${text}`) }, { lang, cause: err });
}

function errorText(err: unknown): string {
  if (err instanceof Error) return err.message;
  if (isObj(err) && typeof err.message === 'string') return err.message;
  return String(err);
}
