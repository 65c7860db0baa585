import type http from 'node:http';
import type { Logger } from '../../../core/logger.js';

/**
 * How much of the machine one client may hold. The console is one user's, on 127.0.0.1: a browser
 * opens at most a handful of connections per host, so the caps are far above any real use and far
 * below what would hurt the daemon.
 */
export interface ServerLimits {
  /** From a connection's first byte (or its opening) to the end of the request headers. */
  headersTimeoutMs: number;
  /** From a request's first byte to the end of its body (not the answer: event streams stay open). */
  requestTimeoutMs: number;
  /** How long an idle keep-alive connection waits for the next request. */
  keepAliveTimeoutMs: number;
  /** Open connections at once; one past this is closed at once, before a byte is read or written. */
  maxConnections: number;
  /** Open event streams (`/api/events`) per client (a login, or every bearer-token script together). */
  maxStreamsPerClient: number;
}

export const DEFAULT_SERVER_LIMITS: ServerLimits = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5_000,
  maxConnections: 64,
  maxStreamsPerClient: 8,
};

/** A refused connection is logged at most this often. */
const DROP_LOG_MS = 60_000;

/**
 * The options `http.createServer` needs for `limits` (Node checks the header and request
 * timeouts on a timer: it runs at least four times per header timeout, and at least every second).
 */
export function serverOptions(limits: ServerLimits): http.ServerOptions {
  return {
    headersTimeout: limits.headersTimeoutMs,
    requestTimeout: Math.max(limits.requestTimeoutMs, limits.headersTimeoutMs),
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    connectionsCheckingInterval: Math.max(10, Math.min(1000, Math.floor(limits.headersTimeoutMs / 4))),
  };
}

/**
 * Sets the limits a created server takes as properties: the connection cap, and the timeouts
 * again (explicitly, whatever Node's defaults become). A connection past the cap is closed
 * without an answer; the first of each minute is logged.
 */
export function applyServerLimits(server: http.Server, limits: ServerLimits, logger: Logger): void {
  const options = serverOptions(limits);
  server.headersTimeout = options.headersTimeout as number;
  server.requestTimeout = options.requestTimeout as number;
  server.keepAliveTimeout = limits.keepAliveTimeoutMs;
  server.maxConnections = limits.maxConnections;
  let lastLog = 0;
  server.on('drop', () => {
    const now = Date.now();
    if (now - lastLog < DROP_LOG_MS) return;
    lastLog = now;
    logger.warn('web console refused a connection: too many open', { max: limits.maxConnections });
  });
}
