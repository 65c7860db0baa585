import { AppError } from '../../core/app-error.js';

/** Exit code of a missing or invalid answer: a usage error, as with a bad command-line flag. */
export const SETUP_USAGE_EXIT = 2;

/**
 * Why `cc-linker setup` stopped without writing: a missing or invalid answer (`SETUP_MISSING`,
 * `SETUP_INVALID`, exit 2), credentials Feishu refused or could not check (`SETUP_CREDENTIALS`),
 * input that ended or was interrupted (`SETUP_INPUT`), or a "no" at the final question
 * (`SETUP_DECLINED`). The message is already in the language the user chose during setup and
 * never contains the app secret.
 */
export class SetupError extends AppError {
  constructor(
    code: 'SETUP_MISSING' | 'SETUP_INVALID' | 'SETUP_CREDENTIALS' | 'SETUP_INPUT' | 'SETUP_DECLINED' | 'SETUP_EXISTING',
    userMessage: string,
    options: { exitCode?: number; cause?: unknown } = {},
  ) {
    super(code, userMessage, options);
  }
}
