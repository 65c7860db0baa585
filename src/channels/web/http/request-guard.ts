import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { hostPort, type BindAddress } from './bind-address.js';

/** How a request proved it knows the token. */
export type AuthVia = 'cookie' | 'bearer';

/**
 * The checks every request passes before it gets anything (`startWebServer` applies them in order:
 * Host, then auth, then — for state-changing methods — same origin). Kept free of HTTP plumbing
 * so each rule is unit-tested on plain header objects.
 */
export class RequestGuard {
  /** Cookie name; includes the port because browsers share cookies between ports of one host. */
  readonly cookieName: string;
  private readonly tokenDigest: Buffer;
  private readonly cookieDigest: Buffer;
  /** What the login cookie holds: derived from the token (cookie-safe characters whatever the token is). */
  private readonly cookieValue: string;
  private readonly hosts: Set<string> | null;

  constructor(token: string, bind: BindAddress, actualPort: number) {
    this.cookieName = `ccl_console_${actualPort}`;
    this.tokenDigest = digest(token);
    this.cookieValue = createHmac('sha256', token).update('cc-linker web console cookie v1').digest('base64url');
    this.cookieDigest = digest(this.cookieValue);
    const wildcard = bind.host === '0.0.0.0' || bind.host === '::';
    const names = bind.loopback ? ['127.0.0.1', 'localhost', '::1', bind.host] : [bind.host];
    // A wildcard bind is reachable under any of the machine's names; the token still guards it.
    this.hosts = wildcard ? null : new Set(names.map((h) => hostPort(h, actualPort).toLowerCase()));
  }

  /** Whether a candidate token is the console token (constant time). */
  tokenMatches(candidate: string | undefined | null): boolean {
    if (typeof candidate !== 'string' || candidate.length === 0 || candidate.length > 512) return false;
    return timingSafeEqual(digest(candidate), this.tokenDigest);
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

  /** `cookie` / `bearer` when the request carries the token, else null. */
  authenticate(req: Pick<IncomingMessage, 'headers'>): AuthVia | null {
    const auth = req.headers.authorization;
    if (typeof auth === 'string') {
      const m = /^Bearer\s+(\S+)\s*$/i.exec(auth);
      if (m && this.tokenMatches(m[1])) return 'bearer';
    }
    const cookie = parseCookies(req.headers.cookie)[this.cookieName];
    if (typeof cookie !== 'string' || cookie.length === 0 || cookie.length > 512) return null;
    return timingSafeEqual(digest(cookie), this.cookieDigest) ? 'cookie' : null;
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
   * The `Set-Cookie` value that logs a browser in: HttpOnly, SameSite=Strict, whole site, 30 days.
   * It holds an HMAC of the token, not the token, so it is cookie-safe and the token itself appears
   * nowhere but the start URL.
   */
  loginCookie(): string {
    return `${this.cookieName}=${this.cookieValue}; HttpOnly; SameSite=Strict; Path=/; Max-Age=${30 * 24 * 3600}`;
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

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}
