// `cc-linker mcp` as an agent runs it: the official MCP client starts the real command (this
// checkout's entry script through `mcpLaunchCommand`) over stdio and calls `send_file`; the call
// reaches a real request socket whose handler is the daemon's token registry.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../core/logger.js';
import type { FileSender, SendFileRequest } from '../../engine/engine-types.js';
import { FileSenderRegistry } from '../../engine/file-sender-registry.js';
import { mcpServerEnv } from '../../engine/send-file-mcp.js';
import { SEND_FILE_DESCRIPTION } from '../../engine/send-file-spec.js';
import { startControlServer, type ControlServer } from './control-server.js';
import { mcpLaunchCommand } from './mcp-launch.js';

const CASE_MS = 30_000;

describe('cc-linker mcp (real command, official MCP client)', () => {
  let tmp: string;
  let socket: string;
  let server: ControlServer;
  const registry = new FileSenderRegistry('en');
  const calls: SendFileRequest[] = [];
  const sender: FileSender = {
    sendFile: async (r) => {
      calls.push(r);
      return { ok: true, text: `Sent the file "${r.path}"` };
    },
  };

  beforeAll(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cc-mcp-'));
    socket = path.join(tmp, 'runtime', 'daemon.sock');
    server = await startControlServer(
      socket,
      async (r) => (r.op === 'send_file' ? registry.send(r.token, { path: r.path, caption: r.caption ?? '' }) : null),
      silentLogger,
    );
  });
  afterAll(async () => {
    await server?.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  /** Starts `cc-linker mcp` with `env` (on top of PATH and HOME only) and connects a client. */
  async function connect(env: Record<string, string>): Promise<Client> {
    const { command, args } = mcpLaunchCommand();
    const transport = new StdioClientTransport({
      command,
      args,
      cwd: tmp, // as an agent starts it: in the session's directory, where `tsx` does not resolve
      env: { PATH: process.env.PATH ?? '', HOME: tmp, ...env },
      stderr: 'pipe',
    });
    const client = new Client({ name: 'test', version: '1.0.0' });
    await client.connect(transport);
    return client;
  }

  const textOf = (r: Awaited<ReturnType<Client['callTool']>>): string =>
    (r.content as Array<{ type: string; text: string }>).map((c) => c.text).join('');

  it(
    'lists exactly send_file with the sdk mode description; a call with a live token reaches the turn',
    async () => {
      const grant = registry.issue(() => sender);
      const client = await connect(mcpServerEnv({ socket, lang: 'en' }, grant.token));
      try {
        const { tools } = await client.listTools();
        expect(tools.map((t) => t.name)).toEqual(['send_file']);
        expect(tools[0]?.description).toBe(SEND_FILE_DESCRIPTION);
        expect(tools[0]?.inputSchema.required).toEqual(['path']);
        expect(tools[0]?._meta).toEqual({ 'anthropic/alwaysLoad': true });
        const r = await client.callTool({ name: 'send_file', arguments: { path: 'out.png', caption: 'hi' } });
        expect(r.isError).toBeFalsy();
        expect(textOf(r)).toBe('Sent the file "out.png"');
        expect(calls.at(-1)).toEqual({ path: 'out.png', caption: 'hi' });
        // The token is revoked (the child ended): the same server is refused from then on.
        grant.revoke();
        const after = await client.callTool({ name: 'send_file', arguments: { path: 'late.png' } });
        expect(after.isError).toBe(true);
        expect(textOf(after)).toMatch(/^Not sent: this cc-linker file channel is no longer valid/);
        expect(calls.map((c) => c.path)).not.toContain('late.png');
      } finally {
        await client.close();
      }
    },
    CASE_MS,
  );

  it(
    'an unknown token is refused; a daemon out of reach is an answer, not a crash',
    async () => {
      const unknown = await connect(mcpServerEnv({ socket, lang: 'en' }, 'a'.repeat(64)));
      try {
        const r = await unknown.callTool({ name: 'send_file', arguments: { path: 'x.png' } });
        expect(r.isError).toBe(true);
        expect(textOf(r)).toContain('no longer valid');
      } finally {
        await unknown.close();
      }
      const gone = await connect(mcpServerEnv({ socket: path.join(tmp, 'nothing.sock'), lang: 'en' }, 'b'.repeat(64)));
      try {
        const r = await gone.callTool({ name: 'send_file', arguments: { path: 'x.png' } });
        expect(r.isError).toBe(true);
        expect(textOf(r)).toBe('Not sent: cc-linker cannot be reached (DAEMON_NO_ANSWER).');
        // Still serving after that.
        expect((await gone.listTools()).tools).toHaveLength(1);
      } finally {
        await gone.close();
      }
      expect(calls.map((c) => c.path)).not.toContain('x.png');
    },
    CASE_MS,
  );

  it(
    'a path or caption too long for the socket is refused with its own sentence; nothing is sent',
    async () => {
      const grant = registry.issue(() => sender);
      const client = await connect(mcpServerEnv({ socket, lang: 'en' }, grant.token));
      const before = calls.length;
      try {
        for (const args of [{ path: 'p'.repeat(4097) }, { path: 'ok.txt', caption: 'c'.repeat(2001) }]) {
          const r = await client.callTool({ name: 'send_file', arguments: args });
          expect(r.isError).toBe(true);
          expect(textOf(r)).toBe(
            'Not sent: the path (at most 4096 characters) or the caption (at most 2000) is too long.',
          );
        }
        expect(calls.length).toBe(before);
        // A bad call changes nothing for the next good one.
        const ok = await client.callTool({ name: 'send_file', arguments: { path: 'ok.txt' } });
        expect(textOf(ok)).toBe('Sent the file "ok.txt"');
      } finally {
        grant.revoke();
        await client.close();
      }
    },
    CASE_MS,
  );

  it(
    'run by hand (no token in its environment) it says what it is for and exits 64, printing nothing on stdout',
    () => {
      const { command, args } = mcpLaunchCommand();
      const run = spawnSync(command, args, {
        cwd: tmp,
        env: { PATH: process.env.PATH ?? '', HOME: tmp, CC_LINKER_LANGUAGE: 'en' },
        input: '',
        encoding: 'utf8',
        timeout: CASE_MS,
      });
      expect(run.status).toBe(64);
      expect(run.stdout).toBe('');
      expect(run.stderr).toContain('cc-linker mcp is run by cc-linker itself');
      expect(run.stderr).toContain('CC_LINKER_MCP_TOKEN is missing');
    },
    CASE_MS,
  );
});
