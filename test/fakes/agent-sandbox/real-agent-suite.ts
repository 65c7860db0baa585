import { existsSync } from 'node:fs';
import { join } from 'node:path';
import * as acp from '@agentclientprotocol/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAgentModelServer, type AgentModelServer } from '../fake-llm/agent-model-server.js';
import { SLOW_TICKS } from '../fake-llm/agent-script.js';
import { codexAcpBinary, qwenCliScript } from './agent-binaries.js';
import { createAgentSandbox, type AgentKind, type AgentSandbox } from './agent-sandbox.js';
import { chooseOption, startAcpTestAgent, type AcpTestAgent } from './acp-test-client.js';

/**
 * The end-to-end proof that a real agent runs offline against the fake model over ACP: hello,
 * a shell command behind a permission (allowed, then refused), and `session/load` in a new
 * process followed by a prompt the model sees with the earlier history. Step times are logged,
 * never asserted. Each test file calls this once for one agent.
 */

const API = { codex: 'responses', qwen: 'chat' } as const;
/**
 * The command the model is told to run. The marker text is computed by the shell (the prompt never
 * holds it), and `touch` keeps Qwen from treating the command as read-only (it runs `echo` unasked).
 */
const MARKER_COMMAND = 'touch ran-marker && echo cc-linker-$((40 + 2))';
const MARKER = 'cc-linker-42';
const TIMEOUT = 60_000;

/** Gives up on a request after `ms` (SDK 2.4 has no `timeout` option: a cancellation signal does it). */
const within = (ms: number): acp.SendRequestOptions => ({
  cancellationSignal: AbortSignal.timeout(ms),
  stopWaitingOnCancel: true,
});

