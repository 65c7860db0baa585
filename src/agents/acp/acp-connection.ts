import { Writable } from 'node:stream';
import * as acp from '@agentclientprotocol/sdk';
import type { ChildTracker } from '../../process/child-tracker.js';
import { startProcess, type RunResult } from '../../process/run-process.js';
import { TextTail } from '../../engine/text-tail.js';

/** How much of the agent's stderr is kept for a failure message (the rest is dropped as it comes). */
const STDERR_TAIL_CHARS = 4000;

/** What the client answers to the agent's requests and notifications during one connection. */
export interface AcpClientHandlers {
  /** Every `session/update`, raw (validated by the caller: a malformed one must not end the turn). */
  onUpdate(params: unknown): void;
  /** `session/request_permission`, raw; resolves to the `RequestPermissionResponse`. */
  onPermission(params: unknown, signal: AbortSignal): Promise<acp.RequestPermissionResponse>;
  /** Any other agent request is answered "method not found"; this only reports it. */
  onUnknownRequest?(method: string): void;
}

/** How to start one agent. */
export interface AcpSpawnOptions {
  /** argv; never a shell. */
  command: readonly string[];
  /** The agent's whole environment, already built by the caller. */
  env: NodeJS.ProcessEnv;
  cwd: string;
  tracker?: ChildTracker;
  /** SIGTERM → SIGKILL grace when the agent is stopped. */
  killGraceMs?: number;
  /** Every byte the agent writes (stdout or stderr): a sign of life for the idle watchdog. */
  onActivity?(): void;
}

/** A started agent with an open ACP connection (not yet initialized). */
export interface AcpConnection {
  /** The agent's pid (= its process group); undefined when it could not be started. */
  readonly pid: number | undefined;
  /** Calls into the agent: `agent.request(acp.methods.agent.session.new, …)`. */
  readonly agent: acp.ClientContext;
  /** Resolves when the agent's whole process group is gone (never rejects). */
  readonly exited: Promise<RunResult>;
  /** True once the process has ended (or never started). */
  readonly hasExited: boolean;
  /** The last part of the agent's stderr (not redacted). */
  stderrTail(): TextTail;
  /** Ends the agent's whole process group and waits until it is gone. */
  close(): Promise<RunResult>;
  /**
   * Ends an agent whose turn is over the polite way: leaves it `settleMs` to save the turn (agents
   * write their session file after answering), then closes its stdin (an ACP agent exits at the
   * end of its input), waits up to `graceMs` for the group to go, then `close()`s whatever is left.
   */
  finish(settleMs: number, graceMs: number): Promise<RunResult>;
}

/**
 * Starts an ACP agent through the runner (own process group, recorded by the child tracker, killed
 * as a group) and opens an ACP client connection over its stdin/stdout (newline-delimited JSON-RPC).
 *
 * Incoming `session/update` notifications go to `onUpdate` raw, taken off the message stream before
 * the SDK's client app: it drops a notification that fails its schema (with a console line), and an
 * update kind newer than the SDK fails it too. The caller validates what it uses.
 *
 * @example
 *   const conn = openAcpConnection({ command: ['codex-acp'], env, cwd }, handlers);
 *   const init = await conn.agent.request(acp.methods.agent.initialize, { protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities: {} });
 *   ...
 *   await conn.close();
 */
export function openAcpConnection(options: AcpSpawnOptions, handlers: AcpClientHandlers): AcpConnection {
  const tail = new TextTail(STDERR_TAIL_CHARS);
  const encoder = new TextEncoder();
  let output!: ReadableStreamDefaultController<Uint8Array>;
  const readable = new ReadableStream<Uint8Array>({
    start(controller) {
      output = controller;
    },
  });
  let ended = false;
  const endOutput = (): void => {
    if (ended) return;
    ended = true;
    try {
      output.close();
    } catch {
      // already closed by a cancelled reader
    }
  };

  const run = startProcess(options.command, {
    cwd: options.cwd,
    env: options.env,
    keepStdinOpen: true,
    // Nothing is kept by the runner: stdout goes to the connection, stderr to the tail.
    maxOutputBytes: 0,
    ...(options.killGraceMs !== undefined ? { killGraceMs: options.killGraceMs } : {}),
    ...(options.tracker ? { tracker: options.tracker } : {}),
    onStdout: (text) => {
      options.onActivity?.();
      if (!ended) output.enqueue(encoder.encode(text));
    },
    onStderr: (text) => {
      options.onActivity?.();
      tail.push(text);
    },
  });
  let hasExited = run.pid === undefined;
  const exited = run.done.then((result) => {
    hasExited = true;
    endOutput();
    return result;
  });

  const writable: WritableStream<Uint8Array> = run.stdin
    ? (Writable.toWeb(run.stdin as Writable) as WritableStream<Uint8Array>)
    : new WritableStream<Uint8Array>({ write: () => undefined });
  const wire = acp.ndJsonStream(writable, readable);
  // `session/update` notifications are taken off the wire before the SDK sees them: its client
  // app checks every one against its schema first and drops (with a console line) any that fails,
  // including update kinds newer than the SDK. In order with the responses, as they arrived.
  const updates = new TransformStream<acp.AnyMessage, acp.AnyMessage>({
    transform(message, controller) {
      const m = message as { method?: unknown; id?: unknown; params?: unknown };
      if (m.method === acp.methods.client.session.update && m.id === undefined) {
        try {
          handlers.onUpdate(m.params);
        } catch {
          // a handler bug must not end the connection; the handler reports its own failures
        }
        return;
      }
      controller.enqueue(message);
    },
  });
  const stream: acp.Stream = { writable: wire.writable, readable: wire.readable.pipeThrough(updates) };

  const app = acp
    .client({ name: 'cc-linker' })
    .onRequest(
      acp.methods.client.session.requestPermission,
      (raw: unknown) => raw,
      ({ params, signal }) => handlers.onPermission(params, signal),
    )
    .onRequest('*', ({ method }) => {
      handlers.onUnknownRequest?.(method);
      throw acp.RequestError.methodNotFound(method);
    });
  const connection = app.connect(stream);
  void exited.then(() => connection.close(new Error('the agent process ended')));
  const untilExitedOr = async (ms: number): Promise<void> => {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([exited, new Promise((resolve) => (timer = setTimeout(resolve, ms)))]);
    clearTimeout(timer);
  };
  const close = async (): Promise<RunResult> => {
    connection.close();
    run.kill('killed');
    return exited;
  };

  return {
    pid: run.pid,
    agent: connection.agent,
    exited,
    get hasExited() {
      return hasExited;
    },
    stderrTail: () => tail,
    close,
    finish: async (settleMs, graceMs) => {
      if (!hasExited && settleMs > 0) await untilExitedOr(settleMs);
      if (!hasExited && graceMs > 0) {
        run.stdin?.end();
        await untilExitedOr(graceMs);
      }
      return close();
    },
  };
}
