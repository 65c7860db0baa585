import http from 'node:http';
import path from 'node:path';
import type { Channel } from '../../bridge/channel.js';
import { isAppError } from '../../core/app-error.js';
import type { Config } from '../../core/config-schema.js';
import { parseLanguage, type Language } from '../../core/i18n.js';
import type { Logger } from '../../core/logger.js';
import type { Paths } from '../../core/paths.js';
import { handleApi, statusBody, type ApiContext, type ConsoleBridge } from './api-routes.js';
import { hostPort, resolveBindAddress } from './bind-address.js';
import { ConsoleChats } from './console-chats.js';
import type { ConsoleGateway } from './console-gateway.js';
import type { ConsoleSessions } from './console-sessions.js';
import { EventHub } from './event-hub.js';
import { applySecurityHeaders, HttpError, readBody, sendHtml, sendJson } from './http-io.js';
import { LOGIN_CSP, loginPage } from './login-page.js';
import { RequestGuard } from './request-guard.js';
import { loadUiAssets, type UiAsset } from './static-assets.js';
import { WebChannel } from './web-channel.js';
import { WebError } from './web-error.js';
import { webMessages } from './web-messages.js';
import { WebOutbox } from './web-outbox.js';
import { loadWebToken } from './web-token.js';

/** What `startWebConsole` needs. `bridge` absent = the chat page only (sessions answer 503). */
export interface WebConsoleOptions {
  config: Config;
  paths: Paths;
  lang: Language;
  logger: Logger;
  bridge?: ConsoleBridge;
  gateway: ConsoleGateway;
  sessions: ConsoleSessions;
  /** Overrides `web.host` (tests); a non-loopback value still needs `web.host` + `web.token` in config. */
  host?: string;
  /** Overrides `web.port`; 0 = any free port (tests). */
  port?: number;
  /** The UI folder (default: `ui/` next to this module). */
  uiDir?: string;
  /** How often the status view is refreshed over SSE while a page is open. */
  statusIntervalMs?: number;
}

/** A running console. `url` carries `?token=` once: print it, never log it elsewhere. */
export interface WebConsole {
  url: string;
  port: number;
  /** The console as a bridge channel (id `web`): `bridge.addChannel(channel)` then `channel.start(bridge)`. */
  channel: Channel;
  close(): Promise<void>;
}

const LOGIN_BODY_MAX = 4096;

/**
 * Starts the local web console (issue 7; seed 003 §4.3.2 grown into a channel): a node:http server
 * on `web.host:web.port` (127.0.0.1:9820) serving the UI, a JSON API and an SSE event stream.
 *
 * Every request passes, in order: the Host check (DNS rebinding), then the token — the HttpOnly,
 * SameSite=Strict cookie or `Authorization: Bearer` — and for POSTs the same-origin check. The
 * only thing served without the token is the login form. `GET /?token=…` sets the cookie and
 * redirects to the clean URL so the token leaves the address bar. No CORS header is ever sent.
 *
 * @example
 *   const web = await startWebConsole({ config, paths, lang, logger, bridge, gateway, sessions });
 *   bridge.addChannel(web.channel); await web.channel.start(bridge);
 *   console.log(web.url); // http://127.0.0.1:9820/?token=…
 */