/** Polls `check` every 50 ms; throws after `ms`. */
async function until(check: () => boolean, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`condition not met within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const installed = (kind: AgentKind): boolean => (kind === 'codex' ? codexAcpBinary() : qwenCliScript()) !== null;

export function describeRealAgent(kind: AgentKind): void {
  describe.skipIf(!installed(kind))(`real ${kind} over ACP against the fake model`, () => {
    let fake: AgentModelServer;
    let sandbox: AgentSandbox;
    const running: AcpTestAgent[] = [];
    let sessionId = '';
    const timings: string[] = [];

    /** Times one step (logged at the end, never asserted). */
    async function timed<T>(label: string, step: () => Promise<T>): Promise<T> {
      const t0 = performance.now();
      const result = await step();
      timings.push(`${label}: ${Math.round(performance.now() - t0)} ms`);
      return result;
    }

    async function start(): Promise<{ client: AcpTestAgent; init: acp.InitializeResponse }> {
      const client = startAcpTestAgent(sandbox, { permission: chooseOption('allow_once') });
      running.push(client);
      const init = await timed('spawn → initialize', () =>
        client.agent.request(
          acp.methods.agent.initialize,
          {
            protocolVersion: acp.PROTOCOL_VERSION,
            clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false },
          },
          within(30_000),
        ),
      );
      return { client, init };
    }

    const prompt = (client: AcpTestAgent, text: string, label: string): Promise<acp.PromptResponse> =>
      timed(label, () =>
        client.agent.request(
          acp.methods.agent.session.prompt,
          { sessionId, prompt: [{ type: 'text', text }] },
          within(45_000),
        ),
      );

    beforeAll(async () => {
      fake = await startAgentModelServer(API[kind]);
      sandbox = createAgentSandbox(kind, { baseUrl: fake.baseUrl });
    });

    afterAll(async () => {
      await Promise.all(running.map((c) => c.close()));
      console.log(`[${kind}] step times:\n  ${timings.join('\n  ')}`);
      await fake?.close();
      sandbox?.cleanup();
    });

    it(
      'initializes, opens a session and streams the answer to "hello"',
      async () => {
        const { client, init } = await start();
        expect(init.protocolVersion).toBe(1);
        expect(init.agentCapabilities?.loadSession).toBe(true);
        const session = await timed('session/new', () =>
          client.agent.request(acp.methods.agent.session.new, { cwd: sandbox.cwd, mcpServers: [] }),
        );
        sessionId = session.sessionId;
        expect(sessionId).not.toBe('');
        const from = client.updates.length;
        const done = await prompt(client, 'hello', 'prompt "hello"');
        expect(done.stopReason).toBe('end_turn');
        expect(client.messageText(sessionId, from)).toContain('ok: hello');
        const streamed = fake.calls.filter((c) => c.request.stream);
        expect(streamed.map((c) => c.request.lastUserText)).toContain('hello');
        expect(fake.scriptErrors).toEqual([]);
      },
      TIMEOUT,
    );

    it(
      'asks before running a shell command, runs it when allowed once and quotes its output',
      async () => {
        const client = running[0]!;
        const from = client.updates.length;
        const done = await prompt(client, `RUN: ${MARKER_COMMAND}`, 'prompt "RUN:" (tool + permission)');
        expect(done.stopReason).toBe('end_turn');
        expect(client.permissions).toHaveLength(1);
        const asked = client.permissions[0]!;
        expect(asked.toolCall.kind).toBe('execute');
        expect(asked.toolCall.title).toContain('ran-marker');
        expect(asked.options.map((o) => o.kind)).toEqual(expect.arrayContaining(['allow_once', 'reject_once']));
        expect(existsSync(join(sandbox.cwd, 'ran-marker'))).toBe(true);
        const afterTool = fake.calls.filter((c) => c.request.toolResults.length > 0);
        expect(afterTool).toHaveLength(1);
        expect(afterTool[0]!.request.toolResults.join('\n')).toContain(MARKER);
        const text = client.messageText(sessionId, from);
        expect(text).toContain('ran: ');
        expect(text).toContain(MARKER);
        expect(fake.scriptErrors).toEqual([]);
      },
      TIMEOUT,
    );

    it(
      'does not run the command when the permission is refused',
      async () => {
        const client = running[0]!;
        const asked = client.permissions.length;
        client.choose = chooseOption('reject_once');
        await prompt(client, 'RUN: touch refused-marker', 'prompt "RUN:" refused');
        client.choose = chooseOption('allow_once');
        expect(client.permissions.length).toBe(asked + 1);
        expect(client.permissions.at(-1)!.toolCall.title).toContain('refused-marker');
        expect(existsSync(join(sandbox.cwd, 'refused-marker'))).toBe(false);
      },
      TIMEOUT,
    );

    it(
      'stops a slow answer mid-stream on session/cancel',
      async () => {
        const client = running[0]!;
        const from = client.updates.length;
        const cut = fake.disconnects();
        const turn = prompt(client, 'SLOW: 300', 'prompt "SLOW" until cancelled');
        await until(() => client.messageText(sessionId, from).includes('tick01'), 30_000);
        await timed('session/cancel → prompt answered', async () => {
          await client.agent.notify(acp.methods.agent.session.cancel, { sessionId });
          expect((await turn).stopReason).toBe('cancelled');
        });
        expect(client.messageText(sessionId, from)).not.toContain(`tick${SLOW_TICKS - 1}`);
        await fake.waitForDisconnects(cut + 1);
      },
      TIMEOUT,
    );

    it(
      'loads the session in a new process and answers with the earlier history in the request',
      async () => {
        await timed('close first process', () => running[0]!.close());
        const { client } = await start();
        const from = client.updates.length;
        await timed('session/load', () =>
          client.agent.request(acp.methods.agent.session.load, { sessionId, cwd: sandbox.cwd, mcpServers: [] }),
        );
        const replayed = client.updates.slice(from).map((n) => n.update.sessionUpdate);
        expect(replayed).toContain('user_message_chunk');
        const before = fake.calls.length;
        const done = await prompt(client, 'and now?', 'prompt after load');
        expect(done.stopReason).toBe('end_turn');
        const call = fake.calls.slice(before).find((c) => c.request.stream && c.request.lastUserText === 'and now?');
        expect(call).toBeDefined();
        expect(call!.request.userTexts).toEqual(
          expect.arrayContaining(['hello', `RUN: ${MARKER_COMMAND}`, 'and now?']),
        );
        expect(client.messageText(sessionId)).toContain('ok: and now?');
      },
      TIMEOUT,
    );
  });
}
