// The token of `cc-linker mcp`, end to end with the REAL Claude Code (json mode) in the assembled
// daemon: while a child runs, its `--mcp-config` file (0600 in the 0700 runtime/mcp) holds its
// token and the server Claude started has nothing of the daemon's secrets; once the child ended the
// file is gone and the token is refused — as is a made-up one — with nothing sent. A kept
// stream-json child's live token between turns reaches no chat. With
// `claude.disallowed_tools = ["mcp__cc-linker"]` the tool is not offered at all.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { controlSocketPath } from '../../src/cli/start/control-protocol.js';
import { mcpLaunchCommand } from '../../src/cli/start/mcp-launch.js';
import { mcpServerEnv } from '../../src/engine/send-file-mcp.js';
import { CASE_TIMEOUT_MS, CLAUDE_BIN, showLogOnFailure, startSystem, type System } from './system-harness.js';

const TOOL = 'mcp__cc-linker__send_file';
/** Secrets in the daemon's environment that neither Claude nor its MCP server may see. */
const PLANTED = {
  GITHUB_TOKEN: `ghtoken-${randomBytes(12).toString('hex')}`,
  DB_PASSWORD: `dbpw-${randomBytes(12).toString('hex')}`,
};

/** Pids whose environment holds `needle` (Linux; empty elsewhere). */
function pidsWithEnv(needle: string): number[] {
  if (process.platform !== 'linux') return [];
  const found: number[] = [];
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (fs.readFileSync(`/proc/${name}/environ`, 'utf8').includes(needle)) found.push(Number(name));
    } catch {
      // gone or not ours
    }
  }
  return found;
}

/** Calls send_file through a `cc-linker mcp` of our own holding `token`; returns the answer's text and error flag. */
async function callWith(s: System, token: string, file: string): Promise<{ text: string; isError: boolean }> {
  const { command, args } = mcpLaunchCommand();
  const transport = new StdioClientTransport({
    command,
    args,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: s.sys.home,
      ...mcpServerEnv({ socket: controlSocketPath(s.sys.paths), lang: 'en' }, token),
    },
  });
  const client = new Client({ name: 'stale', version: '1.0.0' });
  await client.connect(transport);
  try {
    const r = await client.callTool({ name: 'send_file', arguments: { path: file } });
    return { text: (r.content as Array<{ text: string }>).map((c) => c.text).join(''), isError: r.isError === true };
  } finally {
    await client.close();
  }
}

