import { AppError } from '../core/app-error.js';
import type { Language } from '../core/i18n.js';
import { storeMessages, type StoreIoOp } from './store-messages.js';

/** Every way a durable-file operation can fail in a way the user should hear about. */
export type StoreErrorCode =
  'STORE_LOCK_TIMEOUT' | 'STORE_CORRUPT' | 'STORE_NEWER_SCHEMA' | 'STORE_OWNER_LOCKED' | 'STORE_IO';

/** Values interpolated into the message; `file` (or `lockFile`) always names the file involved. */
export type StoreErrorParams = Record<string, string | number>;

/** sysexits-style exit codes, so scripts can tell "try again later" from "your data is bad". */
const EXIT_CODES: Record<StoreErrorCode, number> = {
  STORE_LOCK_TIMEOUT: 75, // EX_TEMPFAIL
  STORE_OWNER_LOCKED: 75,
  STORE_CORRUPT: 65, // EX_DATAERR
  STORE_NEWER_SCHEMA: 65,
  STORE_IO: 74, // EX_IOERR
};

/**
 * The store room's error: lock timeouts, corrupt or too-new files, a running owner, I/O failures.
 * `userMessage` is one line in zh (the default language); `localize('en')` renders the same error
 * in another language from the kept `params`, so an edge that knows the user's language can use it.
 *
 * @example
 *   catch (e) { if (e instanceof StoreError && e.code === 'STORE_CORRUPT') recoverFromBackup(); }
 */
export class StoreError extends AppError {
  declare readonly code: StoreErrorCode;
  /** The values the message was built from (file names, pids, counts); never secrets. */
  readonly params: StoreErrorParams;

  constructor(code: StoreErrorCode, params: StoreErrorParams, options: { cause?: unknown } = {}) {
    super(code, oneLine(storeMessages('zh')(code, params)), { cause: options.cause, exitCode: EXIT_CODES[code] });
    this.params = params;
  }

  /** The user message in `lang`. */
  override localize(lang: Language): string {
    return oneLine(storeMessages(lang)(this.code, this.params));
  }

  /**
   * Wraps a failed fs call as `STORE_IO` naming the file and the errno (e.g. `ENOSPC`); a
   * `StoreError` passes through unchanged so wrappers can nest.
   */
  static io(op: StoreIoOp, file: string, cause: unknown): StoreError {
    if (cause instanceof StoreError) return cause;
    return new StoreError('STORE_IO', { op, file, reason: errnoReason(cause) }, { cause });
  }
}

/** The short reason of an fs error: its errno code when it has one, else its message. */
function errnoReason(err: unknown): string {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  if (typeof code === 'string') return code;
  return err instanceof Error ? err.message : String(err);
}

function oneLine(text: string): string {
  return text.replace(/\s*[\r\n]+\s*/g, ' ').trim();
}
