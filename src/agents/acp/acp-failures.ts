import type { Language } from '../../core/i18n.js';
import type { RunResult } from '../../process/run-process.js';
import { EngineError, failureDetail, shortSessionId } from '../../engine/engine-error.js';
import type { AcpConnection } from './acp-connection.js';
import type { AcpAgentProfile } from './acp-executor-deps.js';

export type Obj = Record<string, unknown>;
export const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The process ended while we waited for the agent. */
export class AgentExited extends Error {
  constructor(readonly result: RunResult) {
    super('the agent process ended');
  }
}

/** The run's signal aborted while we waited for the agent. */
export class RunStopped extends Error {
  constructor() {
    super('the run was stopped');
  }
}

/**
 * A kept agent process was found ended before this turn's prompt was written to it: the prompt
 * never reached the agent, so the turn may run on a fresh process (docs/design.md#warm-sessions).
 */
export class GoneBeforePrompt extends Error {
  constructor() {
    super('the kept agent process had ended before the prompt');
  }
}

/** `p`, unless the process ends (`AgentExited`) or the run stops (`RunStopped`) first. */
export function raceRun<T>(p: Promise<T>, conn: AcpConnection, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(new RunStopped());
    if (signal.aborted) onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    void conn.exited.then((result) => reject(new AgentExited(result)));
    p.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** The agent could not be started: `AGENT_NOT_FOUND` for a missing command, else `RUN_FAILED`. */
export function notStarted(profile: AcpAgentProfile, result: RunResult, lang: Language): EngineError {
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
export function crashed(agent: string, result: RunResult, conn: AcpConnection, lang: Language): EngineError {
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

/**
 * What a failed turn throws: our own stops and typed errors as they are, the agent's end as
 * `RUN_FAILED` naming how it ended, a JSON-RPC error or a failing connection as `RUN_FAILED`.
 */
export async function turnFailure(err: unknown, agent: string, conn: AcpConnection, lang: Language): Promise<unknown> {
  if (err instanceof AgentExited) return crashed(agent, err.result, conn, lang);
  if (err instanceof EngineError || err instanceof RunStopped || err instanceof GoneBeforePrompt) return err;
  if (conn.hasExited) return crashed(agent, await conn.exited, conn, lang);
  return new EngineError(
    'RUN_FAILED',
    { agent, detail: failureDetail(errorText(err)) },
    { lang, cause: err, stderrTail: conn.stderrTail().text() },
  );
}

/** A failed `session/load`: an unknown session → `SESSION_NOT_FOUND`, anything else → `RUN_FAILED`. */
export function loadFailure(err: unknown, agent: string, sessionId: string, lang: Language): unknown {
  if (err instanceof RunStopped || err instanceof AgentExited || err instanceof EngineError) return err;
  const code = isObj(err) ? err.code : undefined;
  const text = errorText(err);
  // -32002 is ACP's "resource not found"; Gemini answers an unknown session with -32603 and this text.
  if (code === -32002 || /no previous session|not found/i.test(text))
    return new EngineError('SESSION_NOT_FOUND', { agent, session: shortSessionId(sessionId) }, { lang, cause: err });
  return new EngineError('RUN_FAILED', { agent, detail: failureDetail(`session/load: ${text}`) }, { lang, cause: err });
}

export function errorText(err: unknown): string {
  if (err instanceof Error) return err.message;
  if (isObj(err) && typeof err.message === 'string') return err.message;
  return String(err);
}
