import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { isAppError } from '../../core/app-error.js';
import type { Logger } from '../../core/logger.js';
import { makePrivateDir } from '../../core/private-dir.js';
import { isControlRequest, MAX_REQUEST_BYTES, type ControlAnswer, type ControlRequest } from './control-protocol.js';

/** Runs one request's work (the daemon's own sync, clean or repair). */
export type ControlHandler = (request: ControlRequest) => Promise<unknown>;

export interface ControlServer {
  readonly socket: string;
  close(): Promise<void>;
}

/** How long a client has to send its request line. */
const REQUEST_TIMEOUT_MS = 5000;

/**
 * The daemon's end of the local request socket (`control-protocol.ts`). Only the owner can reach
 * it: it lives in the 0700 runtime folder and is itself 0600 (Unix permissions are the
 * authentication: no token to leak). Any socket file left there by a crashed daemon is replaced —
 * the caller holds the owner lock, so no other daemon uses it. A bad request is answered with an
 * error and closed; a failing handler answers its error; nothing a client does reaches the process.
 */
export async function startControlServer(
  socket: string,
  handle: ControlHandler,
  logger: Logger,
): Promise<ControlServer> {
  await makePrivateDir(path.dirname(socket));
  await fs.promises.rm(socket, { force: true });
  const server = net.createServer((conn) => serve(conn, handle, logger));
  server.maxConnections = 16;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socket, () => {
      server.off('error', reject);
      resolve();
    });
  });
  await fs.promises.chmod(socket, 0o600);
  server.on('error', (err) => logger.warn('control socket error', { err }));
  return {
    socket,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        // A socket file is not removed by close() when the process is killed; here it is ours to remove.
        fs.promises.rm(socket, { force: true }).catch(() => undefined);
      }),
  };
}

function serve(conn: net.Socket, handle: ControlHandler, logger: Logger): void {
  let buffer = '';
  let started = false;
  const send = (msg: unknown) => {
    if (!conn.destroyed) conn.write(`${JSON.stringify(msg)}\n`);
  };
  const refuse = (reason: string) => {
    send({ ok: false, error: { code: 'CONTROL_BAD_REQUEST', exitCode: 64, zh: reason, en: reason } });
    conn.end();
  };
  conn.setEncoding('utf8');
  conn.setTimeout(REQUEST_TIMEOUT_MS, () => {
    if (!started) conn.destroy();
  });
  conn.on('error', (err) => logger.debug('control connection error', { err }));
  conn.on('data', (chunk: string) => {
    if (started) return;
    buffer += chunk;
    const nl = buffer.indexOf('\n');
    if (nl < 0) {
      if (buffer.length > MAX_REQUEST_BYTES) refuse('request too long');
      return;
    }
    started = true;
    conn.setTimeout(0);
    let request: unknown;
    try {
      request = JSON.parse(buffer.slice(0, nl));
    } catch {
      return refuse('bad request');
    }
    if (!isControlRequest(request)) return refuse('bad request');
    send({ accepted: true });
    logger.info('control request', { op: request.op });
    handle(request).then(
      (result) => {
        send({ ok: true, result } satisfies ControlAnswer);
        conn.end();
      },
      (err: unknown) => {
        if (!isAppError(err)) logger.warn('control request failed', { op: request.op, err });
        send(answerOf(err));
        conn.end();
      },
    );
  });
}

/** The error as the CLI shows it, in both languages; an unexpected one keeps only its message. */
function answerOf(err: unknown): ControlAnswer {
  if (isAppError(err))
    return {
      ok: false,
      error: { code: err.code, exitCode: err.exitCode, zh: err.localize('zh'), en: err.localize('en') },
    };
  const message = `internal error: ${err instanceof Error ? err.message : String(err)}`;
  return { ok: false, error: { code: 'INTERNAL', exitCode: 70, zh: message, en: message } };
}
