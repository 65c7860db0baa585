import { setTimeout as sleep } from 'node:timers/promises';
import * as acp from '@agentclientprotocol/sdk';
import type { Logger } from '../../core/logger.js';
import type { AcpConnection } from './acp-connection.js';
import type { AcpExecutorDeps } from './acp-executor-deps.js';
import { AgentExited, errorText, isObj, RunStopped, type Obj } from './acp-failures.js';

const DEFAULT_CANCEL_WAIT_MS = 1000;
const DEFAULT_REPLAY_QUIET_MS = 300;
const DEFAULT_REPLAY_MAX_MS = 3000;

/**
 * The cancel of a running turn: `session/cancel`, then up to `cancelWaitMs` for the prompt to end
 * (an agent that ignores the cancel is killed by the caller's `close`).
 */
export async function cancelTurn(
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
export async function replayQuiet(lastUpdateAt: () => number, deps: AcpExecutorDeps): Promise<void> {
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
export async function selectModel(
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
