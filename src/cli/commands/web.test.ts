import { Command } from 'commander';
import fs from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  loginCookie,
  openStream,
  rawRequest as request,
  startTestConsole,
  stopTestConsole,
  type TestConsole,
} from '../../../test/helpers/web-console-kit.js';
import { loginStoreFile } from '../../channels/web/http/login-sessions.js';
import { memoryOutput } from '../context/output.js';
import { setCliRuntime } from '../context/with-context.js';
import { registerSpec } from '../launcher/register-spec.js';
import { webCommand } from './web.js';

let t: TestConsole;
let env: NodeJS.ProcessEnv;
beforeEach(async () => {
  t = await startTestConsole();
  env = {
    HOME: t.dir,
    CC_LINKER_HOME: t.paths.home,
    CLAUDE_CONFIG_DIR: t.paths.claudeDir,
    PATH: process.env.PATH,
  };
});
afterEach(async () => {
  setCliRuntime({});
  await stopTestConsole(t);
});

async function run(extraEnv: NodeJS.ProcessEnv, ...args: string[]) {
  const out = memoryOutput();
  let code = -1;
  setCliRuntime({ env: { ...env, ...extraEnv }, out, setExitCode: (c) => (code = c) });
  const program = new Command().exitOverride();
  registerSpec(program, webCommand);
  await program.parseAsync(['node', 'cc-linker', 'web', ...args]);
  return { out, code };
}

describe('cc-linker web rotate-token', () => {
  it('writes a new token (0600), prints the new URL once, and ends every login of the running console', async () => {
    const port = t.web.port;
    const cookie = await loginCookie(port, t.token);
    const stream = await openStream(port, cookie);
    expect((await request(port, '/api/status', { headers: { Cookie: cookie } })).status).toBe(200);

    const r = await run({}, 'rotate-token');
    expect(r.code).toBe(0);
    const fresh = (await fs.readFile(t.paths.webTokenFile, 'utf8')).trim();
    expect(fresh).not.toBe(t.token);
    expect(Buffer.from(fresh, 'base64url')).toHaveLength(32);
    expect((await fs.stat(t.paths.webTokenFile)).mode & 0o777).toBe(0o600);
    expect(r.out.stdout).toEqual([
      `✅ 已生成新的控制台令牌并写入 ${t.paths.webTokenFile}。所有浏览器的登录都已结束；正在运行的控制台从下一个请求起只接受新令牌。`,
      `✅ 本地控制台：http://127.0.0.1:9820/?token=${fresh}`,
    ]);
    expect(r.out.stderr).toEqual([]);
    await expect(fs.stat(loginStoreFile(t.paths))).rejects.toMatchObject({ code: 'ENOENT' });

    // The running console: the old cookie and the old token are refused, the open stream is cut.
    expect((await request(port, '/api/status', { headers: { Cookie: cookie } })).status).toBe(401);
    await stream.ended;
    expect((await request(port, `/?token=${encodeURIComponent(t.token)}`)).status).toBe(401);
    const next = await loginCookie(port, fresh);
    expect((await request(port, '/api/status', { headers: { Cookie: next } })).status).toBe(200);
  });

  it('refuses when web.token is set in the config, and changes nothing', async () => {
    await fs.writeFile(t.paths.configFile, '[web]\ntoken = "configured-console-token-0123456789"\n', { mode: 0o600 });
    const before = await fs.readFile(t.paths.webTokenFile, 'utf8');
    const cookie = await loginCookie(t.web.port, t.token);
    for (const [lang, text] of [
      ['en', `✖ The console token is set by web.token in ${t.paths.configFile}, so this command cannot rotate it`],
      ['zh', `✖ 控制台令牌由 ${t.paths.configFile} 中的 web.token 设定，不能用此命令更换`],
    ] as const) {
      const r = await run({ CC_LINKER_LANGUAGE: lang }, 'rotate-token');
      expect(r.code).toBe(78);
      expect(r.out.stdout).toEqual([]);
      expect(r.out.stderr.join('\n')).toContain(text);
      expect(r.out.stderr.join('\n')).not.toContain('configured-console-token');
    }
    expect(await fs.readFile(t.paths.webTokenFile, 'utf8')).toBe(before);
    expect((await request(t.web.port, '/api/status', { headers: { Cookie: cookie } })).status).toBe(200);
  });
});

describe('cc-linker web url', () => {
  it('prints the login URL with the current token and changes nothing', async () => {
    const before = await fs.readFile(t.paths.webTokenFile, 'utf8');
    const cookie = await loginCookie(t.web.port, t.token);
    const r = await run({}, 'url');
    expect(r.code).toBe(0);
    expect(r.out.stdout).toEqual([`✅ 本地控制台：http://127.0.0.1:9820/?token=${t.token}`]);
    expect(await fs.readFile(t.paths.webTokenFile, 'utf8')).toBe(before);
    expect((await request(t.web.port, '/api/status', { headers: { Cookie: cookie } })).status).toBe(200);
  });
});
