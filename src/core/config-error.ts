import { AppError } from './app-error.js';
import type { Language, LocalizedText } from './i18n.js';

/**
 * A config file or environment override that cannot be used. The message always names the file,
 * the key, the bad value (never for secret keys) and what is expected, so the user can fix it
 * without reading code. `localized` holds the message in both languages when some of it is
 * explained in both (e.g. why `ccexec.cli = ["cc"]` is refused).
 */
export class ConfigError extends AppError {
  private readonly localized: LocalizedText | undefined;

  constructor(userMessage: string, options: { cause?: unknown; localized?: LocalizedText } = {}) {
    super('CONFIG_INVALID', userMessage, { cause: options.cause, exitCode: 78 });
    this.localized = options.localized;
  }

  override localize(lang: Language): string {
    return this.localized?.[lang] ?? this.userMessage;
  }
}
