import type { BuiltinAcpAgent } from '../core/agent-names.js';
import type { Config } from '../core/config-schema.js';
import { resolvePaths } from '../core/paths.js';
import { agentEnvFor } from './agent-env.js';
import { agentProfile } from './agent-profiles.js';
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

/**
 * `paths` with each built-in agent's session directory where that agent, started by cc-linker,
 * keeps it: a profile's `env` (`CODEX_HOME = "~/.codex-work"`) moves where the registry scans and
 * where the console reads transcripts, not only where new sessions are found.
 */
export function agentScanPaths<P extends AgentDirs>(paths: P, config: Config, env: NodeJS.ProcessEnv): P {
  const dirOf = (name: BuiltinAcpAgent): AgentDirs | null => {
    const profile = agentProfile(config, name);
    return profile ? agentDirsFor(agentEnvFor(profile, env, config)) : null;
  };
  return {
    ...paths,
    codexHome: dirOf('codex')?.codexHome ?? paths.codexHome,
    geminiHome: dirOf('gemini')?.geminiHome ?? paths.geminiHome,
    qwenHome: dirOf('qwen')?.qwenHome ?? paths.qwenHome,
    opencodeDataDir: dirOf('opencode')?.opencodeDataDir ?? paths.opencodeDataDir,
  };
}
