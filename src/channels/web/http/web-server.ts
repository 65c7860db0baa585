import http from 'node:http';
import { isAppError } from '../../../core/app-error.js';
import { parseLanguage, type Language } from '../../../core/i18n.js';
import type { Logger } from '../../../core/logger.js';
import { hostPort, type BindAddress } from './bind-address.js';
import { applySecurityHeaders, HttpError, readBody, sendHtml, sendJson } from './http-io.js';
import { httpMessages } from './http-messages.js';
import { ConsoleAuth } from './console-auth.js';
import { LOGIN_CSP, loginPage, type LoginHint } from './login-page.js';
import { loginRedirect } from './login-redirect.js';
import { LoginSessions, tokenTag, type LoginLimits } from './login-sessions.js';
import { RequestGuard } from './request-guard.js';
import { applyServerLimits, DEFAULT_SERVER_LIMITS, serverOptions, type ServerLimits } from './server-limits.js';
import type { UiAsset } from './static-assets.js';
import type { TokenSource } from './token-source.js';
import { WebError } from './web-error.js';

/**
 * Answers one authorised `/api/…` request (a state-changing one has passed the same-origin check
 * too); `lang` is the page's language, for error text; `client` names who asks (a login, or
 * `bearer`), for per-client limits. Returns false when no route matches.
 */
export type ApiHandler = (
  req: http.IncomingMessage,
  res: http.ServerResponse,
  url: URL,
  lang: Language,
  client: string,
) => Promise<boolean>;

/** What `startWebServer` needs: where to listen, the token, the UI files and the API behind them. */
export interface WebServerOptions {
  bind: BindAddress;
  token: TokenSource;
  /** Where logins are kept across restarts (0600); null keeps them in memory only. */
  loginStore: string | null;
  loginLimits?: LoginLimits;
  limits?: ServerLimits;
  assets: Map<string, UiAsset>;
  /** The language of errors when a request says none. */
  lang: Language;
  logger: Logger;
  api: ApiHandler;
  /** Where the token is kept, for the login page. */
  loginHint?: LoginHint;
}

/** A listening server. */
export interface WebServer {
  /** The port actually bound (differs from `bind.port` when that is 0). */
  port: number;
  /** Stops listening and drops every open connection (event streams included). */
  close(): Promise<void>;
}

const LOGIN_BODY_MAX = 4096;

/**
 * The console's node:http server: it serves the UI files, hands `/api/…` to `api`, and lets
 * nothing through unchecked. Every request passes, in order: the Host check (DNS rebinding), then
 * the token — a login's HttpOnly, SameSite=Strict cookie, or `Authorization: Bearer` — and for a
 * state-changing method the same-origin check. The only thing served without the token is the
 * login form. `GET <path>?token=…` (or the form) starts a login (`ConsoleAuth`): the cookie gets
 * a random id, and the browser is sent back to the same path — only ever a path of this console —
 * without the token, so it leaves the address bar. `POST /api/logout` ends the login. The server
 * holds timeouts and caps (`ServerLimits`). No CORS header is ever sent. A failure to listen
 * throws `WebError` (`WEB_PORT_IN_USE`, `WEB_LISTEN_FAILED`).
 *
 * @example
 *   const server = await startWebServer({ bind, token, loginStore, assets, lang, logger, api });
 *   await server.close();
 */