export async function startWebConsole(opts: WebConsoleOptions): Promise<WebConsole> {
  const { config, lang, logger } = opts;
  const bind = resolveBindAddress(
    config,
    {
      ...(opts.host !== undefined ? { host: opts.host } : {}),
      ...(opts.port !== undefined ? { port: opts.port } : {}),
    },
    lang,
  );
  const { token } = await loadWebToken(config, opts.paths, lang);
  const assets = await loadUiAssets(opts.uiDir);
  const hub = new EventHub();
  const outbox = await WebOutbox.open(path.join(opts.paths.home, 'web', 'outbox.jsonl'), {
    lang,
    logger,
    onChange: (view) => hub.publish({ type: 'bridge.message', data: view }),
  });
  const channel = new WebChannel(outbox);
  const chats = new ConsoleChats(opts.gateway, (e) => hub.publish(e), logger);
  const ctx: ApiContext = {
    config,
    lang,
    bridge: opts.bridge ?? null,
    gateway: opts.gateway,
    sessions: opts.sessions,
    chats,
    outbox,
    hub,
    dirPolicy: {
      allowedRoots: config.security.allowed_roots,
      deniedRoots: config.security.denied_roots,
      home: opts.paths.userHome,
      lang,
    },
  };

  let guard: RequestGuard | null = null;
  const server = http.createServer((req, res) => {
    applySecurityHeaders(res);
    handle(req, res).catch((err: unknown) => fail(req, res, err));
  });

  /** The page says its language in `X-Console-Lang`; the login page follows the browser's `Accept-Language`. */
  const requestLang = (req: http.IncomingMessage): Language => {
    const h = req.headers['x-console-lang'];
    if (typeof h === 'string' && h) return parseLanguage(h);
    const accept = req.headers['accept-language']?.split(',')[0]?.trim();
    return accept && /^(zh|en)/i.test(accept) ? parseLanguage(accept) : lang;
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
      err instanceof HttpError ? err.userMessage : isAppError(err) ? err.localize(l) : webMessages(l)('internal');
    sendJson(res, status, { error: message });
  };

  const unauthorized = (req: http.IncomingMessage, res: http.ServerResponse, wrong: boolean, form = false): void => {
    const wantsPage = form || (req.method === 'GET' && (req.headers.accept ?? '').includes('text/html'));
    if (wantsPage)
      return sendHtml(res, 401, loginPage(requestLang(req), wrong), { 'Content-Security-Policy': LOGIN_CSP });
    sendJson(res, 401, { error: webMessages(requestLang(req))('unauthorized') });
  };

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const g = guard as RequestGuard;
    const l = requestLang(req);
    const t = webMessages(l);
    if (!g.hostAllowed(req)) return sendJson(res, 421, { error: t('badHost') });
    const url = new URL(req.url ?? '/', 'http://console.invalid');
    const method = req.method ?? 'GET';
    const stateChanging = method !== 'GET' && method !== 'HEAD';

    // Login: the start URL's ?token=…, or the login form.
    if (method === 'GET' && url.searchParams.has('token')) {
      if (!g.tokenMatches(url.searchParams.get('token'))) return unauthorized(req, res, true);
      url.searchParams.delete('token');
      res.writeHead(303, {
        'Set-Cookie': g.loginCookie(),
        Location: `${url.pathname}${url.search}`,
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
      if (!g.tokenMatches(form.token)) return unauthorized(req, res, true, true);
      res.writeHead(303, { 'Set-Cookie': g.loginCookie(), Location: '/', 'Cache-Control': 'no-store' });
      return void res.end();
    }

    const via = g.authenticate(req);
    if (!via) return unauthorized(req, res, false);
    if (stateChanging && !g.sameOrigin(req, via)) return sendJson(res, 403, { error: t('forbiddenOrigin') });

    if (url.pathname.startsWith('/api/')) {
      if (await handleApi(ctx, req, res, url, l)) return;
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

  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(bind.port, bind.host, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (err) {
    hub.close();
    await outbox.close();
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') throw new WebError('WEB_PORT_IN_USE', { port: bind.port }, lang, { cause: err });
    throw new WebError('WEB_LISTEN_FAILED', { host: bind.host, port: bind.port, reason: code ?? String(err) }, lang, {
      cause: err,
    });
  }
  const port = (server.address() as { port: number }).port;
  guard = new RequestGuard(token, bind, port);

  // The status view refreshes itself while a page is open.
  let lastStatus = '';
  const statusTimer = setInterval(() => {
    if (hub.size === 0) return;
    statusBody(ctx).then(
      (s) => {
        const json = JSON.stringify(s);
        if (json !== lastStatus) hub.publish({ type: 'status', data: s });
        lastStatus = json;
      },
      (err: unknown) => logger.warn('status refresh failed', { err }),
    );
  }, opts.statusIntervalMs ?? 3000);
  statusTimer.unref();

  const displayHost = bind.host === '0.0.0.0' ? '127.0.0.1' : bind.host === '::' ? '::1' : bind.host;
  logger.info('web console listening', { address: hostPort(bind.host, port) });
  return {
    url: `http://${hostPort(displayHost, port)}/?token=${encodeURIComponent(token)}`,
    port,
    channel,
    async close() {
      clearInterval(statusTimer);
      await channel.stop();
      hub.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await outbox.close();
    },
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
  });
  res.end(req.method === 'HEAD' ? undefined : body);
}
