/** Which REST requests a fault applies to: all of them when both fields are absent. */
export interface FaultMatcher {
  /** HTTP method, case-insensitive (`POST`, `PATCH`, …). */
  method?: string;
  /** Prefix of the URL path without the query, e.g. `/open-apis/im/v1/messages`. */
  pathPrefix?: string;
}

/**
 * What to do to the next matching request(s), `times` of them (default 1):
 * answer `status` with body `{code, msg}`; hold the request `delayMs` then serve it normally;
 * or destroy the TCP connection without an answer (the client sees ECONNRESET / socket hang up).
 */
export type Fault =
  | { status: number; code?: number; msg?: string; times?: number }
  | { delayMs: number; times?: number }
  | { resetConnection: true; times?: number };

interface Rule {
  matcher: FaultMatcher;
  fault: Fault;
  remaining: number;
}

/**
 * The queue of injected faults of a fake server: rules match in the order they were added and
 * each one is used up after `times` matching requests.
 */
export class FaultInjector {
  private rules: Rule[] = [];

  /** Queues `fault` for the next `fault.times ?? 1` requests that match `matcher`. */
  add(matcher: FaultMatcher, fault: Fault): void {
    const times = fault.times ?? 1;
    if (!Number.isInteger(times) || times < 1) throw new Error(`fault times must be a positive integer, got ${times}`);
    this.rules.push({ matcher, fault, remaining: times });
  }

  /** The fault for this request, consuming one use of the first matching rule; undefined when none. */
  take(method: string, path: string): Fault | undefined {
    const index = this.rules.findIndex(
      (r) =>
        (r.matcher.method === undefined || r.matcher.method.toUpperCase() === method.toUpperCase()) &&
        (r.matcher.pathPrefix === undefined || path.startsWith(r.matcher.pathPrefix)),
    );
    const rule = this.rules[index];
    if (!rule) return undefined;
    rule.remaining -= 1;
    if (rule.remaining === 0) this.rules.splice(index, 1);
    return rule.fault;
  }
}
