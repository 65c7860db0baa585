import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from './config.js';
import { ConfigError } from './config-error.js';
import { findUnknownKeys } from './config-validate.js';
import { resolvePaths, type Paths } from './paths.js';

let dir: string;
let paths: Paths;

beforeEach(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'cc-linker-agents-'));
  paths = resolvePaths({ HOME: dir, CC_LINKER_HOME: path.join(dir, 'cch') });
  await fs.mkdir(paths.home, { recursive: true });
});
afterEach(() => fs.rm(dir, { recursive: true, force: true }));

const load = async (toml: string, env: NodeJS.ProcessEnv = {}) => {
  await fs.writeFile(paths.configFile, toml);
  return loadConfig({ paths, env });
};

/**
 * The error for `toml`, in both languages: each one line naming the file and the key. A problem
 * whose reason needs explaining (`bilingual`) is explained in each language; a plain type error is
 * English in both, like every other key's.
 */
async function refused(toml: string, key: string, env: NodeJS.ProcessEnv = {}, bilingual = true) {
  const err = await load(toml, env).then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ConfigError);
  const e = err as ConfigError;
  const zh = e.localize('zh');
  const en = e.localize('en');
  for (const text of [zh, en]) {
    expect(text).toContain(key);
    expect(text.split('\n')).toHaveLength(1);
  }
  if (bilingual) expect(zh).not.toBe(en);
  return { zh, en };
}

