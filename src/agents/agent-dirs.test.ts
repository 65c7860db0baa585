import { describe, expect, it } from 'vitest';
import { agentDirsFor } from './agent-dirs.js';

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
