import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from '../../../core/logger.js';
import { tokenTag, type LoginSessions } from './login-sessions.js';
import type { AuthVia, RequestGuard } from './request-guard.js';
import type { TokenSource } from './token-source.js';

/** Who a request comes from: how it proved it, and a key naming that client (a login, or every bearer). */
export interface ConsoleClient {
  via: AuthVia;
  /** The login's hash for a cookie; `bearer` for the token itself. Opaque; never a secret. */
  key: string;
}

/** The key of every request that carries the token itself (scripts, curl). */
const BEARER_KEY = 'bearer';

/**
 * Who may use the console, and for how long: the token (through `TokenSource`, so a rotated token
 * file counts at once), the logins it buys (`LoginSessions`), and the open answers of each client.
 * When a login ends — logout, or a new token, which ends them all — the answers still open for it
 * (event streams above all) are cut, so nothing more reaches a browser that no longer has a login.
 *
 * @example
 *   const auth = new ConsoleAuth({ token, logins, guard, logger });
 *   await auth.refresh(); const client = auth.identify(req);
 */
export class ConsoleAuth {
  private readonly open = new Map<string, Set<ServerResponse>>();

  private readonly token: TokenSource;
  private readonly logins: LoginSessions;
  private readonly guard: RequestGuard;
  private readonly maxAgeS: number;
  private readonly logger: Logger;

  constructor(o: { token: TokenSource; logins: LoginSessions; guard: RequestGuard; logger: Logger }) {
    this.token = o.token;
    this.logins = o.logins;
    this.guard = o.guard;
    this.maxAgeS = Math.floor(o.logins.maxAgeMs / 1000);
    this.logger = o.logger;
  }

  /** Notices a new token in the token file: from then on only it counts, and every login has ended. */
  async refresh(): Promise<void> {
    if (!(await this.token.refresh())) return;
    // The logins end in memory at once; only then is the (empty) store written, which may fail.
    const written = this.logins.reset(tokenTag(this.token.value));
    for (const key of [...this.open.keys()]) this.cut(key, null);
    this.logger.info('console token changed: every login has ended');
    await written;
  }

  /** Whether a candidate is the console token. */
  tokenMatches(candidate: string | undefined | null): boolean {
    return this.token.matches(candidate);
  }

  /** The client a request comes from, or null when it has neither the token nor a login in force. */
  identify(req: Pick<IncomingMessage, 'headers'>): ConsoleClient | null {
    if (this.tokenMatches(this.guard.bearerOf(req))) return { via: 'bearer', key: BEARER_KEY };
    const key = this.logins.lookup(this.guard.cookieOf(req));
    return key === null ? null : { via: 'cookie', key };
  }

  /** A new login (ending the one the request may still carry); returns its `Set-Cookie` value. */
  async login(req: Pick<IncomingMessage, 'headers'>): Promise<string> {
    const previous = this.logins.lookup(this.guard.cookieOf(req));
    if (previous !== null) await this.end(previous, null);
    const id = await this.logins.create();
    return this.guard.loginCookie(id, this.maxAgeS);
  }

  /** Ends the client's login (a bearer has none) and returns the `Set-Cookie` value that clears the cookie. */
  async logout(client: ConsoleClient, res: ServerResponse): Promise<string> {
    if (client.via === 'cookie') await this.end(client.key, res);
    return this.guard.clearedCookie();
  }

  /** Keeps `res` on its client's list until it closes, to be cut if the login ends first. */
  track(res: ServerResponse, client: ConsoleClient): void {
    let set = this.open.get(client.key);
    if (!set) this.open.set(client.key, (set = new Set()));
    set.add(res);
    res.once('close', () => {
      set.delete(res);
      if (set.size === 0 && this.open.get(client.key) === set) this.open.delete(client.key);
    });
  }

  private async end(key: string, except: ServerResponse | null): Promise<void> {
    await this.logins.end(key);
    this.cut(key, except);
  }

  private cut(key: string, except: ServerResponse | null): void {
    for (const res of this.open.get(key) ?? []) if (res !== except) res.destroy();
  }
}
