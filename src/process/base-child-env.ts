/**
 * What every agent child (Claude Code, and the ACP agents) may see of cc-linker's environment
 * whatever it is: the basics of a process and a shell, the locale, temp directories, the editor,
 * proxies and CA files, the SSH agent socket. No credential is on this list; each agent's own
 * variables are added by its environment builder (claude/claude-env.ts, agents/agent-env.ts).
 */
const BASE_NAMES: ReadonlySet<string> = new Set([
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
]);

/** The locale (`LC_ALL`, `LC_CTYPE` …) and the XDG base directories (where agents keep their data). */
const BASE_PREFIXES: readonly string[] = ['LC_', 'XDG_'];

/**
 * True for a variable every agent child may see (the shared base of the child allowlists).
 *
 * @example isBaseEnvName('LC_ALL') // true; isBaseEnvName('GITHUB_TOKEN') // false
 */
export function isBaseEnvName(name: string): boolean {
  return BASE_NAMES.has(name) || BASE_PREFIXES.some((p) => name.startsWith(p));
}

/** cc-linker's own settings (its Feishu app secret, web token …) never reach a child agent. */
export function isCcLinkerEnvName(name: string): boolean {
  return name.startsWith('CC_LINKER_');
}
