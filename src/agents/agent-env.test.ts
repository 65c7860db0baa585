import { afterEach, describe, expect, it } from 'vitest';
import { defaultConfig } from '../core/default-config.js';
import { clearSecrets, redact } from '../core/redact.js';
import { agentEnvFor } from './agent-env.js';
import { agentProfile, type AgentProfile } from './agent-profiles.js';

/** What a developer's shell commonly holds, cc-linker's own settings and every agent's variables. */
const source: NodeJS.ProcessEnv = {
  PATH: '/bin',
  HOME: '/h',
  USER: 'u',
  LANG: 'C.UTF-8',
  LC_ALL: 'C',
  TERM: 'xterm',
  SHELL: '/bin/sh',
  TMPDIR: '/t',
  XDG_DATA_HOME: '/h/.local/share',
  HTTPS_PROXY: 'http://p',
  NODE_EXTRA_CA_CERTS: '/ca.pem',
  SSH_AUTH_SOCK: '/s',
  CC_LINKER_FEISHU_APP_SECRET: 'feishu',
  CC_LINKER_HOME: '/c',
  ANTHROPIC_API_KEY: 'anthropic',
  ANTHROPIC_BASE_URL: 'http://a',
  CLAUDE_CONFIG_DIR: '/h/.claude',
  OPENAI_API_KEY: 'openai',
  OPENAI_BASE_URL: 'http://o',
  OPENAI_MODEL: 'm',
  GOOGLE_API_KEY: 'google',
  GOOGLE_APPLICATION_CREDENTIALS: '/gcp.json',
  GOOGLE_CLOUD_PROJECT: 'proj',
  GEMINI_API_KEY: 'gemini',
  CODEX_HOME: '/h/.codex',
  CODEX_API_KEY: 'codex',
  QWEN_HOME: '/h/.qwen',
  OPENCODE_CONFIG: '/h/oc.json',
  AWS_SECRET_ACCESS_KEY: 'aws',
  GITHUB_TOKEN: 'gh',
  MCP_TIMEOUT: '1',
  IS_SANDBOX: '1',
  DISABLE_TELEMETRY: '1',
  UNDEF: undefined,
};
const BASE = [
  'HOME',
  'HTTPS_PROXY',
  'LANG',
  'LC_ALL',
  'NODE_EXTRA_CA_CERTS',
  'PATH',
  'SHELL',
  'SSH_AUTH_SOCK',
  'TERM',
  'TMPDIR',
  'USER',
  'XDG_DATA_HOME',
];
const names = (env: NodeJS.ProcessEnv) => Object.keys(env).sort();
const builtin = (name: string) => agentProfile(defaultConfig(), name) as AgentProfile;

describe('agentEnvFor', () => {
  afterEach(clearSecrets);

  it.each([
    ['codex', ['CODEX_API_KEY', 'CODEX_HOME']],
    ['gemini', ['GEMINI_API_KEY', 'GEMINI_TELEMETRY_ENABLED', 'GOOGLE_CLOUD_PROJECT']],
    ['qwen', ['OPENAI_BASE_URL', 'OPENAI_MODEL', 'QWEN_HOME']],
    ['opencode', ['OPENCODE_CONFIG', 'OPENCODE_DISABLE_AUTOUPDATE', 'OPENCODE_DISABLE_SHARE']],
  ])('%s: the base, its own variables and settings; no shared key, no Claude, no cc-linker', (name, own) => {
    const env = agentEnvFor(builtin(name), source, defaultConfig());
    expect(names(env)).toEqual([...BASE, ...own].sort());
  });

  it('the built-in settings are set (OpenCode no auto-update / no share, Gemini telemetry off)', () => {
    expect(agentEnvFor(builtin('opencode'), {}, defaultConfig())).toEqual({
      OPENCODE_DISABLE_AUTOUPDATE: '1',
      OPENCODE_DISABLE_SHARE: '1',
    });
    expect(agentEnvFor(builtin('gemini'), { GEMINI_TELEMETRY_ENABLED: 'true' }, defaultConfig())).toEqual({
      GEMINI_TELEMETRY_ENABLED: 'false',
    });
  });

  it('env_pass copies exactly the named variables; env sets values; both on top of the rest', () => {
    const config = defaultConfig();
    config.agents.profiles.qwen = {
      kind: 'acp',
      env: { QWEN_HOME: '/elsewhere', EXTRA: 'x' },
      env_pass: ['OPENAI_API_KEY', 'GITHUB_TOKEN', 'NOT_SET'],
    };
    const env = agentEnvFor(agentProfile(config, 'qwen') as AgentProfile, source, config);
    expect(names(env)).toEqual(
      [...BASE, 'EXTRA', 'GITHUB_TOKEN', 'OPENAI_API_KEY', 'OPENAI_BASE_URL', 'OPENAI_MODEL', 'QWEN_HOME'].sort(),
    );
    expect(env.QWEN_HOME).toBe('/elsewhere');
    expect(env.OPENAI_API_KEY).toBe('openai');
  });

  it('never CC_LINKER_*, a cc_exec provider key or ANTHROPIC_* / CLAUDE_*, even when listed or allowed', () => {
    const config = defaultConfig();
    config.ccexec.providers = {
      work: { kind: 'openai-compatible', base_url: '', api_key_env: 'CODEX_API_KEY', model: 'm' },
    };
    const profile: AgentProfile = {
      ...builtin('codex'),
      env: { CC_LINKER_HOME: '/x' },
      envPass: ['CC_LINKER_FEISHU_APP_SECRET', 'ANTHROPIC_API_KEY', 'CLAUDE_CONFIG_DIR', 'CODEX_API_KEY'],
      envAllow: ['CODEX_*', 'ANTHROPIC_*', 'CC_LINKER_*'],
    };
    const env = agentEnvFor(profile, source, config);
    expect(names(env)).toEqual([...BASE, 'CODEX_HOME'].sort());
  });

  it('a configured agent gets only the base, its env and its env_pass', () => {
    const profile: AgentProfile = {
      name: 'mine',
      kind: 'acp',
      label: 'mine',
      command: ['mine'],
      env: { MINE_MODE: 'acp' },
      envPass: ['GITHUB_TOKEN'],
      envAllow: [],
      install: '',
      builtin: false,
    };
    expect(names(agentEnvFor(profile, source, defaultConfig()))).toEqual([...BASE, 'GITHUB_TOKEN', 'MINE_MODE'].sort());
  });

  it('secret-named values passed on are registered, so the agent echoing them never leaks', () => {
    clearSecrets();
    agentEnvFor(builtin('gemini'), { GEMINI_API_KEY: 'gemini-key-0123456789' }, defaultConfig());
    expect(redact('the API said gemini-key-0123456789 is invalid')).toBe('the API said *** is invalid');
  });
});