describe('[agents]', () => {
  it('defaults: claude, no profiles', async () => {
    const { config } = await loadConfig({ paths, env: {} });
    expect(config.agents).toEqual({ default: 'claude', profiles: {} });
  });

  it('reads the documented example: built-in override, ~ expanded in command and env values', async () => {
    const { config, warnings } = await load(
      [
        '[agents]',
        'default = "codex"',
        '[agents.codex]',
        'kind = "acp"',
        'command = ["~/bin/codex-acp", "-c", "x=~/y"]',
        'env = { CODEX_HOME = "~/.codex", PLAIN = "a~b" }',
        'env_pass = ["OPENAI_API_KEY"]',
        '[agents.my-agent]',
        'command = ["my-agent", "--acp"]',
      ].join('\n'),
    );
    expect(warnings).toEqual([]);
    expect(config.agents.default).toBe('codex');
    expect(config.agents.profiles).toEqual({
      codex: {
        kind: 'acp',
        command: [path.join(dir, 'bin/codex-acp'), '-c', 'x=~/y'],
        env: { CODEX_HOME: path.join(dir, '.codex'), PLAIN: 'a~b' },
        env_pass: ['OPENAI_API_KEY'],
      },
      'my-agent': { kind: 'acp', command: ['my-agent', '--acp'], env: {}, env_pass: [] },
    });
  });

  it('a built-in agent may be default without a table; CC_LINKER_AGENTS_DEFAULT overrides the file', async () => {
    expect((await load('[agents]\ndefault = "qwen"\n')).config.agents.default).toBe('qwen');
    const { config } = await load('[agents]\ndefault = "qwen"\n', { CC_LINKER_AGENTS_DEFAULT: 'gemini' });
    expect(config.agents.default).toBe('gemini');
  });

  it('an unknown default names the agents there are', async () => {
    const { en, zh } = await refused('[agents]\ndefault = "kodex"\n[agents.mine]\ncommand = ["m"]\n', 'agents.default');
    expect(en).toContain('unknown agent "kodex"; known: claude, codex, gemini, qwen, opencode, mine');
    expect(zh).toContain('未知的 agent "kodex"');
  });

  it('an unknown default from the environment names the variable', async () => {
    const { en } = await refused('', 'agents.default', { CC_LINKER_AGENTS_DEFAULT: 'nope' });
    expect(en).toContain('environment CC_LINKER_AGENTS_DEFAULT');
  });

  it('[agents.claude] is refused: claude is the native engine, and the error says what to do instead', async () => {
    const { en, zh } = await refused(
      '[agents.claude]\nkind = "acp"\ncommand = ["claude-agent-acp"]\n',
      'agents.claude',
    );
    expect(en).toContain('built-in Claude Code engine');
    expect(en).toContain('[agents.claude-acp]');
    expect(zh).toContain('内置的 Claude Code 引擎');
  });

  it.each(['Codex', '1agent', 'my_agent', 'a'.repeat(33), 'ü'])('agent name %j is refused', async (name) => {
    const { en } = await refused(`[agents."${name}"]\ncommand = ["x"]\n`, `agents.${name}`);
    expect(en).toContain('an agent name starts with a lower-case letter');
  });

  it('a 32-character name with digits and - is fine', async () => {
    const name = `a${'-1'.repeat(15)}b`;
    expect(name).toHaveLength(32);
    const { config } = await load(`[agents.${name}]\ncommand = ["x"]\n`);
    expect(Object.keys(config.agents.profiles)).toEqual([name]);
  });

  it('a plain key other than default is refused as not a table (e.g. a misspelt default)', async () => {
    const { en } = await refused('[agents]\ndefualt = "codex"\n', 'agents.defualt');
    expect(en).toContain('the only plain key of [agents] is default');
  });

  it('kind other than "acp" is refused', async () => {
    const { en } = await refused('[agents.codex]\nkind = "http"\n', 'agents.codex.kind', {}, false);
    expect(en).toContain('expected one of "acp"');
  });

  it('an agent that is not built in needs a command', async () => {
    const { en, zh } = await refused('[agents.mine]\nenv_pass = ["X"]\n', 'agents.mine.command');
    expect(en).toContain('built in: codex, gemini, qwen, opencode');
    expect(zh).toContain('必须写 command');
  });

  it.each([
    ['command = []', 'expected at least 1 item', false],
    ['command = "codex-acp"', 'expected a list of strings', false],
    ['command = ["codex-acp", ""]', 'must not be empty strings', true],
    ['command = [" "]', 'must not be empty strings', true],
  ])('%s is refused', async (line, expected, bilingual) => {
    const { en } = await refused(`[agents.codex]\n${line}\n`, 'agents.codex.command', {}, bilingual);
    expect(en).toContain(expected);
  });

  it.each([
    ['env = { OPENAI_API_KEY = "sk-live-123" }', 'OPENAI_API_KEY looks like a secret', true],
    ['env = { MY_TOKEN = "t" }', 'MY_TOKEN looks like a secret', true],
    ['env = { CC_LINKER_HOME = "/x" }', "CC_LINKER_HOME: cc-linker's own settings", true],
    ['env = { "1BAD" = "x" }', '"1BAD" is not an environment variable name', true],
    ['env = { "A-B" = "x" }', '"A-B" is not an environment variable name', true],
    ['env = { A = 1 }', 'expected a table of strings', false],
    ['env = "A=1"', 'expected a table of strings', false],
  ])('%s is refused', async (line, expected, bilingual) => {
    const { en } = await refused(`[agents.codex]\n${line}\n`, 'agents.codex.env', {}, bilingual);
    expect(en).toContain(expected);
  });

  it('a secret value in env is never shown in the error', async () => {
    const { en, zh } = await refused(
      '[agents.codex]\nenv = { OPENAI_API_KEY = "sk-planted-0123456789abcdef" }\n',
      'agents.codex.env',
    );
    expect(en + zh).not.toContain('sk-planted');
    expect(en).toContain('{"OPENAI_API_KEY":"(hidden)"}');
  });

  it.each([
    ['env_pass = ["CC_LINKER_FEISHU_APP_SECRET"]', "cc-linker's own settings", true],
    ['env_pass = ["ANTHROPIC_API_KEY"]', "ANTHROPIC_* are Claude's credentials", true],
    ['env_pass = ["OPENAI_*"]', 'is not an environment variable name', true],
    ['env_pass = ["A B"]', 'is not an environment variable name', true],
    ['env_pass = "OPENAI_API_KEY"', 'expected a list of strings', false],
  ])('%s is refused', async (line, expected, bilingual) => {
    const { en } = await refused(`[agents.qwen]\n${line}\n`, 'agents.qwen.env_pass', {}, bilingual);
    expect(en).toContain(expected);
  });

  it("env_pass naming a cc_exec provider's key variable is refused, naming the provider", async () => {
    const { en, zh } = await refused(
      [
        '[ccexec.providers.work]',
        'kind = "openai"',
        'api_key_env = "WORK_OPENAI_KEY"',
        '[agents.codex]',
        'env_pass = ["WORK_OPENAI_KEY"]',
      ].join('\n'),
      'agents.codex.env_pass',
    );
    expect(en).toContain('WORK_OPENAI_KEY is the key variable of cc_exec provider "work"');
    expect(zh).toContain('cc_exec 模型服务 "work"');
  });

  it('a misspelt key inside a profile is a warning with a suggestion, like any other', async () => {
    const { warnings } = await load('[agents.codex]\nenv_pas = ["X"]\n');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain("unknown key 'agents.codex.env_pas'");
    expect(warnings[0]).toContain("did you mean 'agents.codex.env_pass'");
    expect(findUnknownKeys({ agents: { default: 'claude', codex: { kind: 'acp' } } })).toEqual([]);
  });
});
