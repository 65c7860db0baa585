/**
 * `cc-linker doctor` says "all checks passed" only when the next command can work: the session
 * registry exists (else a failure that says `cc-linker init`, the very thing `list` would refuse
 * for), each AI chat provider's key variable is set (named, its value never printed), and the
 * ChainlessChain CLI runs (`--version` through the gateway's exec service; the fake CLI here).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAKE_CLI_SCRIPT } from '../fakes/fake-chainlesschain/fake-cli.js';
import { pathWithoutDevAgents } from '../helpers/path-without-dev-agents.js';
import { runSessionCli } from '../helpers/run-session-cli.js';

const SECRET = 'sk-doctor-secret-value-0123456789';
let tmp: string;
let home: string;
let env: NodeJS.ProcessEnv;

beforeAll(() => {
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'cc-doctor-truth-')));
  home = path.join(tmp, 'home');
  fs.mkdirSync(path.join(home, '.cc-linker'), { recursive: true, mode: 0o700 });
  env = { HOME: home, CC_LINKER_HOME: path.join(home, '.cc-linker'), PATH: pathWithoutDevAgents() };
});
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

const cli = (args: string[], extra: NodeJS.ProcessEnv = {}) =>
  runSessionCli(args, { env: { ...env, ...extra }, now: new Date() });

function config(lang: 'zh' | 'en', ccCli: string[]): void {
  const q = (v: string) => JSON.stringify(v);
  const toml = [
    '[general]',
    `language = ${q(lang)}`,
    '[ccexec]',
    `cli = [${ccCli.map(q).join(', ')}]`,
    'default_provider = "deepseek"',
    '[ccexec.providers.deepseek]',
    'kind = "openai-compatible"',
    'model = "deepseek-chat"',
  ].join('\n');
  fs.writeFileSync(path.join(home, '.cc-linker', 'config.toml'), `${toml}\n`, { mode: 0o600 });
}

const row = (stdout: string, re: RegExp) => stdout.split('\n').find((l) => re.test(l));
const fakeCli = [process.execPath, FAKE_CLI_SCRIPT];

describe('doctor tells the truth', () => {
  it('zh: no registry, no key → two failures that say what to do; the CLI runs', async () => {
    config('zh', fakeCli);
    const r = await cli(['doctor']);
    expect(r.code).toBe(1);
    expect(row(r.stdout, /会话索引/)).toBe(
      '❌ 会话索引: 尚未初始化（找不到 ~/.cc-linker/registry.json）— 运行 cc-linker init',
    );
    expect(row(r.stdout, /AI 对话模型 deepseek/)).toBe(
      '❌ AI 对话模型 deepseek: 环境变量 DEEPSEEK_API_KEY 未设置 — 在启动 cc-linker 的 shell（或服务的环境）中设置 DEEPSEEK_API_KEY；key 不要写进配置文件',
    );
    expect(row(r.stdout, /ChainlessChain CLI/)).toBe('✅ ChainlessChain CLI: 0.165.7（AI 对话可以查询本地数据）');
    expect(r.stdout).toContain('2 项检查未通过');
    expect(r.stdout).not.toContain('全部检查通过');
    // What the doctor warned about is exactly why `list` fails.
    const list = await cli(['list']);
    expect(list.code).not.toBe(0);
    expect(list.stderr).toContain('cc-linker init');
  });

  it('after init and with the key set: all checks pass, and the key is never printed', async () => {
    config('en', fakeCli);
    expect((await cli(['init'])).code).toBe(0);
    const r = await cli(['doctor'], { DEEPSEEK_API_KEY: SECRET });
    expect(row(r.stdout, /Session registry/)).toBe('✅ Session registry: ~/.cc-linker/registry.json');
    expect(row(r.stdout, /AI chat model/)).toBe('✅ AI chat model deepseek: deepseek-chat; DEEPSEEK_API_KEY is set');
    expect(row(r.stdout, /ChainlessChain CLI/)).toBe(
      '✅ ChainlessChain CLI: 0.165.7 (the AI chat can query local data)',
    );
    expect(r.stdout).toContain('All checks passed');
    expect(r.code).toBe(0);
    const json = await cli(['doctor', '--json'], { DEEPSEEK_API_KEY: SECRET });
    expect(JSON.parse(json.stdout)).toMatchObject({ ok: true });
    expect(r.stdout + r.stderr + json.stdout).not.toContain(SECRET);
  });

  it('a configured model and a CLI that cannot run: a failure with what to do', async () => {
    config('en', [path.join(tmp, 'no-such-chainlesschain')]);
    const r = await cli(['doctor'], { DEEPSEEK_API_KEY: SECRET });
    expect(row(r.stdout, /ChainlessChain CLI/)).toBe(
      `❌ ChainlessChain CLI not found (${path.join(tmp, 'no-such-chainlesschain')}); the cc_exec tool is off. Install chainlesschain or set its path in [ccexec] cli.`,
    );
    expect(r.stdout).toContain('1 checks failed');
    expect(r.code).toBe(1);
  });
});
