/**
 * The wait before retry `attempt` (1-based) of a step that failed: `baseMs`, doubling per attempt.
 * Resolves early when `signal` aborts (shutdown), so a stop never waits for a backoff.
 */
export function retryWait(baseMs: number, attempt: number, signal: AbortSignal): Promise<void> {
  return new Promise<void>((resolve) => {
    if (signal.aborted) return resolve();
    const onAbort = () => {
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(
      () => {
        signal.removeEventListener('abort', onAbort);
        resolve();
      },
      baseMs * 2 ** (attempt - 1),
    );
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
