import { AppError } from '../core/app-error.js';

/**
 * A programmer error in how the runner was called (an empty argv, a negative timeout).
 *
 * Why a class of its own: the runner never rejects for anything the child does — a missing binary,
 * a crash or a timeout all come back in `RunResult` — so a `ProcessError` always means the caller's
 * code is wrong, and callers can tell the two apart with `instanceof`.
 *
 * @example
 *   throw new ProcessError('PROCESS_EMPTY_ARGV', 'runProcess: argv must name a program');
 */
export class ProcessError extends AppError {
  constructor(code: string, userMessage: string, options: { cause?: unknown } = {}) {
    super(code, userMessage, { ...options, exitCode: 70 });
  }
}
