// send_file with the REAL ACP agents (codex-acp's native binary against the fake Responses API, Qwen
// Code against the fake chat-completions API): the engine offers `cc-linker mcp` in session/new;
// the agent starts it, lists its tool, and the fake model calls that tool; the call crosses a real request socket into the token registry and
// reaches the turn's sender; the model reads the sentence the sender answered.
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startControlServer, type ControlServer } from '../../src/cli/start/control-server.js';
import { mcpLaunchCommand } from '../../src/cli/start/mcp-launch.js';
import { silentLogger } from '../../src/core/logger.js';
import type { FileSender, SendFileRequest } from '../../src/engine/engine-types.js';
import { FileSenderRegistry } from '../../src/engine/file-sender-registry.js';
import type { SendFileMcp } from '../../src/engine/send-file-mcp.js';
import { codexAcpBinary, qwenCliScript } from '../fakes/agent-sandbox/agent-binaries.js';
import { sendFileScript } from '../fakes/fake-llm/send-file-script.js';
import { CODEX_CASE_MS, QWEN_CASE_MS, answering, useRig } from './acp-real-rig.js';

const AGENTS = [
  { kind: 'codex', present: codexAcpBinary() !== null, caseMs: CODEX_CASE_MS },
  { kind: 'qwen', present: qwenCliScript() !== null, caseMs: QWEN_CASE_MS },
] as const;

describe.each(AGENTS)('send_file through the real $kind (ACP)', ({ kind, present, caseMs }) => {
  if (!present) return void it.skip(`${kind} is not installed`);
  const current = useRig(kind);
  let server: ControlServer;
  let mcp: SendFileMcp;
  beforeEach(async () => {
    const rg = current();
    const socket = path.join(rg.sb.root, 'run', 'daemon.sock');
    const registry = new FileSenderRegistry('en');
    server = await startControlServer(
      socket,
      async (r) =>
        r.op === 'send_file'
          ? registry.send(r.token, { path: r.path, ...(r.caption ? { caption: r.caption } : {}) })
          : null,
      silentLogger,
    );
    mcp = { ...mcpLaunchCommand(), socket, registry, configDir: path.join(rg.sb.root, 'run', 'mcp'), lang: 'en' };
  });
  afterEach(async () => {
    await server?.close();
  });

  it(
    'the agent calls the offered tool; the turn’s sender gets the call and the model reads its answer',
    async () => {
      const rg = current();
      rg.fake.setScript(sendFileScript);
      const got: SendFileRequest[] = [];
      const files: FileSender = {
        sendFile: async (r) => {
          got.push(r);
          return { ok: true, text: `Sent the file "${r.path}"` };
        },
      };
      const handler = answering({ behavior: 'allow' });
      const run = rg.run(
        rg.engine({ sendFileMcp: mcp }),
        { prompt: 'SENDFILE: {"path":"report.pdf","caption":"the report"}' },
        { permissions: handler, files },
      );
      const result = await run.promise;
      expect(got).toEqual([{ path: 'report.pdf', caption: 'the report' }]);
      // The model read the sender's sentence as the tool's output.
      expect(result.text).toMatch(/^sent-result: [\s\S]*Sent the file \\?"report\.pdf\\?"/);
      // Both agents ask before an MCP tool call (their own rule), through the chat's permission buttons.
      expect(handler.asked).toHaveLength(1);
      expect(JSON.stringify(handler.asked[0]?.input)).toContain('report.pdf');
    },
    caseMs,
  );
});
