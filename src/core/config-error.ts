import { AppError } from './app-error.js';

/**
 * A config file or environment override that cannot be used. The message always names the file,
 * the key, the bad value (never for secret keys) and what is expected, so the user can fix it
 * without reading code.
 */
export class ConfigError extends AppError {
  constructor(userMessage: string, options: { cause?: unknown } = {}) {
    super('CONFIG_INVALID', userMessage, { ...options, exitCode: 78 });
  }
}
