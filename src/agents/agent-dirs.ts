import { resolvePaths } from '../core/paths.js';
import type { AgentDirs } from '../sessions/scan/agent-files/agent-reader.js';

/**
 * Where the agents keep their sessions as an agent child sees it: from the environment it is
 * started with (`agentEnvFor`), so a profile's `env` (`CODEX_HOME`, `HOME`, `XDG_DATA_HOME`) moves
 * them, as it moves what the agent writes. cc-linker's own environment may not name them at all.
 *
 * @example agentDirsFor({ HOME: '/home/u', CODEX_HOME: '/data/codex' }).codexHome // '/data/codex'
 */
export function agentDirsFor(agentEnv: NodeJS.ProcessEnv): AgentDirs {
  const p = resolvePaths(agentEnv);
  return { codexHome: p.codexHome, geminiHome: p.geminiHome, qwenHome: p.qwenHome, opencodeDataDir: p.opencodeDataDir };
}
