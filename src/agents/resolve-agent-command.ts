import path from 'node:path';
import { expandHome } from '../core/expand-home.js';
import { isExecutable, searchPath } from '../process/find-executable.js';
import { AgentError } from './agent-error.js';
import type { AgentProfile } from './agent-profiles.js';
import { codexNativeBinary } from './codex-native-binary.js';

/**
 * The argv that runs `profile`'s agent, with an absolute program: `~` expanded, a bare name looked
 * up on `env.PATH` (the PATH the agent will get), a relative path made absolute; the codex-acp npm
 * wrapper replaced by its native binary (see `codexNativeBinary`). Throws an `AgentError`
 * `AGENT_NOT_FOUND` naming the command and how to install it when there is no such executable.
 *
 * @example resolveAgentCommand(agentProfile(config, 'qwen')!, process.env, os.homedir())
 *   // ['/usr/local/bin/qwen', '--acp', '--approval-mode', 'default']
 */
export function resolveAgentCommand(profile: AgentProfile, env: NodeJS.ProcessEnv, home: string): string[] {
  const [program = '', ...args] = profile.command;
  const expanded = expandHome(program.trim(), home);
  const bare = !expanded.includes('/') && !expanded.includes(path.sep);
  const found = bare ? searchPath(expanded, env.PATH) : isExecutable(expanded) ? path.resolve(expanded) : null;
  if (!found)
    throw new AgentError({
      code: 'AGENT_NOT_FOUND',
      agent: profile.name,
      label: profile.label,
      command: program,
      install: profile.install,
      why: bare ? 'not-on-path' : 'not-executable',
    });
  return [codexNativeBinary(found) ?? found, ...args];
}
