import { describe, expect, it } from 'vitest';
import { buildClaudeEnv } from './claude-env.js';

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

describe('buildClaudeEnv and redaction', () => {
  it('registers the secret-named values it passes on, so Claude echoing them never leaks', async () => {
    const { redact, clearSecrets } = await import('../core/redact.js');
    buildClaudeEnv({ PATH: '/bin', ANTHROPIC_AUTH_TOKEN: 'proxy-tok-0123456789' });
    expect(redact('upstream said proxy-tok-0123456789 is bad')).toBe('upstream said *** is bad');
    clearSecrets();
  });
});
