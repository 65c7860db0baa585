import { randomUUID } from 'node:crypto';
import type { AgentEngine, EngineRequest, EngineResult, EngineSendOptions } from '../../src/engine/engine-types.js';
import { AppError } from '../../src/core/app-error.js';

export type FakeBehaviour = (
  req: EngineRequest,
  opts: EngineSendOptions,
) => Promise<Partial<EngineResult> | void> | Partial<EngineResult> | void;

/**
 * A scripted `AgentEngine`: answers `echo: <prompt>` by default, emits a session event and text
 * deltas, honours the abort signal, and records every request. Behaviours can be replaced per test
 * (`onSend`), e.g. to ask for permission or to throw.
 */
export class FakeEngine implements AgentEngine {
  readonly agent = 'claude';
  readonly mode = 'sdk' as const;
  readonly requests: EngineRequest[] = [];
  /** Session ids created, in order. */
  readonly created: string[] = [];
  onSend?: FakeBehaviour;
  delayMs = 0;
  /** Resolved before the session id is reported (lets a test hold a new session in "creating"). */
  beforeSession?: Promise<void>;

  async send(request: EngineRequest, options: EngineSendOptions = {}): Promise<EngineResult> {
    this.requests.push(request);
    const sessionId = request.sessionId ?? request.newSessionId ?? randomUUID();
    if (!request.sessionId) this.created.push(sessionId);
    if (this.beforeSession) await this.beforeSession;
    options.onEvent?.({ type: 'session', sessionId });
    const extra = (await this.onSend?.(request, options)) ?? {};
    if (this.delayMs > 0) {
      await new Promise<void>((resolve, reject) => {
        const t = setTimeout(resolve, this.delayMs);
        options.signal?.addEventListener(
          'abort',
          () => {
            clearTimeout(t);
            reject(new AppError('CANCELLED', 'cancelled'));
          },
          { once: true },
        );
      });
    }
    if (options.signal?.aborted) throw new AppError('CANCELLED', 'cancelled');
    const text = extra.text ?? `echo: ${request.prompt}`;
    for (const part of text.match(/.{1,16}/gs) ?? []) options.onEvent?.({ type: 'text', delta: part });
    return {
      text,
      sessionId,
      costUsd: 0.001,
      durationMs: 5,
      numTurns: 1,
      stopReason: 'end_turn',
      permissionDenials: [],
      isNewSession: !request.sessionId,
      ...extra,
    };
  }
}
