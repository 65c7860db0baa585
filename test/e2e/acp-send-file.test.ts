// send_file for ACP agents: the engine offers the stdio server `cc-linker mcp` in `session/new` /
// `session/load` (ACP's shape: name, command, args, env as name/value pairs) with one token per
// agent process. The fake ACP agent starts that server exactly as offered (the official MCP client
// spawning the real command) and calls `send_file`; the call crosses a real request socket into the
// token registry and reaches the sender of the turn running now — a kept process's later turn
// reaches its own. The token dies with the process.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAcpEngine, type AcpEngine } from '../../src/agents/acp/create-acp-engine.js';
import { createAcpWarmPool } from '../../src/agents/acp/acp-warm-pool.js';
import { startControlServer, type ControlServer } from '../../src/cli/start/control-server.js';
import { mcpLaunchCommand } from '../../src/cli/start/mcp-launch.js';
import { silentLogger } from '../../src/core/logger.js';
import type { EngineEvent, FileSender, SendFileRequest } from '../../src/engine/engine-types.js';
import { FileSenderRegistry } from '../../src/engine/file-sender-registry.js';
import type { SendFileMcp } from '../../src/engine/send-file-mcp.js';
import { fx, guardDeps, useAcpFixture } from '../fakes/fake-acp-agent/acp-engine-harness.js';

/** A turn's sender that records what it got and answers `sent <path> (<name>)`. */
function senderNamed(name: string): FileSender & { got: SendFileRequest[] } {
  const got: SendFileRequest[] = [];
  return {
    got,
    sendFile: async (r) => {
      got.push(r);
      return { ok: true, text: `sent ${r.path} (${name})` };
    },
  };
}

useAcpFixture(); // a fresh fake-agent root per test (`fx`), removed after it

describe('send_file through an ACP agent (fake agent, real cc-linker mcp)', () => {
  let server: ControlServer;
  let mcp: SendFileMcp;
  let engine: AcpEngine | undefined;
  beforeEach(async () => {
    const socket = path.join(fx.root, 'runtime', 'daemon.sock');
    const registry = new FileSenderRegistry('en');
    server = await startControlServer(
      socket,
      async (r) =>
        r.op === 'send_file'
          ? registry.send(r.token, { path: r.path, ...(r.caption ? { caption: r.caption } : {}) })
          : null,
      silentLogger,
    );
    mcp = { ...mcpLaunchCommand(), socket, registry, configDir: path.join(fx.root, 'runtime', 'mcp'), lang: 'en' };
  });
  afterEach(async () => {
    await engine?.close();
    engine = undefined;
    await server.close();
  });

  function build(warm: boolean): AcpEngine {
    const pool = warm
      ? createAcpWarmPool({ runtime: { warm_idle_ms: 60_000, max_warm: 2 }, logger: silentLogger, settleMs: 0 })
      : undefined;
    engine = createAcpEngine(
      { name: 'fakeagent', command: fx.command, env: fx.env() },
      {
        guard: guardDeps(silentLogger),
        killGraceMs: 300,
        endSettleMs: 0,
        sendFileMcp: mcp,
        ...(pool ? { warm: pool } : {}),
      },
    );
    return engine;
  }

  async function turn(e: AcpEngine, prompt: string, files: FileSender | undefined, sessionId?: string) {
    const events: EngineEvent[] = [];
    const result = await e.send(
      { agent: 'fakeagent', prompt, cwd: fx.cwd, ...(sessionId ? { sessionId } : {}) },
      { onEvent: (ev) => events.push(ev), ...(files ? { files } : {}) },
    );
    return result;
  }

  it('session/new offers the server in ACP shape; a call reaches the turn; a later turn on the kept process gets its own', async () => {
    const e = build(true);
    const first = senderNamed('first');
    const r1 = await turn(e, 'mcp-send {"path":"out/chart.png","caption":"the chart"}', first);
    expect(r1.text).toBe('mcp: ok sent out/chart.png (first)');
    expect(first.got).toEqual([{ path: 'out/chart.png', caption: 'the chart' }]);

    const offered = fx.calls().find((c) => c.method === 'session/new')?.params.mcpServers as Array<{
      name: string;
      command: string;
      args: string[];
      env: Array<{ name: string; value: string }>;
    }>;
    expect(offered).toHaveLength(1);
    expect(offered[0]).toMatchObject({ name: 'cc-linker', command: mcp.command, args: [...mcp.args] });
    expect(offered[0]?.env.map((v) => v.name).sort()).toEqual([
      'CC_LINKER_LANGUAGE',
      'CC_LINKER_MCP_SOCKET',
      'CC_LINKER_MCP_TOKEN',
    ]);
    expect(offered[0]?.env.find((v) => v.name === 'CC_LINKER_MCP_TOKEN')?.value).toMatch(/^[0-9a-f]{64}$/);

    const second = senderNamed('second');
    const r2 = await turn(e, 'mcp-send {"path":"b.txt"}', second, r1.sessionId);
    expect(r2.text).toBe('mcp: ok sent b.txt (second)');
    expect(second.got).toEqual([{ path: 'b.txt' }]);
    expect(first.got).toHaveLength(1);
    // One agent process took both turns: one token, revoked once the process ended.
    expect(new Set(fx.calls().map((c) => c.pid)).size).toBe(1);
    expect(mcp.registry.size).toBe(1);
    await e.close();
    for (let i = 0; i < 100 && mcp.registry.size > 0; i++) await new Promise((r) => setTimeout(r, 20));
    expect(mcp.registry.size).toBe(0);
  }, 30_000);

  it('session/load offers it too; a turn without a sender is refused with a sentence, nothing thrown', async () => {
    const e = build(false);
    const r = await turn(e, 'mcp-send {"path":"x.txt"}', undefined, 'fake-earlier-session');
    expect(r.text).toBe('mcp: error Not sent: this turn cannot send files into a chat.');
    const load = fx.calls().find((c) => c.method === 'session/load')?.params;
    expect((load?.mcpServers as Array<{ name: string }>).map((s) => s.name)).toEqual(['cc-linker']);
    expect(fs.existsSync(mcp.configDir)).toBe(false); // ACP passes env in the request, no file
  }, 30_000);
});
