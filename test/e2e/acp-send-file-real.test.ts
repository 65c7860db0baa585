// send_file with a REAL ACP agent (codex-acp's native binary, offline against the fake Responses
// API): the engine offers `cc-linker mcp` in session/new; Codex starts it, lists its tool, and the
// fake model calls that tool; the call crosses a real request socket into the token registry and
// reaches the turn's sender; the model reads the sentence the sender answered.
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startControlServer, type ControlServer } from '../../src/cli/start/control-server.js';
import { mcpLaunchCommand } from '../../src/cli/start/mcp-launch.js';
import { silentLogger } from '../../src/core/logger.js';
import type { FileSender, SendFileRequest } from '../../src/engine/engine-types.js';
import { FileSenderRegistry } from '../../src/engine/file-sender-registry.js';
import type { SendFileMcp } from '../../src/engine/send-file-mcp.js';
import { codexAcpBinary } from '../fakes/agent-sandbox/agent-binaries.js';
import { defaultAgentScript, type AgentRequest } from '../fakes/fake-llm/agent-script.js';
import { CODEX_CASE_MS, answering, streamed, useRig } from './acp-real-rig.js';

/** `SENDFILE: {json}` → a call of the offered tool whose name ends in `send_file`; else the default model. */
function sendFileScript(req: AgentRequest) {
  const m = /SENDFILE: (\{[^\n]*\})/.exec(req.lastUserText);
  if (!m?.[1] || req.toolResults.length > 0) return defaultAgentScript(req);
  // Codex offers an MCP server's tools as one namespace tool (`mcp__cc_linker`, holding `send_file`).
  const tool = req.tools.find((t) => t.name.endsWith('send_file') || t.name === 'mcp__cc_linker');
  if (!tool) return { text: `no send_file tool among: ${req.tools.map((t) => t.name).join(', ')}` };
  const args = JSON.parse(m[1]) as Record<string, unknown>;
  if (tool.name.endsWith('send_file')) return { toolCall: { name: tool.name, args } };
  return { toolCall: { name: 'send_file', namespace: tool.name, args } };
}

describe.skipIf(codexAcpBinary() === null)('send_file through the real Codex (ACP)', () => {
  const current = useRig('codex');
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
    'Codex calls the offered tool; the turn’s sender gets the call and the model reads its answer',
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
      const offered = streamed(rg.fake)[0]?.tools.map((t) => t.name) ?? [];
      // Codex offers an MCP server's tools as one namespace tool, `mcp__cc_linker` (holding send_file).
      expect(offered).toContain('mcp__cc_linker');
      expect(got).toEqual([{ path: 'report.pdf', caption: 'the report' }]);
      // The model read the sender's sentence as the tool's output.
      expect(result.text).toMatch(/^ran: [\s\S]*Sent the file \\"report\.pdf\\"/);
      // Codex asks before an MCP tool call (its own rule), through the chat's permission buttons.
      expect(handler.asked).toHaveLength(1);
      expect(JSON.stringify(handler.asked[0]?.input)).toContain('"server_name":"cc-linker"');
    },
    CODEX_CASE_MS,
  );
});
