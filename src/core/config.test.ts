import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from './config.js';
import { ConfigError } from './config-error.js';
import { resolvePaths, type Paths } from './paths.js';
import { clearSecrets, redact } from './redact.js';

let dir: string;
let paths: Paths;

beforeEach(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'cc-linker-config-'));
  paths = resolvePaths({ HOME: dir, CC_LINKER_HOME: path.join(dir, 'cch') });
  await fs.mkdir(paths.home, { recursive: true });
});
afterEach(async () => {
  clearSecrets();
  await fs.rm(dir, { recursive: true, force: true });
});

const write = (text: string) => fs.writeFile(paths.configFile, text);

async function failure(env: NodeJS.ProcessEnv = {}): Promise<ConfigError> {
  const err = await loadConfig({ paths, env }).then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ConfigError);
  return err as ConfigError;
}

describe('loadConfig', () => {
  it('runs on embedded defaults when there is no file', async () => {
    const { config, fileExists, warnings } = await loadConfig({ paths, env: {} });
    expect(fileExists).toBe(false);
    expect(warnings).toEqual([]);
    expect(config.runtime.stale_timeout_ms).toBe(300_000);
    expect(config.queue.worker_concurrency).toBe(5);
    expect(config.stream.throttle_ms).toBe(1500);
    expect(config.feishu_bot.domain).toBe('feishu');
    expect(config.web.port).toBe(9820);
    expect(config.ccexec.cli).toEqual(['chainlesschain']);
  });

  it('expands ~ and follows CC_LINKER_HOME for ~/.cc-linker paths', async () => {
    await write('[feishu_bot]\ndefault_cwd = "~/Git/x"\n');
    const { config } = await loadConfig({ paths, env: {} });
    expect(config.feishu_bot.default_cwd).toBe(path.join(dir, 'Git/x'));
    expect(config.queue.spool_dir).toBe(path.join(dir, 'cch', 'spool'));
    expect(config.security.allowed_roots).toEqual([path.join(dir, 'Git'), path.join(dir, 'Workspace')]);
    expect(config.security.denied_roots).toContain(dir);
  });

  it('warns about an unknown (misspelt) key instead of ignoring it silently', async () => {
    await write('[runtime]\nstale_timout_ms = 5\n[nonsense]\na = 1\n');
    const { warnings, config } = await loadConfig({ paths, env: {} });
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toContain("unknown key 'runtime.stale_timout_ms'");
    expect(warnings[0]).toContain("did you mean 'runtime.stale_timeout_ms'");
    expect(warnings[0]).toContain(paths.configFile);
    expect(config.runtime.stale_timeout_ms).toBe(300_000);
  });

  it('names the file, key, bad value and expectation for a wrong type', async () => {
    await write('[runtime]\nmax_concurrent_sessions = "five"\n');
    const err = await failure();
    expect(err.userMessage).toContain(paths.configFile);
    expect(err.userMessage).toContain('runtime.max_concurrent_sessions');
    expect(err.userMessage).toContain('"five"');
    expect(err.userMessage).toMatch(/expected an integer/i);
  });

  it('reports invalid TOML with its line', async () => {
    await write('[general]\nlog_level = \n');
    const err = await failure();
    expect(err.userMessage).toContain('invalid TOML at line 2');
  });

  it('applies every kind of environment override and prefers it over the file', async () => {
    await write('[runtime]\nmax_concurrent_sessions = 2\n');
    const { config } = await loadConfig({
      paths,
      env: {
        CC_LINKER_MAX_CONCURRENT_SESSIONS: '7',
        CC_LINKER_SDK_ENABLED: 'false',
        CC_LINKER_CLAUDE_ALLOWED_TOOLS: 'Read, Bash(npm test:*)',
        CC_LINKER_FEISHU_DOMAIN: 'lark',
      },
    });
    expect(config.runtime.max_concurrent_sessions).toBe(7);
    expect(config.sdk.enabled).toBe(false);
    expect(config.claude.allowed_tools).toEqual(['Read', 'Bash(npm test:*)']);
    expect(config.feishu_bot.domain).toBe('lark');
  });

  it('names the environment variable when an override is malformed', async () => {
    const err = await failure({ CC_LINKER_STREAM_THROTTLE_MS: 'fast' });
    expect(err.userMessage).toBe(
      'environment CC_LINKER_STREAM_THROTTLE_MS="fast" (sets stream.throttle_ms): expected an integer',
    );
  });

  it('never shows a secret value in an error and redacts it from later output', async () => {
    await write('[feishu_bot]\napp_secret = 12345678\n');
    const err = await failure();
    expect(err.userMessage).toContain('feishu_bot.app_secret = (hidden)');
    expect(err.userMessage).not.toContain('12345678');
    await write('[feishu_bot]\napp_secret = "s3cr3t-value-xyz"\n');
    await loadConfig({ paths, env: {} });
    expect(redact('oops s3cr3t-value-xyz leaked')).toBe('oops *** leaked');
  });

  it('does not echo a value given to a whole section (it may be a secret on the wrong line)', async () => {
    await write('feishu_bot = "p4ste-d-s3cret-value"\n');
    const err = await failure();
    expect(err.userMessage).toContain('feishu_bot = (a string) is invalid: expected a table');
    expect(err.userMessage).not.toContain('p4ste');
  });

  it('rejects a bad feishu domain with what is expected', async () => {
    await write('[feishu_bot]\ndomain = "ftp://x"\n');
    const err = await failure();
    expect(err.userMessage).toContain('feishu_bot.domain = "ftp://x"');
    expect(err.userMessage).toContain('"feishu", "lark" or a base URL');
  });

  it('keeps user-chosen names in free-form tables without warnings', async () => {
    await write(
      '[claude.models]\nsonnet = "claude-sonnet-4-5"\n[ccexec.providers.deepseek]\nkind = "openai-compatible"\nbase_url = "http://127.0.0.1:1"\n',
    );
    const { warnings, config } = await loadConfig({ paths, env: {} });
    expect(warnings).toEqual([]);
    expect(config.claude.models.sonnet).toBe('claude-sonnet-4-5');
    expect(config.ccexec.providers.deepseek?.tools).toBeUndefined();
  });

  it("says so when cc-linker's directory is a file", async () => {
    const home = path.join(dir, 'not-a-dir');
    await fs.writeFile(home, 'x');
    const err = await loadConfig({ paths: resolvePaths({ HOME: dir, CC_LINKER_HOME: home }), env: {} }).then(
      () => null,
      (e: unknown) => e as ConfigError,
    );
    expect(err).toBeInstanceOf(ConfigError);
    expect(err?.userMessage).toBe(
      `${home} is a file, expected cc-linker's directory (move it away, or set CC_LINKER_HOME)`,
    );
    expect(await fs.readFile(home, 'utf8')).toBe('x');
  });

  it('names every bad key in one run, each with where it came from, and leaves the file as it was', async () => {
    const text = '[general]\nlanguage = 5\n[scanner]\nmax_file_size = "big"\n[ccexec.providers.mine]\nmodel = "m"\n';
    await write(text);
    const err = await failure({ CC_LINKER_MAX_CONCURRENT_SESSIONS: '0' });
    const lines = err.userMessage.split('\n');
    expect(lines).toHaveLength(4);
    expect(lines[0]).toBe(`${paths.configFile}: general.language = 5 is invalid: expected one of "zh", "en"`);
    expect(lines[1]).toBe(
      'environment CC_LINKER_MAX_CONCURRENT_SESSIONS: runtime.max_concurrent_sessions = 0 is invalid: expected an integer ≥ 1',
    );
    expect(lines[2]).toMatch(/: scanner\.max_file_size = "big" is invalid: expected an integer/);
    expect(lines[3]).toContain('ccexec.providers.mine.kind');
    expect(err.exitCode).toBe(78);
    expect(await fs.readFile(paths.configFile, 'utf8')).toBe(text);
  });

  it('requires kind in a provider table and names the full key', async () => {
    await write('[ccexec.providers.mine]\nmodel = "m"\n');
    const err = await failure();
    expect(err.userMessage).toContain('ccexec.providers.mine.kind');
    expect(err.userMessage).toContain('is required');
  });

  it('suggests the right section for a misspelt one and rejects a non-list where a list is expected', async () => {
    await write('[securty]\nallowed_roots = []\n');
    const { warnings } = await loadConfig({ paths, env: {} });
    expect(warnings[0]).toContain("unknown key 'securty' is ignored (did you mean 'security'?)");
    await write('[security]\nallowed_roots = "~/Git"\n');
    const err = await failure();
    expect(err.userMessage).toContain('security.allowed_roots = "~/Git" is invalid: expected a list of strings');
  });

  it('claude.env_allow: empty by default, names or PREFIX_* from the file or CC_LINKER_CLAUDE_ENV_ALLOW', async () => {
    expect((await loadConfig({ paths, env: {} })).config.claude.env_allow).toEqual([]);
    await write('[claude]\nenv_allow = ["JAVA_HOME", "MYTOOL_*"]\n');
    expect((await loadConfig({ paths, env: {} })).config.claude.env_allow).toEqual(['JAVA_HOME', 'MYTOOL_*']);
    const { config } = await loadConfig({ paths, env: { CC_LINKER_CLAUDE_ENV_ALLOW: 'GOPATH, GITHUB_TOKEN' } });
    expect(config.claude.env_allow).toEqual(['GOPATH', 'GITHUB_TOKEN']);
    for (const bad of ['"*"', '"A B"', '"X=1"', '"*_TOKEN"']) {
      await write(`[claude]\nenv_allow = [${bad}]\n`);
      const err = await failure();
      expect(err.userMessage).toContain(`claude.env_allow = [${bad}] is invalid: expected environment variable names`);
    }
  });

  it('refuses a config path that is a directory', async () => {
    await fs.mkdir(paths.configFile);
    const err = await failure();
    expect(err.userMessage).toContain('is a directory');
  });
});
