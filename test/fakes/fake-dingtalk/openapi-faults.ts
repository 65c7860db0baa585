/**
 * An injected OpenAPI failure: HTTP `status` (a 429 carries `Retry-After: retryAfter`), the
 * connection reset without an answer, or — `flowControlled` — a `batchSend` answered 200 that
 * lists the user as flow controlled and delivers nothing (DingTalk's per-user rate limit).
 */
export interface OpenApiFault {
  status?: number;
  retryAfter?: number;
  reset?: boolean;
  flowControlled?: boolean;
  times: number;
}

/** Called in the same tick as the fake wrote its answer to `call`; returning true removes it. */
export type AnswerListener = (call: string) => boolean;

/** The name of an OpenAPI path in faults and counts: its last segment (`batchSend`, `accessToken`, …). */
export function callName(pathname: string): string {
  return pathname.split('/').filter(Boolean).pop() ?? pathname;
}

/**
 * The fake DingTalk's fault switches and answer counts for the OpenAPI (not the Stream gateway):
 * per call name or `*` (any call), the next `times` calls fail; every successful answer is counted
 * per call and announced to the listeners right after it was written (a chaos run kills the bridge
 * in the moment between DingTalk's answer and the bridge's record of it).
 */
export class OpenApiFaults {
  /** Successful answers per call name (injected failures not counted). */
  readonly answered = new Map<string, number>();
  /** Calls answered with an injected failure. */
  injected = 0;
  private readonly faults = new Map<string, OpenApiFault>();
  private listeners: AnswerListener[] = [];

  /** The next `fault.times` calls of `call` (`*`: any OpenAPI call) fail as `fault` says. */
  failNext(call: string, fault: OpenApiFault): void {
    this.faults.set(call, { ...fault });
  }

  /** The fault the next call of `call` meets, if any (used up by one). */
  take(call: string, only?: (f: OpenApiFault) => boolean): OpenApiFault | undefined {
    const fault = [this.faults.get(call), this.faults.get('*')].find(
      (f) => f !== undefined && f.times > 0 && (only?.(f) ?? true),
    );
    if (!fault) return undefined;
    fault.times -= 1;
    this.injected += 1;
    return fault;
  }

  onAnswer(listener: AnswerListener): void {
    this.listeners.push(listener);
  }

  /** Counts a successful answer to `call`, written just now, and tells the listeners. */
  answeredNow(call: string): void {
    this.answered.set(call, (this.answered.get(call) ?? 0) + 1);
    this.listeners = this.listeners.filter((l) => !l(call));
  }
}
