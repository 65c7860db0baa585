import { AppError } from '../core/app-error.js';
import type { Language } from '../core/i18n.js';
import { redact } from '../core/redact.js';
import { engineMessages } from './engine-messages.js';

/** Every way an agent's run can fail that the user should hear about. */
export type EngineErrorCode =
  | 'SESSION_NOT_FOUND'
  | 'CWD_MISSING'
  | 'CLAUDE_NOT_FOUND'
  | 'AGENT_NOT_FOUND'
  | 'AGENT_UNKNOWN'
  | 'LOAD_UNSUPPORTED'
  | 'RUN_FAILED'
  | 'TIMEOUT_IDLE'
  | 'TIMEOUT_HARD'
  | 'CANCELLED'
  | 'MESSAGE_TOO_LONG'
  | 'SESSION_BUSY';

/**
 * Values the message is built from: `agent` (display name; absent = Claude Code), `session` (short
 * id), `cwd`, `bin`, `detail`, `timeoutMs`, …
 */
export type EngineErrorParams = Record<string, string | number>;

/** sysexits-style codes for CLI callers. */
const EXIT_CODES: Record<EngineErrorCode, number> = {
  SESSION_NOT_FOUND: 1,
  CWD_MISSING: 66, // EX_NOINPUT
  CLAUDE_NOT_FOUND: 69, // EX_UNAVAILABLE
  AGENT_NOT_FOUND: 69,
  AGENT_UNKNOWN: 64, // EX_USAGE
  LOAD_UNSUPPORTED: 69,
  RUN_FAILED: 1,
  TIMEOUT_IDLE: 75, // EX_TEMPFAIL
  TIMEOUT_HARD: 75,
  CANCELLED: 130,
  MESSAGE_TOO_LONG: 65, // EX_DATAERR
  SESSION_BUSY: 75,
};

/** Longest `detail` put into a user message; the full text stays in `stderrTail` / `cause`. */
const MAX_DETAIL = 300;
/** Longest stderr tail kept on the error (for logs). */
export const STDERR_TAIL_CHARS = 4000;

/**
 * An engine's error. `userMessage` is one line in the engine's language (`lang`);
 * `localize(other)` renders it again from `params`. `RUN_FAILED` keeps the redacted tail of the
 * child's stderr in `stderrTail` for logs — it is never shown to the user in full.
 *
 * @example
 *   throw new EngineError('CWD_MISSING', { cwd: '/home/me/Git/gone' }, { lang });
 *   catch (e) { if (e instanceof EngineError && e.code === 'SESSION_NOT_FOUND') suggestSwitch(); }
 */
export class EngineError extends AppError {
  declare readonly code: EngineErrorCode;
  readonly params: EngineErrorParams;
  /** Redacted last part of the child's stderr, when there was one. */
  readonly stderrTail: string;

  constructor(
    code: EngineErrorCode,
    params: EngineErrorParams = {},
    options: { lang?: Language; cause?: unknown; stderrTail?: string } = {},
  ) {
    const safe = sanitizeParams(params);
    super(code, oneLine(engineMessages(options.lang ?? 'zh')(code, safe)), {
      cause: options.cause,
      exitCode: EXIT_CODES[code],
    });
    this.params = safe;
    this.stderrTail = tailOf(options.stderrTail ?? '');
  }

  override localize(lang: Language): string {
    return oneLine(engineMessages(lang)(this.code, this.params));
  }
}

/** True for an `EngineError`, optionally of one code. */
export function isEngineError(value: unknown, code?: EngineErrorCode): value is EngineError {
  return value instanceof EngineError && (code === undefined || value.code === code);
}

/** The first 8 characters of a session id, as the chat commands show it. */
export function shortSessionId(id: string): string {
  return id.length > 8 ? id.slice(0, 8) : id;
}

/** Redacted, single-line, bounded text from a failing run, for `RUN_FAILED`'s `detail`. */
export function failureDetail(text: string): string {
  const line = oneLine(redact(text));
  return line.length > MAX_DETAIL ? `${line.slice(0, MAX_DETAIL - 1)}…` : line;
}

function sanitizeParams(params: EngineErrorParams): EngineErrorParams {
  const out: EngineErrorParams = {};
  for (const [k, v] of Object.entries(params)) out[k] = typeof v === 'string' ? redact(v) : v;
  return out;
}

function tailOf(stderr: string): string {
  const text = redact(stderr);
  return text.length > STDERR_TAIL_CHARS ? text.slice(-STDERR_TAIL_CHARS) : text;
}

function oneLine(text: string): string {
  return text.replace(/\s*[\r\n]+\s*/g, ' ').trim();
}
