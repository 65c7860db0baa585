import { AppError } from '../../../core/app-error.js';
import type { Language } from '../../../core/i18n.js';
import { httpMessages, type HttpMessageKey } from './http-messages.js';

/** What can go wrong in the console in a way the user (or the lead's start-up code) should hear about. */
export type WebErrorCode =
  | 'WEB_BIND_REFUSED'
  | 'WEB_PORT_IN_USE'
  | 'WEB_LISTEN_FAILED'
  | 'WEB_TOKEN_UNREADABLE'
  | 'WEB_TOKEN_IN_CONFIG'
  | 'WEB_UNKNOWN_MESSAGE';

const KEYS: Record<Exclude<WebErrorCode, 'WEB_UNKNOWN_MESSAGE'>, HttpMessageKey> = {
  WEB_BIND_REFUSED: 'bindRefused',
  WEB_PORT_IN_USE: 'portInUse',
  WEB_LISTEN_FAILED: 'listenFailed',
  WEB_TOKEN_UNREADABLE: 'tokenUnreadable',
  WEB_TOKEN_IN_CONFIG: 'tokenInConfig',
};

/**
 * The web console's error (one subclass of `AppError` per layer). Messages are built from the
 * kept `params` (host, port, file, errno) — never from the token — so `localize` can re-render them.
 *
 * @example
 *   throw new WebError('WEB_BIND_REFUSED', { host: '0.0.0.0' }, 'en');
 */
export class WebError extends AppError {
  declare readonly code: WebErrorCode;
  readonly params: Record<string, string | number>;

  constructor(
    code: WebErrorCode,
    params: Record<string, string | number>,
    lang: Language = 'zh',
    options: { cause?: unknown } = {},
  ) {
    super(code, render(code, params, lang), { cause: options.cause, exitCode: code === 'WEB_PORT_IN_USE' ? 75 : 78 });
    this.params = params;
  }

  override localize(lang: Language): string {
    return render(this.code, this.params, lang);
  }
}

function render(code: WebErrorCode, params: Record<string, string | number>, lang: Language): string {
  if (code === 'WEB_UNKNOWN_MESSAGE') return `unknown web message ${String(params.messageId ?? '')}`;
  return httpMessages(lang)(KEYS[code], params);
}
