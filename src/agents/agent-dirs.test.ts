import { describe, expect, it } from 'vitest';
import { defaultConfig } from '../core/default-config.js';
import { resolvePaths } from '../core/paths.js';
import { agentDirsFor, agentScanPaths } from './agent-dirs.js';

describe('agentDirsFor', () => {
  it('takes the agent child environment: a profile CODEX_HOME and XDG_DATA_HOME move the session dirs', () => {
    expect(
      agentDirsFor({ HOME: '/home/u', CODEX_HOME: '/data/codex', XDG_DATA_HOME: '/data/xdg', CC_LINKER_HOME: '/x' }),
    ).toEqual({
      codexHome: '/data/codex',
      geminiHome: '/home/u/.gemini',
      qwenHome: '/home/u/.qwen',
      opencodeDataDir: '/data/xdg/opencode',
    });
  });

  it('defaults under the HOME the agent gets', () => {
    expect(agentDirsFor({ HOME: '/home/agent' })).toEqual({
      codexHome: '/home/agent/.codex',
      geminiHome: '/home/agent/.gemini',
      qwenHome: '/home/agent/.qwen',
      opencodeDataDir: '/home/agent/.local/share/opencode',
    });
  });
});

describe('agentScanPaths', () => {
  it("moves an agent's session directory where its profile env puts it; the others stay", () => {
    const env = { HOME: '/home/u', CODEX_HOME: '/home/u/.codex-own' };
    const paths = resolvePaths(env);
    const config = defaultConfig();
    config.agents.profiles.codex = { kind: 'acp', env: { CODEX_HOME: '/work/codex-home' }, env_pass: [] };
    const moved = agentScanPaths(paths, config, env);
    expect(moved.codexHome).toBe('/work/codex-home');
    expect(moved.qwenHome).toBe(paths.qwenHome);
    expect(moved.registryFile).toBe(paths.registryFile);
    // Without a profile env the agent keeps the CODEX_HOME it gets from cc-linker's environment.
    expect(agentScanPaths(paths, defaultConfig(), env).codexHome).toBe('/home/u/.codex-own');
  });
});
