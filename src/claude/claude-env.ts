import type { Config } from '../core/config-schema.js';
import { isSecretName, registerSecret } from '../core/redact.js';
import { isBaseEnvName, isCcLinkerEnvName } from '../process/base-child-env.js';

/**
 * Names Claude Code may see on top of the shared base (process/base-child-env.ts): `IS_SANDBOX`
 * (Claude Code running as root needs it) and the MCP settings Claude Code documents (the start-up
 * and tool timeouts, the OAuth callback port — never `MCP_CLIENT_SECRET`, which only
 * `claude.env_allow` can pass).
 */
const ALLOWED_NAMES = new Set(['IS_SANDBOX', 'MCP_TIMEOUT', 'MCP_TOOL_TIMEOUT', 'MCP_OAUTH_CALLBACK_PORT']);

/**
 * Prefixes Claude Code reads: its own settings (`CLAUDE_*`, `CLAUDE_CODE_*` — the provider switches
 * among them), the API and its Bedrock / Vertex endpoints and project (`ANTHROPIC_*`), feature
 * switches (`DISABLE_*`).
 */
const ALLOWED_PREFIXES = ['ANTHROPIC_', 'CLAUDE_', 'DISABLE_'];

/**
 * A cloud provider's variables, passed only while Claude Code is told to use that provider. Claude
 * Code needs them then (its Bash tool sees them too); otherwise they are credentials it has no use for.
 */
interface CloudProvider {
  /** The switch Claude Code reads (`CLAUDE_CODE_USE_BEDROCK=1`). */
  readonly selectedBy: string;
  readonly names: ReadonlySet<string>;
  readonly prefixes: readonly string[];
}

const CLOUD_PROVIDERS: readonly CloudProvider[] = [
  {
    // Amazon Bedrock: region, profile, the SDK's credential chain (key id, secret, session token),
    // Bedrock API keys, and where the AWS config and credentials files are.
    selectedBy: 'CLAUDE_CODE_USE_BEDROCK',
    names: new Set([
      'AWS_REGION',
      'AWS_DEFAULT_REGION',
      'AWS_PROFILE',
      'AWS_ACCESS_KEY_ID',
      'AWS_SECRET_ACCESS_KEY',
      'AWS_SESSION_TOKEN',
      'AWS_BEARER_TOKEN_BEDROCK',
      'AWS_CONFIG_FILE',
      'AWS_SHARED_CREDENTIALS_FILE',
    ]),
    prefixes: [],
  },
  {
    // Google Vertex AI: the service-account file, the region (and its per-model overrides), the
    // project ids Claude Code reads besides ANTHROPIC_VERTEX_PROJECT_ID.
    selectedBy: 'CLAUDE_CODE_USE_VERTEX',
    names: new Set(['GOOGLE_APPLICATION_CREDENTIALS', 'CLOUD_ML_REGION', 'GCLOUD_PROJECT', 'GOOGLE_CLOUD_PROJECT']),
    prefixes: ['VERTEX_REGION_'],
  },
];

/** A switch as Claude Code reads it: `1`, `true`, `yes` or `on`, any case, surrounding space ignored. */
function isTruthy(value: string | undefined): boolean {
  return value !== undefined && ['1', 'true', 'yes', 'on'].includes(value.trim().toLowerCase());
}

/**
 * The environment for a Claude Code child, built from an allowlist.
 *
 * Why an allowlist: the Agent SDK's `env` option REPLACES the child's environment, and cc-linker's
 * own process holds secrets (`CC_LINKER_FEISHU_APP_SECRET`, provider keys for cc_exec, whatever
 * else the user's shell exported) that Claude Code — and every shell command it runs — must not
 * inherit. The same list is used in all three modes so a run behaves alike whichever mode is
 * configured. Cloud credentials pass only with their provider switch (see `CLOUD_PROVIDERS`).
 * `extraNames` lets the caller pass more variables a user's tools need (exact names, or
 * `PREFIX_*`); `denyNames` removes names even when allowed (e.g. the cc_exec providers'
 * `api_key_env` variables); `CC_LINKER_*` never passes.
 *
 * @example
 *   buildClaudeEnv(process.env, { extraNames: ['JAVA_HOME', 'GOPATH'] })
 *   // { PATH, HOME, LANG, ANTHROPIC_API_KEY, …, JAVA_HOME, GOPATH }
 */
export function buildClaudeEnv(
  source: NodeJS.ProcessEnv,
  options: { extraNames?: readonly string[]; denyNames?: readonly string[] } = {},
): NodeJS.ProcessEnv {
  const extraExact = new Set<string>();
  const extraPrefixes: string[] = [];
  for (const name of options.extraNames ?? []) {
    if (name.endsWith('*')) extraPrefixes.push(name.slice(0, -1));
    else extraExact.add(name);
  }
  const clouds = CLOUD_PROVIDERS.filter((p) => isTruthy(source[p.selectedBy]));
  const deny = new Set(options.denyNames ?? []);
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(source)) {
    if (value === undefined || deny.has(name) || isCcLinkerEnvName(name)) continue;
    const allowed =
      isBaseEnvName(name) ||
      ALLOWED_NAMES.has(name) ||
      ALLOWED_PREFIXES.some((p) => name.startsWith(p)) ||
      clouds.some((c) => c.names.has(name) || c.prefixes.some((p) => name.startsWith(p))) ||
      extraExact.has(name) ||
      extraPrefixes.some((p) => p.length > 0 && name.startsWith(p));
    if (!allowed) continue;
    env[name] = value;
    // Claude Code may echo these (e.g. a proxy token) in an error we show the user or log.
    if (isSecretName(name)) registerSecret(value);
  }
  return env;
}

/**
 * The environment cc-linker gives every Claude Code child — the engine's runs in each mode and
 * `doctor`'s `claude --version` — from the config: `claude.env_allow` on top of the allowlist, the
 * cc_exec providers' key variables denied (an `ANTHROPIC_*` one stays: Claude Code reads it too).
 *
 * @example
 *   claudeEnvFor(config, process.env) // what `claude` sees under cc-linker
 */
export function claudeEnvFor(config: Config, source: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const denyNames = Object.values(config.ccexec.providers)
    .map((p) => p.api_key_env)
    .filter((n) => n.length > 0 && !n.startsWith('ANTHROPIC_'));
  return buildClaudeEnv(source, { extraNames: config.claude.env_allow, denyNames });
}
