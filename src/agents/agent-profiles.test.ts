import { describe, expect, it } from 'vitest';
import { BUILTIN_ACP_AGENTS } from '../core/agent-names.js';
import { defaultConfig } from '../core/default-config.js';
import { agentNames, agentProfile, agentProfiles, BUILTIN_PROFILES } from './agent-profiles.js';

describe('agent profiles', () => {
  it('with no [agents] tables: the four built-ins, in order, each with its command and install line', () => {
    const profiles = agentProfiles(defaultConfig());
    expect(profiles.map((p) => [p.name, p.label, p.command.join(' '), p.install])).toEqual([
      ['codex', 'Codex', 'codex-acp', 'npm i -g @zed-industries/codex-acp'],
      ['gemini', 'Gemini CLI', 'gemini --acp', 'npm i -g @google/gemini-cli'],
      ['qwen', 'Qwen Code', 'qwen --acp --approval-mode default', 'npm i -g @qwen-code/qwen-code'],
      ['opencode', 'OpenCode', 'opencode acp --pure', 'npm i -g opencode-ai'],
    ]);
    expect(Object.keys(BUILTIN_PROFILES)).toEqual([...BUILTIN_ACP_AGENTS]);
    expect(profiles.every((p) => p.kind === 'acp' && p.builtin)).toBe(true);
    expect(agentProfile(defaultConfig(), 'opencode')?.env).toEqual({
      OPENCODE_DISABLE_AUTOUPDATE: '1',
      OPENCODE_DISABLE_SHARE: '1',
    });
  });

  it('a table overrides a built-in: command replaced, env merged over the built-in, env_pass added', () => {
    const config = defaultConfig();
    config.agents.profiles.opencode = {
      kind: 'acp',
      command: ['/opt/opencode', 'acp'],
      env: { OPENCODE_DISABLE_SHARE: '0', XY: '1' },
      env_pass: ['OPENROUTER_API_KEY', 'OPENROUTER_API_KEY'],
    };
    const p = agentProfile(config, 'opencode');
    expect(p?.command).toEqual(['/opt/opencode', 'acp']);
    expect(p?.env).toEqual({ OPENCODE_DISABLE_AUTOUPDATE: '1', OPENCODE_DISABLE_SHARE: '0', XY: '1' });
    expect(p?.envPass).toEqual(['OPENROUTER_API_KEY']);
    expect(p?.label).toBe('OpenCode');
    // The built-in table itself is never changed by a merge.
    expect(BUILTIN_PROFILES.opencode.command).toEqual(['opencode', 'acp', '--pure']);
  });

  it('a configured agent follows the built-ins; its label is its name; nothing of its own passes by default', () => {
    const config = defaultConfig();
    config.agents.profiles.zed = { kind: 'acp', command: ['zagent', '--acp'], env: { A: '1' }, env_pass: ['K'] };
    config.agents.profiles.acme = { kind: 'acp', command: ['acme'], env: {}, env_pass: [] };
    const profiles = agentProfiles(config);
    expect(profiles.map((p) => p.name)).toEqual(['codex', 'gemini', 'qwen', 'opencode', 'acme', 'zed']);
    expect(agentNames(config)).toEqual(['claude', 'codex', 'gemini', 'qwen', 'opencode', 'acme', 'zed']);
    expect(agentProfile(config, 'zed')).toEqual({
      name: 'zed',
      kind: 'acp',
      label: 'zed',
      command: ['zagent', '--acp'],
      env: { A: '1' },
      envPass: ['K'],
      envAllow: [],
      install: '',
      builtin: false,
    });
  });

  it('unknown names and claude are not profiles', () => {
    expect(agentProfile(defaultConfig(), 'nope')).toBeNull();
    expect(agentProfile(defaultConfig(), 'claude')).toBeNull();
  });
});
