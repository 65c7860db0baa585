import { spawn, type ChildProcess } from 'node:child_process';
import { Readable, Writable } from 'node:stream';
import * as acp from '@agentclientprotocol/sdk';
import type { AgentSandbox } from './agent-sandbox.js';

/**
 * A bare ACP client over a real agent's stdio, for tests only: it spawns the sandbox's command in
 * its own process group, records every `session/update` and permission request, answers
 * permissions with a chooser (default: the `allow_once` option), refuses every other client
 * request, and on `close()` signals the whole group (TERM, then KILL) so nothing is left running.
 */

export type PermissionChooser = (req: acp.RequestPermissionRequest) => acp.RequestPermissionResponse;

/** Picks the option of `kind` (`allow_once` by default); cancels when there is none. */
export function chooseOption(kind: acp.PermissionOptionKind = 'allow_once'): PermissionChooser {
  return (req) => {
    const option = req.options.find((o) => o.kind === kind);
    return option
      ? { outcome: { outcome: 'selected', optionId: option.optionId } }
      : { outcome: { outcome: 'cancelled' } };
  };
}

export interface AcpTestAgent {
  pid: number;
  /** The agent side of the connection: `agent.request(acp.methods.agent.…, params)`. */
  agent: acp.ClientContext;
  /** Every `session/update` in arrival order. */
  updates: acp.SessionNotification[];
  /** Every permission request in arrival order. */
  permissions: acp.RequestPermissionRequest[];
  /** Answers the next permission requests; assign to change it mid-session. */
  choose: PermissionChooser;
  /** Other client requests the agent sent (each refused with methodNotFound). */
  refused: string[];
  /** The agent's stderr so far. */
  stderr(): string;
  /** The `agent_message_chunk` texts of `sessionId` from update index `from` on, joined. */
  messageText(sessionId: string, from?: number): string;
  /** Signals the process group, waits for the leader to exit (KILL after `graceMs`), closes the connection. */
  close(graceMs?: number): Promise<void>;
}

const exited = (child: ChildProcess): Promise<void> =>
  child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve()
    : new Promise((resolve) => child.once('exit', () => resolve()));

function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // The group is already gone.
  }
}

/** Spawns `sandbox.command` in `sandbox.cwd` with exactly `sandbox.env` and connects an ACP client. */
export function startAcpTestAgent(sandbox: AgentSandbox, opts: { permission?: PermissionChooser } = {}): AcpTestAgent {
  const [file, ...args] = sandbox.command;
  if (file === undefined) throw new Error('acp test client: empty command');
  const child = spawn(file, args, { cwd: sandbox.cwd, env: sandbox.env, detached: true, stdio: 'pipe' });
  const pid = child.pid;
  if (pid === undefined) throw new Error(`acp test client: could not spawn ${file}`);
  let stderr = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (s: string) => {
    stderr += s;
  });
  child.stdin.on('error', () => undefined);
  const updates: acp.SessionNotification[] = [];
  const permissions: acp.RequestPermissionRequest[] = [];
  const refused: string[] = [];
  const stream = acp.ndJsonStream(
    Writable.toWeb(child.stdin) as WritableStream<Uint8Array>,
    Readable.toWeb(child.stdout) as unknown as ReadableStream<Uint8Array>,
  );
  const connection = acp
    .client({ name: 'cc-linker-test' })
    .onNotification(acp.methods.client.session.update, ({ params }) => {
      updates.push(params);
    })
    .onRequest(acp.methods.client.session.requestPermission, ({ params }) => {
      permissions.push(params);
      return handle.choose(params);
    })
    .onRequest('*', ({ method }) => {
      refused.push(method);
      throw acp.RequestError.methodNotFound(method);
    })
    .connect(stream);
  const gone = exited(child);
  const handle: AcpTestAgent = {
    pid,
    choose: opts.permission ?? chooseOption('allow_once'),
    agent: connection.agent,
    updates,
    permissions,
    refused,
    stderr: () => stderr,
    messageText: (sessionId, from = 0) =>
      updates
        .slice(from)
        .filter((n) => n.sessionId === sessionId)
        .map((n) => n.update)
        .flatMap((u) =>
          u.sessionUpdate === 'agent_message_chunk' && u.content.type === 'text' ? [u.content.text] : [],
        )
        .join(''),
    async close(graceMs = 3000) {
      signalGroup(pid, 'SIGTERM');
      const timer = setTimeout(() => signalGroup(pid, 'SIGKILL'), graceMs);
      await gone;
      clearTimeout(timer);
      // Children the leader left behind (Qwen re-executes itself) share its group.
      signalGroup(pid, 'SIGKILL');
      connection.close();
    },
  };
  return handle;
}
