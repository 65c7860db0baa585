import { AGENT_NAME_PATTERN, BUILTIN_ACP_AGENTS, NATIVE_AGENT, isBuiltinAcpAgent } from './agent-names.js';
import { defineMessages, type LocalizedText } from './i18n.js';
import { isSecretName } from './redact.js';

const messages = defineMessages({
  zh: {
    claude:
      'claude 是内置的 Claude Code 引擎，不是 ACP 配置：它的设置在 [claude] 与 general.claude_bin 中。若要通过 ACP 适配器运行 Claude，请换个名字，例如 [agents.claude-acp]',
    name: 'agent 名字须以小写字母开头，只含小写字母、数字和 -，最长 32 个字符，例如 [agents.my-agent]',
    table: '应为一个 agent 表（[agents.<名字>]）；[agents] 中唯一的普通键是 default',
    envName: '"{name}" 不是环境变量名（字母、数字和 _，不以数字开头）',
    ccLinker: '{name}：cc-linker 自己的设置（CC_LINKER_*）从不传给 agent',
    secret: '{name} 看起来是密钥：密钥不写进配置文件。请在运行 cc-linker 的环境中设置它，并在 env_pass 中写出它的名字',
    anthropic: '{name}：ANTHROPIC_* 是 Claude 的凭据，从不传给其他 agent；请使用该 agent 自己的登录方式或变量',
    ccexec: '{name} 是 cc_exec 模型服务 "{provider}" 的密钥变量，从不传给 agent；请给 agent 单独设置一个变量',
    command: '不是内置 agent（内置：{builtins}），必须写 command，例如 command = ["my-agent", "--acp"]',
    emptyWord: '命令和参数不能为空字符串',
    unknownDefault: '未知的 agent "{name}"；可用：{known}',
  },
  en: {
    claude:
      'claude is the built-in Claude Code engine, not an ACP profile: its settings are [claude] and general.claude_bin. To run Claude through an ACP adapter, give it another name, e.g. [agents.claude-acp]',
    name: 'an agent name starts with a lower-case letter and has only lower-case letters, digits and -, at most 32 characters, e.g. [agents.my-agent]',
    table: 'expected an agent table ([agents.<name>]); the only plain key of [agents] is default',
    envName: '"{name}" is not an environment variable name (letters, digits and _, not starting with a digit)',
    ccLinker: "{name}: cc-linker's own settings (CC_LINKER_*) never reach an agent",
    secret:
      "{name} looks like a secret: secrets never go in the config file. Set it in cc-linker's environment and name it in env_pass",
    anthropic:
      "{name}: ANTHROPIC_* are Claude's credentials and never reach another agent; use that agent's own login or variables",
    ccexec:
      '{name} is the key variable of cc_exec provider "{provider}" and never reaches an agent; give the agent a variable of its own',
    command: 'not a built-in agent (built in: {builtins}): command is required, e.g. command = ["my-agent", "--acp"]',
    emptyWord: 'the command and its arguments must not be empty strings',
    unknownDefault: 'unknown agent "{name}"; known: {known}',
  },
});

type Key = Parameters<ReturnType<typeof messages>>[0];
const both = (key: Key, params: Record<string, string> = {}): LocalizedText => ({
  zh: messages('zh')(key, params),
  en: messages('en')(key, params),
});

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Why `[agents.<name>]` cannot be a profile (`claude`, a bad name), or null. */
export function checkAgentName(name: string): LocalizedText | null {
  if (name === NATIVE_AGENT) return both('claude');
  return AGENT_NAME_PATTERN.test(name) ? null : both('name');
}

/** What a plain (non-table) key of `[agents]` other than `default` is told. */
export const AGENT_TABLE_EXPECTED: LocalizedText = both('table');

/** `command`: no empty word (the first one is a name looked up on PATH, or a path). */
export function checkAgentCommand(argv: readonly string[]): LocalizedText | null {
  return argv.some((w) => w.trim().length === 0) ? both('emptyWord') : null;
}

/**
 * `env`: extra variables with their values, written in the file — so never a secret (a name that
 * looks like one is refused: secrets pass by name through `env_pass`) and never `CC_LINKER_*`.
 */
export function checkAgentEnv(env: Readonly<Record<string, string>>): LocalizedText | null {
  for (const name of Object.keys(env)) {
    if (!ENV_NAME.test(name)) return both('envName', { name });
    if (name.startsWith('CC_LINKER_')) return both('ccLinker', { name });
    if (isSecretName(name)) return both('secret', { name });
  }
  return null;
}

/**
 * `env_pass`: exact names of cc-linker's variables copied to the agent — never `CC_LINKER_*`, never
 * Claude's `ANTHROPIC_*` (docs/security.md, "Agent environments").
 */
export function checkAgentEnvPass(names: readonly string[]): LocalizedText | null {
  for (const name of names) {
    if (!ENV_NAME.test(name)) return both('envName', { name });
    if (name.startsWith('CC_LINKER_')) return both('ccLinker', { name });
    if (name.startsWith('ANTHROPIC_')) return both('anthropic', { name });
  }
  return null;
}

/** One problem found across sections: the key, its value and why, in both languages. */
export interface AgentsIssue {
  key: string;
  value: unknown;
  text: LocalizedText;
}

/**
 * The checks that need more than one key: a profile that is not built in names its `command`;
 * `env_pass` never names a cc_exec provider's key variable; `default` names a known agent.
 */
export function checkAgentsSection(
  agents: { default: string; profiles: Record<string, { command?: string[]; env_pass: string[] }> },
  ccexecKeys: ReadonlyMap<string, string>,
): AgentsIssue[] {
  const issues: AgentsIssue[] = [];
  for (const [name, profile] of Object.entries(agents.profiles)) {
    if (!isBuiltinAcpAgent(name) && profile.command === undefined)
      issues.push({
        key: `agents.${name}.command`,
        value: undefined,
        text: both('command', { builtins: BUILTIN_ACP_AGENTS.join(', ') }),
      });
    const shared = profile.env_pass.find((n) => ccexecKeys.has(n));
    if (shared)
      issues.push({
        key: `agents.${name}.env_pass`,
        value: profile.env_pass,
        text: both('ccexec', { name: shared, provider: ccexecKeys.get(shared) ?? '' }),
      });
  }
  const known = knownAgentNames(Object.keys(agents.profiles));
  if (!known.includes(agents.default))
    issues.push({
      key: 'agents.default',
      value: agents.default,
      text: both('unknownDefault', { name: agents.default, known: known.join(', ') }),
    });
  return issues;
}

/** Every agent name the config allows: claude, the built-in profiles, then the configured ones. */
export function knownAgentNames(configured: readonly string[]): string[] {
  const builtins: readonly string[] = [NATIVE_AGENT, ...BUILTIN_ACP_AGENTS];
  return [...builtins, ...configured.filter((n) => !builtins.includes(n)).sort()];
}
