import { AppError } from '../core/app-error.js';
import type { Language } from '../core/i18n.js';
import { sessionsMessages } from './sessions-messages.js';

/** Every way a sessions operation can stop with something the user should hear. */
export type SessionsErrorCode =
  | 'SESSION_NOT_FOUND'
  | 'SESSION_AMBIGUOUS'
  | 'SESSION_CORRUPTED'
  | 'SESSION_NOT_READY'
  | 'SESSION_FILE_MISSING'
  | 'SESSION_NOT_AN_ID'
  | 'UNKNOWN_AGENT'
  | 'RESUME_EXEC_CLAUDE_ONLY'
  | 'REGISTRY_MISSING'
  | 'REGISTRY_UNRECOVERABLE'
  | 'HOOK_SETTINGS_INVALID';

export type SessionsErrorParams = Record<string, string | number>;

const EXIT_CODES: Record<SessionsErrorCode, number> = {
  SESSION_NOT_FOUND: 1,
  SESSION_AMBIGUOUS: 1,
  SESSION_CORRUPTED: 1,
  SESSION_NOT_READY: 75, // EX_TEMPFAIL: retry later
  SESSION_FILE_MISSING: 66, // EX_NOINPUT
  SESSION_NOT_AN_ID: 65, // EX_DATAERR: a registry entry an older version took from a file name
  UNKNOWN_AGENT: 64, // EX_USAGE
  RESUME_EXEC_CLAUDE_ONLY: 64,
  REGISTRY_MISSING: 66,
  REGISTRY_UNRECOVERABLE: 65, // EX_DATAERR
  HOOK_SETTINGS_INVALID: 65,
};

/**
 * The sessions room's error. `userMessage` is one zh line (the default); `localize(lang)` renders
 * it in the user's language from `params`. `SESSION_AMBIGUOUS` carries the candidate ids in
 * `candidates` so an edge can list them.
 *
 * @example
 *   throw new SessionsError('SESSION_NOT_FOUND', { prefix: '8c4b' });
 */
export class SessionsError extends AppError {
  declare readonly code: SessionsErrorCode;
  readonly params: SessionsErrorParams;
  /** For `SESSION_AMBIGUOUS`: the matching session ids. */
  readonly candidates: string[];

  constructor(
    code: SessionsErrorCode,
    params: SessionsErrorParams,
    options: { cause?: unknown; candidates?: string[] } = {},
  ) {
    super(code, oneLine(sessionsMessages('zh')(`err_${code}`, params)), {
      cause: options.cause,
      exitCode: EXIT_CODES[code],
    });
    this.params = params;
    this.candidates = options.candidates ?? [];
  }

  /** The user message in `lang`. */
  override localize(lang: Language): string {
    return oneLine(sessionsMessages(lang)(`err_${this.code}`, this.params));
  }
}

function oneLine(text: string): string {
  return text.replace(/\s*[\r\n]+\s*/g, ' ').trim();
}
