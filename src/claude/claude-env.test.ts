import { describe, expect, it } from 'vitest';
import { defaultConfig } from '../core/default-config.js';
import { buildClaudeEnv, claudeEnvFor } from './claude-env.js';

describe('buildClaudeEnv', () => {
  const source = {
    PATH: '/bin',
    HOME: '/h',
    LANG: 'zh_CN.UTF-8',
    LC_ALL: 'C',
    TERM: 'xterm',
    ANTHROPIC_API_KEY: 'k',
    ANTHROPIC_BASE_URL: 'http://x',
    CLAUDE_CONFIG_DIR: '/c',
    CLAUDE_CODE_USE_BEDROCK: '1',
    HTTPS_PROXY: 'http://p',
    DISABLE_TELEMETRY: '1',
    AWS_REGION: 'us',
    SSH_AUTH_SOCK: '/s',
    CC_LINKER_FEISHU_APP_SECRET: 'secret',
    CC_LINKER_HOME: '/x',
    OPENAI_API_KEY: 'o',
    GITHUB_TOKEN: 'g',
    JAVA_HOME: '/j',
    MYTOOL_A: 'a',
    UNDEF: undefined,
  };

  it('keeps the allowlist and drops everything else, cc-linker settings first of all', () => {
    expect(Object.keys(buildClaudeEnv(source)).sort()).toEqual([
      'ANTHROPIC_API_KEY',
      'ANTHROPIC_BASE_URL',
      'AWS_REGION',
      'CLAUDE_CODE_USE_BEDROCK',
      'CLAUDE_CONFIG_DIR',
      'DISABLE_TELEMETRY',
      'HOME',
      'HTTPS_PROXY',
      'LANG',
      'LC_ALL',
      'PATH',
      'SSH_AUTH_SOCK',
      'TERM',
    ]);
  });

  it('extra names (exact or PREFIX_*) are added; deny names and CC_LINKER_* can never be', () => {
    const env = buildClaudeEnv(source, {
      extraNames: ['JAVA_HOME', 'MYTOOL_*', 'CC_LINKER_HOME'],
      denyNames: ['AWS_REGION'],
    });
    expect(env.JAVA_HOME).toBe('/j');
    expect(env.MYTOOL_A).toBe('a');
    expect(env.CC_LINKER_HOME).toBeUndefined();
    expect(env.AWS_REGION).toBeUndefined();
    expect(env.GITHUB_TOKEN).toBeUndefined();
  });
});

/** Credentials a developer's shell commonly holds; none is Claude Code's business by default. */
const planted = {
  PATH: '/bin',
  HOME: '/h',
  AWS_ACCESS_KEY_ID: 'AKIA1',
  AWS_SECRET_ACCESS_KEY: 'aws-secret',
  AWS_SESSION_TOKEN: 'aws-session',
  AWS_REGION: 'us-east-1',
  AWS_PROFILE: 'dev',
  AWS_BEARER_TOKEN_BEDROCK: 'bedrock-key',
  AWS_CONFIG_FILE: '/h/.aws/config',
  AWS_SHARED_CREDENTIALS_FILE: '/h/.aws/credentials',
  AWS_ROLE_ARN: 'arn:aws:iam::1:role/x',
  GOOGLE_APPLICATION_CREDENTIALS: '/h/gcp.json',
  GOOGLE_CLOUD_PROJECT: 'p',
  GCLOUD_PROJECT: 'p',
  CLOUD_ML_REGION: 'us-east5',
  VERTEX_REGION_CLAUDE_4_5_SONNET: 'europe-west1',
  VERTEX_AI_TOKEN: 'v',
  GITHUB_TOKEN: 'gh',
  NPM_TOKEN: 'npm',
  DB_PASSWORD: 'pw',
  MCP_TIMEOUT: '30000',
  MCP_TOOL_TIMEOUT: '60000',
  MCP_OAUTH_CALLBACK_PORT: '8765',
  MCP_CLIENT_SECRET: 'mcp-secret',
  MCP_SERVER_TOKEN: 'mcp-token',
};
const AWS_FOR_BEDROCK = [
  'AWS_ACCESS_KEY_ID',
  'AWS_BEARER_TOKEN_BEDROCK',
  'AWS_CONFIG_FILE',
  'AWS_PROFILE',
  'AWS_REGION',
  'AWS_SECRET_ACCESS_KEY',
  'AWS_SESSION_TOKEN',
  'AWS_SHARED_CREDENTIALS_FILE',
];
const GOOGLE_FOR_VERTEX = [
  'CLOUD_ML_REGION',
  'GCLOUD_PROJECT',
  'GOOGLE_APPLICATION_CREDENTIALS',
  'GOOGLE_CLOUD_PROJECT',
  'VERTEX_REGION_CLAUDE_4_5_SONNET',
];
const BASE = ['HOME', 'MCP_OAUTH_CALLBACK_PORT', 'MCP_TIMEOUT', 'MCP_TOOL_TIMEOUT', 'PATH'];

