import { isSecretName, registerSecret } from '../core/redact.js';
/** Exact variable names Claude Code (and the tools it runs) may see. */
const ALLOWED_NAMES = new Set([
  'PATH',
  'HOME',
  'USER',
  'LOGNAME',
  'SHELL',
  'TERM',
  'COLORTERM',
  'LANG',
  'LANGUAGE',
  'TZ',
  'TMPDIR',
  'TMP',
  'TEMP',
  'EDITOR',
  'VISUAL',
  'SSH_AUTH_SOCK',
  'HTTP_PROXY',
  'HTTPS_PROXY',
  'NO_PROXY',
  'ALL_PROXY',
  'http_proxy',
  'https_proxy',
  'no_proxy',
  'all_proxy',
  'NODE_EXTRA_CA_CERTS',
  'SSL_CERT_FILE',
  'SSL_CERT_DIR',
  'GOOGLE_APPLICATION_CREDENTIALS',
  'CLOUD_ML_REGION',
  'IS_SANDBOX',
]);

/**
 * Prefixes Claude Code reads: its own settings (`CLAUDE_*`, `CLAUDE_CODE_*`), the API
 * (`ANTHROPIC_*`), feature switches (`DISABLE_*`), Bedrock / Vertex credentials, the locale and
 * XDG directories.
 */
const ALLOWED_PREFIXES = ['ANTHROPIC_', 'CLAUDE_', 'DISABLE_', 'LC_', 'XDG_', 'AWS_', 'VERTEX_', 'MCP_'];

/** cc-linker's own settings (its Feishu app secret, web token …) never reach Claude Code. */
const NEVER_PREFIXES = ['CC_LINKER_'];

/**
 * The environment for a Claude Code child, built from an allowlist.
 *
 * Why an allowlist: the Agent SDK's `env` option REPLACES the child's environment, and cc-linker's
 * own process holds secrets (`CC_LINKER_FEISHU_APP_SECRET`, provider keys for cc_exec) that Claude
 * Code — and every shell command it runs — must not inherit. The same list is used in all three
 * modes so a run behaves alike whichever mode is configured. `extraNames` lets the caller pass
 * more variables a user's tools need (exact names, or `PREFIX_*`); `denyNames` removes names even
 * when allowed (e.g. the cc_exec providers' `api_key_env` variables).
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
  const deny = new Set(options.denyNames ?? []);
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(source)) {
    if (value === undefined || deny.has(name) || NEVER_PREFIXES.some((p) => name.startsWith(p))) continue;
    const allowed =
      ALLOWED_NAMES.has(name) ||
      ALLOWED_PREFIXES.some((p) => name.startsWith(p)) ||
      extraExact.has(name) ||
      extraPrefixes.some((p) => p.length > 0 && name.startsWith(p));
    if (!allowed) continue;
    env[name] = value;
    // Claude Code may echo these (e.g. a proxy token) in an error we show the user or log.
    if (isSecretName(name)) registerSecret(value);
  }
  return env;
}
