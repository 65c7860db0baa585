import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkCcexecCli } from './check-ccexec-cli.js';
import { loadConfig } from './config.js';
import { ConfigError } from './config-error.js';
import { resolvePaths, type Paths } from './paths.js';

describe('checkCcexecCli', () => {
  it.each([
    [['chainlesschain']],
    [['chainlesschain', '--no-color']],
    [['/usr/local/bin/chainlesschain']],
    [['/opt/cc/bin/cc']], // an absolute path is taken at its word; the version check judges it
    [['node', '/opt/chainlesschain/bin/chainlesschain.js']],
    [['node', 'packages/cli/bin/chainlesschain.mjs']],
    [['node', '/x/entry.cjs']],
    [['/usr/bin/node', '/opt/chainlesschain/bin/chainlesschain.js']],
  ])('%j is accepted', (cli) => {
    expect(checkCcexecCli(cli)).toBeNull();
  });

  it.each<[string[], RegExp, RegExp]>([
    [
      ['cc'],
      /^"cc" is the C compiler on Linux and macOS, not the ChainlessChain CLI; use \["chainlesschain"\]/,
      /^"cc" 是 Linux 和 macOS 上的 C 编译器/,
    ],
    [['gcc'], /^"gcc" would be looked up on PATH and is not the ChainlessChain CLI/, /^"gcc" 会在 PATH 中查找/],
    [['python3', 'x.py'], /^"python3" would be looked up on PATH/, /^"python3" 会在 PATH 中查找/],
    [['clc'], /^"clc" would be looked up on PATH/, /^"clc" 会在 PATH 中查找/],
    [['node'], /^"node" must be followed by the CLI's entry script/, /^"node" 后面必须是 CLI 的入口脚本/],
    [['node', '-e', 'x'], /^"node" must be followed/, /^"node" 后面必须是/],
    [['bin/chainlesschain'], /^"bin\/chainlesschain" is a relative path/, /^"bin\/chainlesschain" 是相对路径/],
    [['~/bin/chainlesschain'], /is a relative path/, /是相对路径/],
    [[''], /must not be empty/, /不能为空/],
    [['node', ''], /must not be empty/, /不能为空/],
  ])('%j is refused, saying why in both languages', (cli, en, zh) => {
    const problem = checkCcexecCli(cli);
    expect(problem?.en).toMatch(en);
    expect(problem?.zh).toMatch(zh);
    for (const text of [problem?.en, problem?.zh])
      expect(text).toContain('["node", "/path/to/chainlesschain/bin/chainlesschain.js"]');
  });
});

describe('loadConfig and ccexec.cli', () => {
  let dir: string;
  let paths: Paths;
  beforeEach(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'cc-linker-cli-rule-'));
    paths = resolvePaths({ HOME: dir, CC_LINKER_HOME: path.join(dir, 'cch') });
    await fs.mkdir(paths.home, { recursive: true });
  });
  afterEach(async () => {
    await fs.rm(dir, { recursive: true, force: true });
  });

  const failure = async (toml: string, env: NodeJS.ProcessEnv = {}): Promise<ConfigError> => {
    await fs.writeFile(paths.configFile, toml);
    const err = await loadConfig({ paths, env }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ConfigError);
    return err as ConfigError;
  };

  it('refuses cc with exit 78, in the language the file asks for (Chinese by default), both kept', async () => {
    const zh = await failure('[ccexec]\ncli = ["cc"]\n');
    expect(zh.exitCode).toBe(78);
    expect(zh.userMessage).toBe(`${paths.configFile}：ccexec.cli = ["cc"] 无效：${checkCcexecCli(['cc'])?.zh}`);
    expect(zh.localize('en')).toBe(
      `${paths.configFile}: ccexec.cli = ["cc"] is invalid: ${checkCcexecCli(['cc'])?.en}`,
    );
    const en = await failure('[general]\nlanguage = "en"\n[ccexec]\ncli = ["cc"]\n');
    expect(en.userMessage).toBe(en.localize('en'));
    expect(en.localize('zh')).toBe(zh.userMessage);
    const byEnv = await failure('[ccexec]\ncli = ["gcc"]\n', { CC_LINKER_LANGUAGE: 'en' });
    expect(byEnv.userMessage).toContain('"gcc" would be looked up on PATH');
  });

  it('other problems keep their English line in a Chinese message', async () => {
    const err = await failure('[runtime]\nmax_concurrent_sessions = "five"\n[ccexec]\ncli = ["python3", "x.py"]\n');
    const lines = err.userMessage.split('\n');
    expect(lines[0]).toBe(
      `${paths.configFile}: runtime.max_concurrent_sessions = "five" is invalid: expected an integer ≥ 1`,
    );
    expect(lines[1]).toContain('ccexec.cli = ["python3","x.py"] 无效："python3" 会在 PATH 中查找');
  });

  it('accepts the default, an absolute path and node with an entry script', async () => {
    for (const cli of [
      '["chainlesschain"]',
      '["/opt/cc/bin/chainlesschain"]',
      '["node", "/opt/cc/bin/chainlesschain.js"]',
    ]) {
      await fs.writeFile(paths.configFile, `[ccexec]\ncli = ${cli}\n`);
      const { config } = await loadConfig({ paths, env: {} });
      expect(config.ccexec.cli).toEqual(JSON.parse(cli));
    }
  });
});
