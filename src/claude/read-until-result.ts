/** Reading one query's messages, split at its `result` message. */
export interface ResultReading {
  /**
   * Resolves once the first `result` message has been handed to `onMessage`, or when the messages
   * ended without one; rejects when reading failed before a result.
   */
  untilResult: Promise<void>;
  /** Resolves when every message has been read: with what reading threw, undefined when it ended cleanly. Never rejects. */
  rest: Promise<unknown>;
}

/**
 * Reads an Agent SDK `query()` and says when its answer is complete, without waiting for the
 * stream to end: after the `result` message Claude Code still saves the turn and exits, which
 * takes 50–150 ms that the caller need not wait for before answering (it must still wait for
 * `rest`, and for the child's group, before the session is used again — see `RunContext.wrapUp`).
 *
 * `onMessage` gets every message up to and including the first `result`; later ones (none in a
 * single-prompt query) are read and dropped, so nothing reaches the caller after its answer.
 * An `onMessage` that throws ends the reading like a failing stream.
 *
 * @example
 *   const reading = readUntilResult(query({ prompt, options }), (m) => parser.push(m));
 *   await reading.untilResult; // the answer is known
 *   ctx.wrapUp(reading.rest.then(() => spawnerGone()));
 */
export function readUntilResult<M extends { type: string }>(
  messages: AsyncIterable<M>,
  onMessage: (message: M) => void,
): ResultReading {
  let answered!: () => void;
  let failed!: (err: unknown) => void;
  const untilResult = new Promise<void>((resolve, reject) => {
    answered = resolve;
    failed = reject;
  });
  untilResult.catch(() => undefined); // the caller awaits it; a failure after the result is in `rest`
  const rest = (async (): Promise<unknown> => {
    let seen = false;
    try {
      for await (const message of messages) {
        if (seen) continue;
        onMessage(message);
        if (message.type === 'result') {
          seen = true;
          answered();
        }
      }
      answered();
      return undefined;
    } catch (err) {
      failed(err);
      return err;
    }
  })();
  return { untilResult, rest };
}
