import type { Config } from '../core/config-schema.js';
import { isSecretName, registerSecret } from '../core/redact.js';
import { isBaseEnvName, isCcLinkerEnvName } from '../process/base-child-env.js';
import type { AgentProfile } from './agent-profiles.js';

/** Claude's credentials and settings: never passed to another agent from cc-linker's environment. */
const CLAUDE_ONLY_PREFIXES = ['ANTHROPIC_', 'CLAUDE_'];

/**
 * The environment for an ACP agent child (and every command it runs), built from an allowlist
 * like Claude Code's (docs/security.md, "Agent environments"), in this order, a later step winning:
 * 1. from `source` (cc-linker's environment): the shared base (PATH, HOME, locale, proxies, CA
 *    files, `SSH_AUTH_SOCK`, `XDG_*` …) and the profile's own variables (`envAllow`);
 * 2. the profile's `env` (built-in settings such as OpenCode's no-auto-update, then the config's);
 * 3. the `envPass` names, copied from `source` (how a key reaches the agent).
 * Never from `source`, whatever is listed: `CC_LINKER_*`, the cc_exec providers' key variables,
 * Claude's `ANTHROPIC_*` / `CLAUDE_*`. Secret-named values passed on are registered for redaction.
 *
 * @example agentEnvFor(agentProfile(config, 'codex')!, process.env, config)
 *   // { PATH, HOME, LANG, CODEX_HOME, … }
 */
export function agentEnvFor(
  profile: AgentProfile,
  source: NodeJS.ProcessEnv,
  config: Pick<Config, 'ccexec'>,
): NodeJS.ProcessEnv {
  const ccexecKeys = new Set(
    Object.values(config.ccexec.providers)
      .map((p) => p.api_key_env)
      .filter((n) => n.length > 0),
  );
  const never = (name: string) =>
    isCcLinkerEnvName(name) || ccexecKeys.has(name) || CLAUDE_ONLY_PREFIXES.some((p) => name.startsWith(p));
  const exact = new Set(profile.envAllow.filter((n) => !n.endsWith('*')));
  const prefixes = profile.envAllow.filter((n) => n.endsWith('*') && n.length > 1).map((n) => n.slice(0, -1));
  const own = (name: string) => exact.has(name) || prefixes.some((p) => name.startsWith(p));

  const env: NodeJS.ProcessEnv = {};
  const take = (name: string) => {
    const value = source[name];
    if (value === undefined || never(name)) return;
    env[name] = value;
    // The agent may echo it (a proxy token, its key) in an error we show the user or log.
    if (isSecretName(name)) registerSecret(value);
  };
  for (const name of Object.keys(source)) if (isBaseEnvName(name) || own(name)) take(name);
  for (const [name, value] of Object.entries(profile.env)) if (!isCcLinkerEnvName(name)) env[name] = value;
  for (const name of profile.envPass) take(name);
  return env;
}
