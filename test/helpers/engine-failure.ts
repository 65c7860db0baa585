import { EngineError } from '../../src/engine/engine-error.js';

/** Awaits `p` and returns the `EngineError` it rejected with; fails the test if it resolved or threw something else. */
export async function engineFailure(p: Promise<unknown>): Promise<EngineError> {
  try {
    await p;
  } catch (err) {
    if (err instanceof EngineError) return err;
    throw err;
  }
  throw new Error('expected failure');
}
