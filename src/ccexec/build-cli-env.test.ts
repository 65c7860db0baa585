import { describe, expect, it } from 'vitest';
import { buildCliEnv, isSecretEnvName, SECRET_PREFIXES } from './build-cli-env.js';

describe('buildCliEnv', () => {
  it('keeps the allowlist and locale variables, drops everything else, forces no colour', () => {
    const env = buildCliEnv({
      PATH: '/usr/bin',
      HOME: '/home/u',
      USER: 'u',
      LANG: 'zh_CN.UTF-8',
      LC_ALL: 'zh_CN.UTF-8',
      LC_CTYPE: 'C',
      TZ: 'Asia/Shanghai',
      TMPDIR: '/tmp',
      XDG_CONFIG_HOME: '/home/u/.config',
      CC_PROJECT_ROOT: '/p',
      CHAINLESSCHAIN_HOME: '/c',
      NODE_OPTIONS: '--import tsx',
      SHELL: '/bin/bash',
      RANDOM_THING: 'x',
      UNDEF: undefined,
    });
    expect(env).toEqual({
      PATH: '/usr/bin',
      HOME: '/home/u',
      USER: 'u',
      LANG: 'zh_CN.UTF-8',
      LC_ALL: 'zh_CN.UTF-8',
      LC_CTYPE: 'C',
      TZ: 'Asia/Shanghai',
      TMPDIR: '/tmp',
      XDG_CONFIG_HOME: '/home/u/.config',
      CC_PROJECT_ROOT: '/p',
      CHAINLESSCHAIN_HOME: '/c',
      NO_COLOR: '1',
      FORCE_COLOR: '0',
    });
  });

  it('passes extra allowed names but never a secret, even when allowlisted', () => {
    const parent = {
      PATH: '/bin',
      FOO: 'x',
      OPENAI_API_KEY: 'sk-a',
      CC_UI_TOKEN: 't',
      MY_SECRET: 's',
      GH_TOKEN: 'g',
      DB_PASSWORD: 'p',
      ARK_API_KEY: 'k',
    };
    const env = buildCliEnv(parent, [
      'FOO',
      'OPENAI_API_KEY',
      'CC_UI_TOKEN',
      'MY_SECRET',
      'GH_TOKEN',
      'DB_PASSWORD',
      'ARK_API_KEY',
      'NODE_OPTIONS',
    ]);
    expect(env).toEqual({ PATH: '/bin', FOO: 'x', NO_COLOR: '1', FORCE_COLOR: '0' });
  });

  it('removes cloud and service credentials, listed or not; never CC_LINKER_* or a deny name either', () => {
    const parent = {
      PATH: '/bin',
      AWS_SECRET_ACCESS_KEY: 'a',
      AWS_SESSION_TOKEN: 'b',
      GOOGLE_APPLICATION_CREDENTIALS: '/c.json',
      GITHUB_TOKEN: 'd',
      NPM_TOKEN: 'e',
      DB_PASSWORD: 'f',
      CC_LINKER_FEISHU_APP_SECRET: 'g',
      CC_LINKER_HOME: '/h',
      ACME_LLM_KEY: 'i',
      FOO: 'x',
    };
    const all = Object.keys(parent);
    expect(buildCliEnv(parent)).toEqual({ PATH: '/bin', NO_COLOR: '1', FORCE_COLOR: '0' });
    expect(buildCliEnv(parent, all, ['ACME_LLM_KEY'])).toEqual({
      PATH: '/bin',
      FOO: 'x',
      NO_COLOR: '1',
      FORCE_COLOR: '0',
    });
  });

  it('does not modify the parent environment', () => {
    const parent = { PATH: '/bin', OPENAI_API_KEY: 'sk' };
    buildCliEnv(parent);
    expect(parent).toEqual({ PATH: '/bin', OPENAI_API_KEY: 'sk' });
  });
});

describe('isSecretEnvName', () => {
  it.each([
    ...SECRET_PREFIXES.map((p) => `${p}X`),
    'ARK_API_KEY',
    'x_token',
    'FOO_SECRET',
    'AWS_SECRET_ACCESS_KEY',
    'GITHUB_TOKEN',
    'PGPASSWORD',
    'openai_base_url',
  ])('%s is secret', (name) => {
    expect(isSecretEnvName(name)).toBe(true);
  });
  it.each(['PATH', 'HOME', 'LANG', 'LC_ALL', 'XDG_CONFIG_HOME', 'CHAINLESSCHAIN_HOME', 'EDITOR'])(
    '%s is not secret',
    (name) => {
      expect(isSecretEnvName(name)).toBe(false);
    },
  );
});
