import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { defaultConfig } from '../core/default-config.js';
import { silentLogger } from '../core/logger.js';
import { resolvePaths } from '../core/paths.js';
import { FileSenderRegistry } from '../engine/file-sender-registry.js';
import type { SendFileMcp } from '../engine/send-file-mcp.js';
import { PermissionPolicy } from './permission-policy.js';
import { PermissionStore } from './permission-store.js';
import { offerSendFile } from './send-file-mcp-config.js';

const TOOL = 'mcp__cc-linker__send_file';

describe('offerSendFile (the CLI modes’ --mcp-config)', () => {
  let tmp: string;
  let mcp: SendFileMcp;
  beforeEach(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cc-offer-'));
    mcp = {
      command: '/usr/bin/node',
      args: ['/opt/cc-linker/dist/cli/launcher/cc-linker.js', 'mcp'],
      socket: path.join(tmp, 'runtime', 'daemon.sock'),
      registry: new FileSenderRegistry('en'),
      configDir: path.join(tmp, 'runtime', 'mcp'),
      lang: 'en',
    };
  });
  afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

  function depsWith(tweak: (c: ReturnType<typeof defaultConfig>) => void = () => undefined, withMcp = true) {
    const config = defaultConfig();
    tweak(config);
    const paths = resolvePaths({ HOME: tmp, CC_LINKER_HOME: path.join(tmp, 'cc') });
    const policy = new PermissionPolicy(config.claude, new PermissionStore(paths.permissionsFile), silentLogger);
    return { config, paths, policy, logger: silentLogger, ...(withMcp ? { sendFileMcp: mcp } : {}) };
  }
  const ctx = (disallowed: string[] = []) => ({ cwd: tmp, rules: { allowed: ['Read'], disallowed } });

  it('writes a 0600 config in a 0700 folder naming the server with only its token, socket and language', async () => {
    const offer = offerSendFile(ctx(), depsWith(), () => undefined);
    expect(offer).toBeDefined();
    const file = offer!.args[0]!.slice('--mcp-config='.length);
    expect(path.dirname(file)).toBe(mcp.configDir);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.statSync(mcp.configDir).mode & 0o777).toBe(0o700);
    const json = JSON.parse(fs.readFileSync(file, 'utf8')) as {
      mcpServers: Record<string, { command: string; args: string[]; env: Record<string, string> }>;
    };
    const server = json.mcpServers['cc-linker']!;
    expect(server.command).toBe('/usr/bin/node');
    expect(server.args).toEqual(mcp.args);
    expect(Object.keys(server.env).sort()).toEqual([
      'CC_LINKER_LANGUAGE',
      'CC_LINKER_MCP_SOCKET',
      'CC_LINKER_MCP_TOKEN',
    ]);
    expect(server.env.CC_LINKER_MCP_TOKEN).toMatch(/^[0-9a-f]{64}$/);
    // The token is live until the child ends; then it is revoked and the file removed.
    const token = server.env.CC_LINKER_MCP_TOKEN;
    expect((await mcp.registry.send(token, { path: 'a' })).text).toMatch(/cannot send files/);
    offer!.close();
    offer!.close();
    expect(fs.existsSync(file)).toBe(false);
    expect((await mcp.registry.send(token, { path: 'a' })).text).toMatch(/no longer valid/);
    expect(mcp.registry.size).toBe(0);
  });

  it('allows the tool without a prompt when files.send_without_prompt; otherwise leaves the rules alone', () => {
    const allowed = offerSendFile(ctx(), depsWith(), () => undefined);
    expect(allowed?.rules.allowed).toEqual(['Read', TOOL]);
    allowed?.close();
    const asked = offerSendFile(
      ctx(),
      depsWith((c) => (c.files.send_without_prompt = false)),
      () => undefined,
    );
    expect(asked?.rules.allowed).toEqual(['Read']);
    asked?.close();
  });

  it('a config folder that cannot be made: nothing offered, the token revoked, no throw', () => {
    fs.mkdirSync(path.join(tmp, 'runtime'));
    fs.writeFileSync(mcp.configDir, 'a file where the folder should be');
    expect(offerSendFile(ctx(), depsWith(), () => undefined)).toBeUndefined();
    expect(mcp.registry.size).toBe(0);
  });

  it('offers nothing when claude.disallowed_tools covers the tool, or without the server', () => {
    for (const rule of ['mcp__cc-linker', TOOL])
      expect(offerSendFile(ctx([rule]), depsWith(), () => undefined)).toBeUndefined();
    expect(offerSendFile(ctx(), depsWith(undefined, false), () => undefined)).toBeUndefined();
    expect(mcp.registry.size).toBe(0);
    expect(fs.existsSync(mcp.configDir)).toBe(false);
  });
});