describe('buildClaudeEnv and the cloud providers', () => {
  it('passes no cloud credential, token or password when no provider is selected; only the documented MCP settings', () => {
    expect(Object.keys(buildClaudeEnv(planted)).sort()).toEqual(BASE);
  });

  it('CLAUDE_CODE_USE_BEDROCK (truthy as Claude Code reads it) passes the AWS variables Bedrock needs, nothing else', () => {
    for (const on of ['1', 'true', 'TRUE', ' yes ', 'on']) {
      const env = buildClaudeEnv({ ...planted, CLAUDE_CODE_USE_BEDROCK: on });
      expect(Object.keys(env).sort(), on).toEqual([...AWS_FOR_BEDROCK, 'CLAUDE_CODE_USE_BEDROCK', ...BASE].sort());
    }
    for (const off of ['0', 'false', '', 'no', 'off', 'bedrock'])
      expect(Object.keys(buildClaudeEnv({ ...planted, CLAUDE_CODE_USE_BEDROCK: off })).sort(), off).toEqual(
        ['CLAUDE_CODE_USE_BEDROCK', ...BASE].sort(),
      );
  });

  it('CLAUDE_CODE_USE_VERTEX passes the Google variables Vertex needs, never the AWS ones', () => {
    const env = buildClaudeEnv({ ...planted, CLAUDE_CODE_USE_VERTEX: '1' });
    expect(Object.keys(env).sort()).toEqual([...GOOGLE_FOR_VERTEX, 'CLAUDE_CODE_USE_VERTEX', ...BASE].sort());
  });
});

describe('claudeEnvFor (the engine and doctor)', () => {
  it('adds claude.env_allow (exact or PREFIX_*), never CC_LINKER_* or a cc_exec provider key, even listed', () => {
    const config = defaultConfig();
    config.ccexec.providers = {
      acme: { kind: 'openai-compatible', base_url: '', api_key_env: 'ACME_LLM_KEY', model: 'm' },
      claude: { kind: 'anthropic', base_url: '', api_key_env: 'ANTHROPIC_API_KEY', model: 'm' },
    };
    const source = {
      ...planted,
      ACME_LLM_KEY: 'acme',
      ANTHROPIC_API_KEY: 'k',
      CC_LINKER_FEISHU_APP_SECRET: 'f',
      CC_LINKER_HOME: '/c',
      JAVA_HOME: '/j',
    };
    expect(Object.keys(claudeEnvFor(config, source)).sort()).toEqual(['ANTHROPIC_API_KEY', ...BASE].sort());
    config.claude.env_allow = ['GITHUB_TOKEN', 'JAVA_*', 'ACME_LLM_KEY', 'CC_LINKER_*', 'CC_LINKER_HOME'];
    expect(Object.keys(claudeEnvFor(config, source)).sort()).toEqual(
      ['ANTHROPIC_API_KEY', 'GITHUB_TOKEN', 'JAVA_HOME', ...BASE].sort(),
    );
  });

  it('an allow-listed AWS_* passes AWS variables without Bedrock selected (the user asked for them)', () => {
    const config = defaultConfig();
    config.claude.env_allow = ['AWS_*'];
    expect(Object.keys(claudeEnvFor(config, planted)).filter((n) => n.startsWith('AWS_')).length).toBe(9);
  });
});

describe('buildClaudeEnv and redaction', () => {
  it('registers the secret-named values it passes on, so Claude echoing them never leaks', async () => {
    const { redact, clearSecrets } = await import('../core/redact.js');
    buildClaudeEnv({ PATH: '/bin', ANTHROPIC_AUTH_TOKEN: 'proxy-tok-0123456789' });
    expect(redact('upstream said proxy-tok-0123456789 is bad')).toBe('upstream said *** is bad');
    clearSecrets();
  });
});