export async function startWebServer(opts: WebServerOptions): Promise<WebServer> {
  const { bind, assets, lang, logger } = opts;
  const limits = opts.limits ?? DEFAULT_SERVER_LIMITS;
  let guard: RequestGuard | null = null;
  let auth: ConsoleAuth | null = null;
  const server = http.createServer(serverOptions(limits), (req, res) => {
    applySecurityHeaders(res);
    handle(req, res).catch((err: unknown) => fail(req, res, err));
  });
  applyServerLimits(server, limits, logger);

  /**
   * The page says its language in `X-Console-Lang`; a request without it (the login page, a
   * script) takes the browser's saved choice (cookie `ccl-lang`, set by the page's toggle), else
   * `general.language` — never the browser's locale (docs/design.md#language).
   */
  const requestLang = (req: http.IncomingMessage): Language => {
    const h = req.headers['x-console-lang'];
    if (typeof h === 'string' && h) return parseLanguage(h);
    const saved = /(?:^|;\s*)ccl-lang=(zh|en)(?:;|$)/.exec(req.headers.cookie ?? '')?.[1];
    return saved ? parseLanguage(saved) : lang;
  };

  const fail = (req: http.IncomingMessage, res: http.ServerResponse, err: unknown): void => {
    const l = requestLang(req);
    const status = err instanceof HttpError ? err.status : isAppError(err) ? 400 : 500;
    if (status >= 500)
      logger.error('web console request failed', { err, method: req.method, path: req.url?.split('?')[0] });
    if (res.headersSent) return void res.end();
    if (status === 413) {
      res.setHeader('Connection', 'close');
      res.on('finish', () => req.destroy());
    }
    const message =
      err instanceof HttpError ? err.userMessage : isAppError(err) ? err.localize(l) : httpMessages(l)('internal');
    sendJson(res, status, { error: message });
  };

  const unauthorized = (req: http.IncomingMessage, res: http.ServerResponse, wrong: boolean, form = false): void => {
    const wantsPage = form || (req.method === 'GET' && (req.headers.accept ?? '').includes('text/html'));
    if (wantsPage)
      return sendHtml(res, 401, loginPage(requestLang(req), wrong, opts.loginHint), {
        'Content-Security-Policy': LOGIN_CSP,
      });
    sendJson(res, 401, { error: httpMessages(requestLang(req))('unauthorized') });
  };

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const g = guard as RequestGuard;
    const a = auth as ConsoleAuth;
    const l = requestLang(req);
    const t = httpMessages(l);
    if (!g.hostAllowed(req)) return sendJson(res, 421, { error: t('badHost') });
    await a.refresh();
    const url = new URL(req.url ?? '/', 'http://console.invalid');
    const method = req.method ?? 'GET';
    const stateChanging = method !== 'GET' && method !== 'HEAD';

    // Login: the start URL's ?token=…, or the login form.
    if (method === 'GET' && url.searchParams.has('token')) {
      if (!a.tokenMatches(url.searchParams.get('token'))) return unauthorized(req, res, true);
      const cookie = await a.login(req);
      res.writeHead(303, {
        'Set-Cookie': cookie,
        Location: loginRedirect(req.url ?? '/'),
        'Cache-Control': 'no-store',
      });
      return void res.end();
    }
    if (method === 'POST' && url.pathname === '/login') {
      if (!g.sameOrigin(req, null)) return sendJson(res, 403, { error: t('forbiddenOrigin') });
      const form = (await readBody(req, 'form', LOGIN_BODY_MAX, {
        tooLarge: t('bodyTooLarge', { max: LOGIN_BODY_MAX }),
        badType: t('needJson'),
        badJson: t('badJson'),
      })) as Record<string, string>;
      if (!a.tokenMatches(form.token)) return unauthorized(req, res, true, true);
      res.writeHead(303, { 'Set-Cookie': await a.login(req), Location: '/', 'Cache-Control': 'no-store' });
      return void res.end();
    }

    const client = a.identify(req);
    if (!client) return unauthorized(req, res, false);
    if (stateChanging && !g.sameOrigin(req, client.via)) return sendJson(res, 403, { error: t('forbiddenOrigin') });

    if (url.pathname === '/api/logout') {
      if (method !== 'POST') throw new HttpError(405, t('methodNotAllowed'));
      res.writeHead(204, { 'Set-Cookie': await a.logout(client, res), 'Cache-Control': 'no-store' });
      return void res.end();
    }
    a.track(res, client);
    if (url.pathname.startsWith('/api/')) {
      if (await opts.api(req, res, url, l, client.key)) return;
      throw new HttpError(404, t('notFound'));
    }
    if (method !== 'GET' && method !== 'HEAD') throw new HttpError(405, t('methodNotAllowed'));
    const name =
      url.pathname === '/' || url.pathname === '/index.html'
        ? 'index.html'
        : url.pathname.startsWith('/assets/')
          ? url.pathname.slice('/assets/'.length)
          : null;
    const asset = name ? assets.get(name) : undefined;
    if (!asset) throw new HttpError(404, t('notFound'));
    serveAsset(req, res, asset);
  }

  const logins = await LoginSessions.open(opts.loginStore, tokenTag(opts.token.value), {
    logger,
    ...(opts.loginLimits ? { limits: opts.loginLimits } : {}),
  });
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(bind.port, bind.host, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') throw new WebError('WEB_PORT_IN_USE', { port: bind.port }, lang, { cause: err });
    throw new WebError('WEB_LISTEN_FAILED', { host: bind.host, port: bind.port, reason: code ?? String(err) }, lang, {
      cause: err,
    });
  }
  const port = (server.address() as { port: number }).port;
  guard = new RequestGuard(bind, port);
  auth = new ConsoleAuth({ token: opts.token, logins, guard, logger });
  logger.info('web console listening', { address: hostPort(bind.host, port) });
  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function serveAsset(req: http.IncomingMessage, res: http.ServerResponse, asset: UiAsset): void {
  if (req.headers['if-none-match'] === asset.etag) {
    res.writeHead(304, { ETag: asset.etag, 'Cache-Control': 'no-cache' });
    return void res.end();
  }
  const gzip = /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''));
  const body = gzip ? asset.gzip : asset.body;
  res.writeHead(200, {
    'Content-Type': asset.type,
    'Content-Length': body.length,
    ETag: asset.etag,
    'Cache-Control': 'no-cache',
    Vary: 'Accept-Encoding',
    ...(gzip ? { 'Content-Encoding': 'gzip' } : {}),
    ...asset.headers,
  });
  res.end(req.method === 'HEAD' ? undefined : body);
}
