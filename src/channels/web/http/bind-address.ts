import net from 'node:net';
import type { Config } from '../../../core/config-schema.js';
import type { Language } from '../../../core/i18n.js';
import { isLoopbackHost } from '../../../core/loopback-host.js';
import { WebError } from './web-error.js';

/** Where the console listens, and the names a browser may use for it in `Host` / `Origin`. */
export interface BindAddress {
  host: string;
  port: number;
  loopback: boolean;
}

/** `core/loopback-host.ts`, shared with the Telegram webhook's warning. */
export { isLoopbackHost };

/**
 * Decides the bind address: `opts.host` / `opts.port` (tests) over `web.host` / `web.port`. A
 * non-loopback host (a LAN address, `0.0.0.0`) is allowed only when the config sets it explicitly
 * AND sets `web.token` — a generated token printed on one terminal is not enough protection for a
 * port the whole network can reach. Anything else throws `WEB_BIND_REFUSED` with a clear message.
 */
export function resolveBindAddress(
  config: Config,
  opts: { host?: string; port?: number },
  lang: Language,
): BindAddress {
  const host = (opts.host ?? config.web.host).trim() || '127.0.0.1';
  const port = opts.port ?? config.web.port;
  const loopback = isLoopbackHost(host);
  if (!loopback) {
    const explicit = config.web.host.trim() === host;
    if (!explicit || config.web.token.trim().length === 0) throw new WebError('WEB_BIND_REFUSED', { host }, lang);
  }
  return { host, port, loopback };
}

/** `host:port` as it appears in a URL (`[::1]:9820`). */
export function hostPort(host: string, port: number): string {
  return `${net.isIPv6(host) ? `[${host}]` : host}:${port}`;
}

/**
 * The console's start URL, `http://127.0.0.1:9820/?token=…`: what `start` and `web rotate-token`
 * print once. A wildcard bind is shown as the loopback address of its family.
 */
export function consoleUrl(bindHost: string, port: number, token: string): string {
  const host = bindHost === '0.0.0.0' ? '127.0.0.1' : bindHost === '::' ? '::1' : bindHost;
  return `http://${hostPort(host, port)}/?token=${encodeURIComponent(token)}`;
}
