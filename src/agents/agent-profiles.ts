import { BUILTIN_ACP_AGENTS, isBuiltinAcpAgent, NATIVE_AGENT, type BuiltinAcpAgent } from '../core/agent-names.js';
import type { Config } from '../core/config-schema.js';

/**
 * One ACP agent cc-linker can run: a built-in profile merged with its `[agents.<name>]` table, or a
 * profile configured from scratch (docs/design.md#configuration, `[agents]`).
 */
export interface AgentProfile {
  name: string;
  kind: 'acp';
  /** Display name ("Codex"); the name itself for a configured agent. */
  label: string;
  /** argv; a bare first word is looked up on PATH (`resolveAgentCommand`). */
  command: string[];
  /** Variables set for the agent: the profile's own, then the config's (`~` already expanded). */
  env: Record<string, string>;
  /** Names copied from cc-linker's environment: the profile's, then `env_pass`. */
  envPass: string[];
  /**
   * The agent's own variables, passed from cc-linker's environment without being named: exact
   * names or `PREFIX_*`. Settings, and keys named for this agent alone (docs/security.md,
   * "Agent environments"); shared keys such as `OPENAI_API_KEY` pass only through `env_pass`.
   */
  envAllow: string[];
  /** How to install it, for errors, doctor and the README ("npm i -g …"); '' for a configured agent. */
  install: string;
  /** The agent's own command to resume a session in a terminal; `{id}` stands for the session id. */
  resumeHint?: string;
  /** True when cc-linker ships this profile (its name is one of `BUILTIN_ACP_AGENTS`). */
  builtin: boolean;
}

type BuiltinProfile = Omit<AgentProfile, 'name' | 'kind' | 'builtin'>;

/**
 * The built-in profiles. Why each command, flag and variable: docs/design.md, "Agents".
 * - codex: `codex-acp` (the Codex CLI itself has no ACP mode); the npm wrapper is swapped for its
 *   native binary by `resolveAgentCommand`.
 * - gemini: `--acp`; OpenTelemetry export off (it is off by default; this keeps a stray setting
 *   from turning it on under cc-linker). Usage statistics have no switch but settings.json.
 * - qwen: `--acp --approval-mode default`, so every tool asks in chat (its own default on newer
 *   versions is a model-driven `auto`). Usage statistics have no switch but settings.json.
 * - opencode: `acp --pure` (no external plugins: without it, start-up contacts the npm registry),
 *   no self-update while cc-linker runs it, no public share links.
 */
export const BUILTIN_PROFILES: Readonly<Record<BuiltinAcpAgent, BuiltinProfile>> = {
  codex: {
    label: 'Codex',
    command: ['codex-acp'],
    env: {},
    envPass: [],
    envAllow: ['CODEX_*'],
    install: 'npm i -g @zed-industries/codex-acp',
    resumeHint: 'codex resume {id}',
  },
  gemini: {
    label: 'Gemini CLI',
    command: ['gemini', '--acp'],
    env: { GEMINI_TELEMETRY_ENABLED: 'false' },
    envPass: [],
    envAllow: [
      'GEMINI_*',
      'GOOGLE_GEMINI_BASE_URL',
      'GOOGLE_VERTEX_BASE_URL',
      'GOOGLE_CLOUD_PROJECT',
      'GOOGLE_CLOUD_LOCATION',
      'GOOGLE_GENAI_USE_VERTEXAI',
      'GOOGLE_GENAI_USE_GCA',
    ],
    install: 'npm i -g @google/gemini-cli',
    resumeHint: 'gemini --resume {id}',
  },
  qwen: {
    label: 'Qwen Code',
    command: ['qwen', '--acp', '--approval-mode', 'default'],
    env: {},
    envPass: [],
    envAllow: ['QWEN_*', 'OPENAI_BASE_URL', 'OPENAI_MODEL'],
    install: 'npm i -g @qwen-code/qwen-code',
    resumeHint: 'qwen --resume {id}',
  },
  opencode: {
    label: 'OpenCode',
    command: ['opencode', 'acp', '--pure'],
    env: { OPENCODE_DISABLE_AUTOUPDATE: '1', OPENCODE_DISABLE_SHARE: '1' },
    envPass: [],
    envAllow: ['OPENCODE_*'],
    install: 'npm i -g opencode-ai',
    resumeHint: 'opencode --session {id}',
  },
};

/** The profile called `name`: built-in merged with its table, a configured one, or null. */
export function agentProfile(config: Pick<Config, 'agents'>, name: string): AgentProfile | null {
  const table = config.agents.profiles[name];
  if (isBuiltinAcpAgent(name)) {
    const base = BUILTIN_PROFILES[name];
    return {
      name,
      kind: 'acp',
      label: base.label,
      command: [...(table?.command ?? base.command)],
      env: { ...base.env, ...table?.env },
      envPass: unique([...base.envPass, ...(table?.env_pass ?? [])]),
      envAllow: [...base.envAllow],
      install: base.install,
      ...(base.resumeHint ? { resumeHint: base.resumeHint } : {}),
      builtin: true,
    };
  }
  // The config loader refuses a table without a command that is not built in.
  if (!table?.command) return null;
  return {
    name,
    kind: 'acp',
    label: name,
    command: [...table.command],
    env: { ...table.env },
    envPass: unique(table.env_pass),
    envAllow: [],
    install: '',
    builtin: false,
  };
}

/**
 * Every ACP agent: the built-in profiles in their order, then the configured ones by name.
 * (`claude`, the native engine, is not among them.)
 *
 * @example agentProfiles(config).map((p) => p.name) // ['codex', 'gemini', 'qwen', 'opencode', 'my-agent']
 */
export function agentProfiles(config: Pick<Config, 'agents'>): AgentProfile[] {
  const configured = Object.keys(config.agents.profiles)
    .filter((n) => !isBuiltinAcpAgent(n))
    .sort();
  return [...BUILTIN_ACP_AGENTS, ...configured]
    .map((name) => agentProfile(config, name))
    .filter((p): p is AgentProfile => p !== null);
}

/**
 * Every agent name a chat or `/new` may use: `claude` first, then every ACP profile (for lists and
 * for `AGENT_UNKNOWN`'s "known" part).
 *
 * @example agentNames(config) // ['claude', 'codex', 'gemini', 'qwen', 'opencode']
 */
export function agentNames(config: Pick<Config, 'agents'>): string[] {
  return [NATIVE_AGENT, ...agentProfiles(config).map((p) => p.name)];
}

const unique = (names: readonly string[]) => [...new Set(names)];
