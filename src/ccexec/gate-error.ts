import { AppError } from '../core/app-error.js';

/**
 * A programming error in the cc_exec gateway's own inputs — e.g. `compareSemver` given a string that
 * is not a version. Tool calls from the model never throw this: the gate and the dispatcher turn every
 * bad model input into a deny / invalid outcome instead, so one hostile call can never crash a chat.
 *
 * @example
 *   throw new GateError('CCEXEC_BAD_VERSION', 'not a semantic version: "abc"');
 */
export class GateError extends AppError {
  constructor(code: string, userMessage: string, options: { cause?: unknown } = {}) {
    super(code, userMessage, { ...options, exitCode: 1 });
  }
}
