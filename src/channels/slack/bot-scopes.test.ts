import { describe, expect, it } from 'vitest';
import { BOT_SCOPES, describeScopes, missingBotScopes, missingScopesStatus, missingScopesText } from './bot-scopes.js';

describe('the bot scopes the Slack channel needs', () => {
  const all = Object.keys(BOT_SCOPES);

  it('finds none missing when all are granted, in any order and with extra scopes', () => {
    expect(missingBotScopes([...all].reverse().concat('users:read'))).toEqual([]);
  });

  it('names each missing scope in the list order; none granted means all missing', () => {
    const granted = all.filter((s) => s !== 'files:read' && s !== 'commands');
    expect(missingBotScopes(granted)).toEqual(['files:read', 'commands']);
    expect(missingBotScopes([])).toEqual(all);
    // The Web API client splits an empty header into one empty string.
    expect(missingBotScopes([''])).toEqual(all);
  });

  it('cannot tell without the header: undefined, never "all missing"', () => {
    expect(missingBotScopes(undefined)).toBeUndefined();
  });

  it('says what each is for and how to add it, in both languages', () => {
    expect(describeScopes(['files:read', 'commands'], 'en')).toBe(
      'files:read (files you send), commands (the /cc command)',
    );
    expect(describeScopes(['files:read', 'commands'], 'zh')).toBe(
      'files:read（你发送的图片与文件）、commands（/cc 命令）',
    );
    const en = missingScopesText(['files:read'], 'en');
    expect(en).toContain('files:read (files you send)');
    expect(en).toContain('OAuth & Permissions → Bot Token Scopes');
    expect(en).toContain('reinstall the app');
    expect(en).toContain('docs/slack-app-manifest.yaml');
    const zh = missingScopesText(['files:read'], 'zh');
    expect(zh).toContain('files:read（你发送的图片与文件）');
    expect(zh).toContain('重新安装应用');
  });

  it('says the missing scopes briefly for the status line, in both languages', () => {
    expect(missingScopesStatus(['files:read', 'commands'], 'en')).toBe('missing scopes: files:read, commands');
    expect(missingScopesStatus(['files:read', 'commands'], 'zh')).toBe('缺少权限：files:read、commands');
  });
});