describe.skipIf(!CLAUDE_BIN)('the cc-linker mcp token (json mode, real Claude Code)', () => {
  let s: System | undefined;
  afterEach(async () => {
    await s?.stop();
    s = undefined;
  }, CASE_TIMEOUT_MS);

  it(
    'lives in a private file while its child runs, keeps secrets out of the server, and is refused after',
    async () => {
      s = await startSystem('json', { prepare: async (sys) => void Object.assign(sys.env, PLANTED) });
      showLogOnFailure(() => s);
      const cwd = s.sys.project('stale');
      fs.writeFileSync(path.join(cwd, 'a.txt'), 'hello');
      const mcpDir = path.join(s.sys.paths.runtimeDir, 'mcp');
      const { messageId } = await s.send(`/new ${cwd} -- slow: 150`); // ~3 s of streaming
      let configFile = '';
      for (let i = 0; i < 400 && !configFile; i++) {
        const names = fs.existsSync(mcpDir) ? fs.readdirSync(mcpDir) : [];
        if (names[0]) configFile = path.join(mcpDir, names[0]);
        else await sleep(10);
      }
      expect(configFile).not.toBe('');
      expect(fs.statSync(mcpDir).mode & 0o777).toBe(0o700);
      expect(fs.statSync(configFile).mode & 0o777).toBe(0o600);
      const server = (
        JSON.parse(fs.readFileSync(configFile, 'utf8')) as {
          mcpServers: Record<string, { env: Record<string, string> }>;
        }
      ).mcpServers['cc-linker'];
      const token = server?.env.CC_LINKER_MCP_TOKEN ?? '';
      expect(token).toMatch(/^[0-9a-f]{64}$/);
      let serverPids: number[] = [];
      for (let i = 0; i < 200 && serverPids.length === 0; i++) {
        serverPids = pidsWithEnv(`CC_LINKER_MCP_TOKEN=${token}`);
        if (serverPids.length === 0) await sleep(10);
      }
      expect(serverPids.length).toBeGreaterThan(0); // Claude Code started the server
      for (const pid of serverPids) {
        const env = fs.readFileSync(`/proc/${pid}/environ`, 'utf8');
        for (const value of Object.values(PLANTED)) expect(env).not.toContain(value);
        expect(env).not.toMatch(/CC_LINKER_(?!MCP_TOKEN|MCP_SOCKET|LANGUAGE)/);
      }
      await s.finished(messageId);
      expect(fs.existsSync(configFile)).toBe(false);

      const uploads = s.fake.uploads.length;
      const stale = await callWith(s, token, 'a.txt');
      expect(stale).toEqual({
        isError: true,
        text: 'Not sent: this cc-linker file channel is no longer valid (the run it belonged to has ended), or it was not started by cc-linker.',
      });
      const unknown = await callWith(s, randomBytes(32).toString('hex'), 'a.txt');
      expect(unknown.text).toBe(stale.text);
      expect(s.fake.uploads.length).toBe(uploads);
      expect(s.fake.sent.filter((m) => m.msg_type === 'file')).toEqual([]);
    },
    CASE_TIMEOUT_MS * 2,
  );

  it(
    'stream-json: a kept child’s token between turns reaches no chat (the turn-running-now rule)',
    async () => {
      s = await startSystem('stream-json');
      showLogOnFailure(() => s);
      const cwd = s.sys.project('between');
      fs.writeFileSync(path.join(cwd, 'a.txt'), 'hello');
      const { messageId } = await s.send(`/new ${cwd} -- echo: hi`);
      await s.finished(messageId);
      await s.runtime.bridge.whenIdle();
      // The warm child is kept between turns, and with it its --mcp-config file and its token.
      const mcpDir = path.join(s.sys.paths.runtimeDir, 'mcp');
      const names = fs.readdirSync(mcpDir);
      expect(names).toHaveLength(1);
      const config = JSON.parse(fs.readFileSync(path.join(mcpDir, names[0] ?? ''), 'utf8')) as {
        mcpServers: Record<string, { env: Record<string, string> }>;
      };
      const token = config.mcpServers['cc-linker']?.env.CC_LINKER_MCP_TOKEN ?? '';
      expect(await callWith(s, token, 'a.txt')).toEqual({
        isError: true,
        text: 'Not sent: this turn cannot send files into a chat.',
      });
      expect(s.fake.uploads).toEqual([]);
      expect(s.fake.sent.filter((m) => m.msg_type === 'file')).toEqual([]);
    },
    CASE_TIMEOUT_MS,
  );

  it(
    'claude.disallowed_tools = ["mcp__cc-linker"]: not offered (no --mcp-config), the call fails, nothing sent',
    async () => {
      s = await startSystem('stream-json', { tweak: (c) => (c.claude.disallowed_tools = ['mcp__cc-linker']) });
      showLogOnFailure(() => s);
      const cwd = s.sys.project('off');
      fs.writeFileSync(path.join(cwd, 'a.txt'), 'a');
      const { messageId } = await s.send(`/new ${cwd} -- tool: ${TOOL} {"path":"a.txt"}`);
      await s.finished(messageId);
      const tools = s.anth.messageRequests().flatMap((r) => r.scriptRequest?.tools.map((t) => t.name) ?? []);
      expect(tools.length).toBeGreaterThan(0);
      expect(tools).not.toContain(TOOL);
      const mcpDir = path.join(s.sys.paths.runtimeDir, 'mcp');
      expect(fs.existsSync(mcpDir) ? fs.readdirSync(mcpDir) : []).toEqual([]);
      const results = s.anth.messageRequests().flatMap((r) => r.scriptRequest?.lastUserToolResults ?? []);
      expect(results.every((r) => r.is_error === true)).toBe(true);
      expect(s.fake.uploads).toEqual([]);
    },
    CASE_TIMEOUT_MS,
  );
});
