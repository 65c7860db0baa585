import type { Logger } from '../../core/logger.js';
import type {
  EngineEvent,
  PermissionDecision,
  PermissionDenial,
  PermissionHandler,
  PermissionRequest,
} from '../../engine/engine-types.js';
import { commandOf, describeAcpTool } from './acp-tool-summary.js';
import type { AgentPermissionStore } from './agent-permission-store.js';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The `session/request_permission` answer (ACP `RequestPermissionResponse`). */
export type PermissionAnswer = { outcome: { outcome: 'cancelled' } | { outcome: 'selected'; optionId: string } };

/** What answering one permission request needs from the run. */
export interface PermissionContext {
  agent: string;
  handler: PermissionHandler | undefined;
  /**
   * Answer "always" with the agent's own `allow_always` option too. Off by default: agents widen
   * it and write it into the user's project (Qwen Code stores `Bash(touch *)` in
   * `<cwd>/.qwen/settings.json` for an approved `touch made.txt`), while cc-linker's own rule is the
   * exact command.
   */
  passAlwaysToAgent?: boolean;
  /** Persisted "always allow" answers; absent → every request is asked. */
  store?: AgentPermissionStore;
  userId?: string;
  emit(event: EngineEvent): void;
  /** Idle clock: stopped while the user decides. */
  pause(): void;
  resume(): void;
  /** Aborted when the run stops (cancel, timeout): a pending question is answered `cancelled`. */
  runSignal: AbortSignal;
  /** Requests the user refused, for the result's `permissionDenials`. */
  denials: PermissionDenial[];
  logger: Logger;
}

const CANCELLED: PermissionAnswer = { outcome: { outcome: 'cancelled' } };
const select = (optionId: string): PermissionAnswer => ({ outcome: { outcome: 'selected', optionId } });

/**
 * Answers an ACP agent's `session/request_permission`:
 * 1. a request matching a stored "always allow" rule (this agent, the tool kind, the exact
 *    command or title) → its allow option, without asking;
 * 2. otherwise a `permission_request` event and `handler.requestPermission` (the idle clock is
 *    paused meanwhile); allow → the `allow_once` option; allow with `always` → the rule is stored
 *    and the agent gets `allow_once` too (`allow_always` only with `passAlwaysToAgent`, see there);
 *    deny → `reject_once`, or the `cancelled` outcome when the agent offers no reject option.
 * No handler, a handler that fails, or a malformed request → rejected; the run stopping →
 * `cancelled` (what ACP asks of a client that cancels a turn). The bridge's handler denies a
 * request nobody answers within `sdk.timeout_ms`.
 */
export async function answerPermission(
  params: unknown,
  requestSignal: AbortSignal,
  c: PermissionContext,
): Promise<PermissionAnswer> {
  const options = isObj(params) && Array.isArray(params.options) ? params.options.filter(isObj) : [];
  const toolCall = isObj(params) && isObj(params.toolCall) ? params.toolCall : undefined;
  const optionOf = (...kinds: string[]): string | undefined => {
    for (const kind of kinds) {
      const o = options.find((x) => x.kind === kind && typeof x.optionId === 'string');
      if (o) return o.optionId as string;
    }
    return undefined;
  };
  const reject = (): PermissionAnswer => {
    const id = optionOf('reject_once');
    return id ? select(id) : CANCELLED;
  };
  if (!toolCall || typeof toolCall.toolCallId !== 'string') {
    c.logger.warn('malformed ACP permission request rejected', { agent: c.agent });
    return reject();
  }
  if (c.runSignal.aborted) return CANCELLED;

  const id = toolCall.toolCallId;
  const kind = typeof toolCall.kind === 'string' && toolCall.kind ? toolCall.kind : 'other';
  const subject = commandOf(toolCall.rawInput) ?? (typeof toolCall.title === 'string' ? toolCall.title : '');
  const { name, summary } = describeAcpTool(toolCall);
  const input = isObj(toolCall.rawInput) ? toolCall.rawInput : {};
  const denied = (): PermissionAnswer => {
    c.denials.push({ toolName: name, toolUseId: id, input });
    return reject();
  };

  if (c.store && subject) {
    try {
      if (await c.store.allows(c.agent, kind, subject)) {
        const allow = optionOf('allow_once', 'allow_always');
        if (allow) return select(allow);
      }
    } catch (err) {
      c.logger.warn('reading the agent permission rules failed; asking', { agent: c.agent, err });
    }
  }

  const request: PermissionRequest = {
    id,
    toolName: name,
    kind,
    summary: summary ? `${name}: ${summary}` : name,
    input,
    // The one "always allow" rule on offer: this exact command, as the store keeps it. The chat
    // shows its "Always allow" button only when a request has suggestions.
    suggestions: c.store && subject && optionOf('allow_once', 'allow_always') ? [subject] : [],
  };
  c.emit({ type: 'permission_request', request });
  if (!c.handler) return denied();

  const signal = AbortSignal.any([c.runSignal, requestSignal]);
  let decision: PermissionDecision;
  c.pause();
  try {
    decision = await untilAborted(c.handler.requestPermission(request, signal), signal);
  } catch (err) {
    if (signal.aborted) return CANCELLED;
    c.logger.warn('permission handler failed; rejecting', { agent: c.agent, err });
    return denied();
  } finally {
    c.resume();
  }
  if (decision.behavior === 'deny') return denied();
  const allow =
    decision.always && c.passAlwaysToAgent
      ? optionOf('allow_always', 'allow_once')
      : optionOf('allow_once', 'allow_always');
  if (!allow) return denied();
  if (decision.always && c.store && subject) {
    try {
      await c.store.add({ agent: c.agent, kind, command: subject, ...(c.userId ? { userId: c.userId } : {}) });
    } catch (err) {
      c.logger.warn('storing the always-allow rule failed; allowed once', { agent: c.agent, err });
    }
  }
  return select(allow);
}

/** `promise`, or a rejection as soon as `signal` aborts (a handler that ignores its signal). */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(new Error('aborted'));
    if (signal.aborted) onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (err: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(err instanceof Error ? err : new Error(String(err)));
      },
    );
  });
}
