/** What the chat users need of a fake to aim kills at its writes (the fake Bot API, the fake Slack). */
export interface AnsweringFake {
  /** How many calls of each method the fake has answered. */
  answered: Map<string, number>;
  /** Called with each method the fake has just answered; returning true removes the listener. */
  onAnswer(listener: (method: string) => boolean): void;
}

/** How many of the fake's answers were to `methods` (the sends and edits the user sees). */
export function writesAnswered(fake: AnsweringFake, methods: readonly string[]): number {
  return methods.reduce((n, m) => n + (fake.answered.get(m) ?? 0), 0);
}

/**
 * Resolves true in the same tick as the fake wrote its answer to the next call of one of
 * `methods` (so a kill lands right after the platform confirmed a send), false after `timeoutMs`.
 */
export function afterNextWrite(fake: AnsweringFake, methods: readonly string[], timeoutMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    let done = false;
    const timer = setTimeout(() => {
      done = true;
      resolve(false);
    }, timeoutMs);
    fake.onAnswer((method) => {
      if (done) return true;
      if (!methods.includes(method)) return false;
      done = true;
      clearTimeout(timer);
      resolve(true);
      return true;
    });
  });
}
