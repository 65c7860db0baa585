import type { IncomingMessage } from 'node:http';
import { hostPort, type BindAddress } from './bind-address.js';

/** How a request proved it may use the console: a login's cookie, or the token itself. */
export type AuthVia = 'cookie' | 'bearer';

/**
 * The checks every request passes before it gets anything (`startWebServer` applies them in order:
 * Host, then auth, then — for state-changing methods — same origin), and the login cookie's
 * shape. Kept free of HTTP plumbing so each rule is unit-tested on plain header objects; what
 * counts as a valid token or login is `ConsoleAuth`'s business.
 */
export class RequestGuard {
  /** Cookie name; includes the port because browsers share cookies between ports of one host. */
  readonly cookieName: string;
  private readonly hosts: Set<string> | null;

  constructor(bind: BindAddress, actualPort: number) {
    this.cookieName = `ccl_console_${actualPort}`;
    const wildcard = bind.host === '0.0.0.0' || bind.host === '::';
    const names = bind.loopback ? ['127.0.0.1', 'localhost', '::1', bind.host] : [bind.host];
    // A wildcard bind is reachable under any of the machine's names; the token still guards it.
    this.hosts = wildcard ? null : new Set(names.map((h) => hostPort(h, actualPort).toLowerCase()));
  }

  /**
   * DNS-rebinding defence: the `Host` header must name this console (`127.0.0.1:9820`,
   * `localhost:9820`, `[::1]:9820`, or the configured host). A page on `evil.example` that
   * re-resolves to 127.0.0.1 sends `Host: evil.example` and is refused before anything else.
   */
  hostAllowed(req: Pick<IncomingMessage, 'headers'>): boolean {
    const host = req.headers.host?.toLowerCase();
    if (!host) return false;
    return this.hosts === null || this.hosts.has(host);
  }

  /** The token of an `Authorization: Bearer …` header, if any (whether it is right is not judged here). */
  bearerOf(req: Pick<IncomingMessage, 'headers'>): string | null {
    const auth = req.headers.authorization;
    const m = typeof auth === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(auth) : null;
    return m ? (m[1] as string) : null;
  }

  /** The value of this console's login cookie, if the request has one. */
  cookieOf(req: Pick<IncomingMessage, 'headers'>): string | undefined {
    return parseCookies(req.headers.cookie)[this.cookieName];
  }

  /**
   * Same-origin rule for state-changing requests:
   * - `Sec-Fetch-Site`, when present (every current browser; pages cannot forge it), must be
   *   `same-origin`;
   * - a real `Origin` must be `http://<Host>`; `Origin: null` (what a browser sends for a form
   *   POST under `Referrer-Policy: no-referrer`) counts only together with `Sec-Fetch-Site:
   *   same-origin`;
   * - with neither header (curl, scripts) only `Authorization: Bearer` is accepted — a browser
   *   always sends one of them on a POST, so a cookie-carrying request without them is refused.
   */
  sameOrigin(req: Pick<IncomingMessage, 'headers'>, via: AuthVia | null): boolean {
    const origin = req.headers.origin;
    const site = req.headers['sec-fetch-site'];
    if (typeof site === 'string' && site !== 'same-origin') return false;
    if (typeof origin === 'string' && origin !== 'null')
      return origin.toLowerCase() === `http://${req.headers.host ?? ''}`.toLowerCase();
    if (typeof site === 'string') return true;
    return via === 'bearer' && origin === undefined;
  }

  /**
   * The `Set-Cookie` value that logs a browser in: HttpOnly (no script reads it), SameSite=Strict
   * (no other site's page sends it), the whole site, for `maxAgeS` seconds. It holds the login's
   * random id — never the token, which appears nowhere but the start URL.
   */
  loginCookie(id: string, maxAgeS: number): string {
    return `${this.cookieName}=${id}; HttpOnly; SameSite=Strict; Path=/; Max-Age=${maxAgeS}`;
  }

  /** The `Set-Cookie` value that makes the browser forget the login cookie (logout). */
  clearedCookie(): string {
    return `${this.cookieName}=; HttpOnly; SameSite=Strict; Path=/; Max-Age=0`;
  }
}

/** Parses a `Cookie` header into name → value (first occurrence wins). */
export function parseCookies(header: string | undefined): Record<string, string> {
  const out: Record<string, string> = Object.create(null) as Record<string, string>;
  if (!header) return out;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq <= 0) continue;
    const name = part.slice(0, eq).trim();
    if (!(name in out)) out[name] = part.slice(eq + 1).trim();
  }
  return out;
}
