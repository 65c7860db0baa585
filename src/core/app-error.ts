import type { Language } from './i18n.js';

/**
 * The one base error of cc-linker.
 *
 * Every layer throws a subclass of `AppError` so that the edges (CLI, chat channels, web console)
 * can show `userMessage` to the user in their language while logs get `code` and `cause`.
 * A `userMessage` must never contain a secret: build it from names and values the user typed,
 * never from tokens, app secrets or API keys.
 *
 * @example
 *   throw new AppError('CONFIG_INVALID', 'config.toml: runtime.max_concurrent_sessions must be a positive integer', { cause: err });
 */
export class AppError extends Error {
  /** A stable, upper-snake-case identifier that tests and callers can match on. */
  readonly code: string;
  /** One line a user can act on; already localized by whoever threw it. */
  readonly userMessage: string;
  /** Process exit code a CLI command should end with when this error stops it. */
  readonly exitCode: number;

  constructor(code: string, userMessage: string, options: { cause?: unknown; exitCode?: number } = {}) {
    super(userMessage, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
    this.userMessage = userMessage;
    this.exitCode = options.exitCode ?? 1;
  }

  /**
   * The user message in another language. Subclasses that keep their message parameters override
   * this; the default is the message as thrown.
   */
  localize(_lang: Language): string {
    return this.userMessage;
  }
}

/** True for any `AppError`, including subclasses from other rooms. */
export function isAppError(value: unknown): value is AppError {
  return value instanceof AppError;
}
