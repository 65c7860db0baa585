import { describe, expect, it } from 'vitest';
import { defaultConfig } from '../core/default-config.js';
import { claudeEnvFor } from './claude-env.js';

describe('the Slack tokens never reach a Claude Code child', () => {
  it('drops CC_LINKER_SLACK_* even when claude.env_allow names them or their prefix', () => {
    const config = defaultConfig();
    config.claude.env_allow = ['CC_LINKER_SLACK_BOT_TOKEN', 'CC_LINKER_*'];
    const env = claudeEnvFor(config, {
      PATH: '/bin',
      CC_LINKER_SLACK_BOT_TOKEN: 'xoxb-1-secret',
      CC_LINKER_SLACK_APP_TOKEN: 'xapp-1-secret',
    });
    expect(env.PATH).toBe('/bin');
    expect(JSON.stringify(env)).not.toContain('secret');
  });
});
