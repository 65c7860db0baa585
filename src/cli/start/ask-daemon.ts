import net from 'node:net';
import { AppError } from '../../core/app-error.js';
import type { Language } from '../../core/i18n.js';
import type { Paths } from '../../core/paths.js';
import { assertNoLiveOwner } from '../../store/owner-lock.js';
import { StoreError } from '../../store/store-error.js';
import { controlSocketPath, type ControlAnswer, type ControlRequest } from './control-protocol.js';
import { startMessages } from './start-messages.js';

/** How long the daemon has to take a request (connect + `accepted`). */
export const ACCEPT_TIMEOUT_MS = 5000;
/** How long the accepted work may take. */
const WORK_TIMEOUT_MS = 10 * 60_000;

type DaemonErrorCode = 'DAEMON_NO_ANSWER' | 'DAEMON_LOST';

/** The running daemon did not take a request, or dropped it; says what to do. Exit 75 (try again later). */
export class DaemonError extends AppError {
  constructor(
    code: DaemonErrorCode,
    readonly params: Record<string, string | number>,
    options: { cause?: unknown } = {},
  ) {
    super(code, startMessages('zh')(code, params), { cause: options.cause, exitCode: 75 });
  }

  override localize(lang: Language): string {
    return startMessages(lang)(this.code as DaemonErrorCode, this.params);
  }
}

/** An error the daemon's work stopped with, as the daemon rendered it in both languages. */
export class DaemonWorkError extends AppError {
  constructor(private readonly e: Extract<ControlAnswer, { ok: false }>['error']) {
    super(e.code, e.zh, { exitCode: e.exitCode });
  }

  override localize(lang: Language): string {
    return lang === 'en' ? this.e.en : this.e.zh;
  }
}

/**
 * Runs a write command's work here, or — while `cc-linker start` runs on this host and owns the
 * state — asks the daemon to run it (`askDaemon`) and returns the daemon's result: `local` is
 * called only when no daemon runs. An owner on another host (a shared home) is refused as before.
 */
export async function runHereOrInDaemon<T>(
  paths: Pick<Paths, 'ownerLockFile' | 'runtimeDir'>,
  action: string,
  request: ControlRequest,
  local: () => Promise<T>,
): Promise<T> {
  try {
    await assertNoLiveOwner(paths.ownerLockFile, action);
  } catch (err) {
    if (!(err instanceof StoreError) || err.code !== 'STORE_OWNER_LOCKED' || err.params.host !== undefined) throw err;
    return (await askDaemon(paths, request, { action, pid: err.params.pid ?? '?' })) as T;
  }
  return local();
}

/**
 * Sends one request to the daemon's socket (`control-protocol.ts`; `opts.socket` when the caller
 * was told where it is, as `cc-linker mcp` is) and returns its result. No
 * socket, a refused connection or no `accepted` within `acceptMs` → `DAEMON_NO_ANSWER`; a
 * connection closed before the answer → `DAEMON_LOST`; the work's own error → `DaemonWorkError`.
 */
export function askDaemon(
  paths: Pick<Paths, 'runtimeDir'>,
  request: ControlRequest,
  about: { action: string; pid: number | string },
  opts: { acceptMs?: number; socket?: string } = {},
): Promise<unknown> {
  const socket = opts.socket ?? controlSocketPath(paths);
  const acceptMs = opts.acceptMs ?? ACCEPT_TIMEOUT_MS;
  return new Promise((resolve, reject) => {
    let accepted = false;
    let buffer = '';
    let settled = false;
    const conn = net.createConnection(socket);
    const finish = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      conn.destroy();
      fn();
    };
    const noAnswer = (cause?: unknown) =>
      finish(() =>
        reject(new DaemonError('DAEMON_NO_ANSWER', { ...about, socket, s: Math.round(acceptMs / 1000) }, { cause })),
      );
    let timer = setTimeout(() => noAnswer(), acceptMs);
    conn.setEncoding('utf8');
    conn.on('connect', () => conn.write(`${JSON.stringify(request)}\n`));
    conn.on('data', (chunk: string) => {
      buffer += chunk;
      let nl: number;
      while ((nl = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 1);
        let msg: unknown;
        try {
          msg = JSON.parse(line);
        } catch (cause) {
          return finish(() => reject(new DaemonError('DAEMON_LOST', { ...about, reason: 'bad answer' }, { cause })));
        }
        if (!accepted && (msg as { accepted?: unknown }).accepted === true) {
          accepted = true;
          clearTimeout(timer);
          timer = setTimeout(() => finish(() => reject(lost('timeout'))), WORK_TIMEOUT_MS);
          continue;
        }
        const answer = msg as ControlAnswer;
        return finish(() => (answer.ok ? resolve(answer.result) : reject(new DaemonWorkError(answer.error))));
      }
    });
    const lost = (reason: string, cause?: unknown) => new DaemonError('DAEMON_LOST', { ...about, reason }, { cause });
    conn.on('error', (err: NodeJS.ErrnoException) => {
      if (!accepted) return noAnswer(err);
      finish(() => reject(lost(err.code ?? err.message, err)));
    });
    conn.on('close', () => {
      if (!accepted) return noAnswer();
      finish(() => reject(lost('closed')));
    });
  });
}
