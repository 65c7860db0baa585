import { isSecretName } from '../core/redact.js';

/**
 * What the ChainlessChain CLI needs from the environment, and nothing else. The parent process holds
 * model API keys and the console token; a read-only query must never see them.
 *
 * Kept: the basics a Node program needs (`PATH`, `HOME`, `USER`, `LOGNAME`, `LANG`, `LC_*`, `TZ`,
 * `TMPDIR`), where the CLI keeps its data (`XDG_CONFIG_HOME`, `XDG_DATA_HOME`, `CC_PROJECT_ROOT`,
 * `CHAINLESSCHAIN_HOME`), and the Termux layout the ChainlessChain Android app runs it in (`PREFIX`,
 * `LD_LIBRARY_PATH`, `NODE_PATH`).
 *
 * Left out on purpose: `NODE_OPTIONS` — it can preload arbitrary code (`--require`, `--import`) and a
 * parent started under a loader (`node --import tsx`) would push that loader into the CLI; add it to
 * `[ccexec] env_allow` if your setup truly needs it. `SHELL`/`TERM` — there is no shell and no terminal.
 */
export const CLI_ENV_ALLOW: readonly string[] = [
  'PATH',
  'HOME',
  'USER',
  'LOGNAME',
  'LANG',
  'TZ',
  'TMPDIR',
  'XDG_CONFIG_HOME',
  'XDG_DATA_HOME',
  'CC_PROJECT_ROOT',
  'CHAINLESSCHAIN_HOME',
  'PREFIX',
  'LD_LIBRARY_PATH',
  'NODE_PATH',
];

/** Variables matching this are kept like the list above (`LC_ALL`, `LC_CTYPE`, …). */
const LOCALE = /^LC_[A-Z_]+$/;

/**
 * Prefixes never passed on: the API-key families of the twelve model providers, and `CC_UI_` (the
 * host and token of the ChainlessChain UI server, which a read-only query has no use for).
 */
export const SECRET_PREFIXES: readonly string[] = [
  'OPENAI_',
  'ANTHROPIC_',
  'DEEPSEEK_',
  'DASHSCOPE_',
  'GEMINI_',
  'VOLCENGINE_',
  'MOONSHOT_',
  'ERNIE_',
  'ZHIPU_',
  'SPARK_',
  'CC_UI_',
];

const SECRET_SUFFIX = /(_API_KEY|_TOKEN|_SECRET)$/i;

/**
 * Always set for the CLI: its output goes to a pipe and then to a model, so colour codes would only
 * waste tokens (chalk reads these; the CLI colours nothing when they are set).
 */
const FORCED: Readonly<Record<string, string>> = { NO_COLOR: '1', FORCE_COLOR: '0' };

/**
 * True when a variable must never reach the CLI, whatever the allowlist says: a `SECRET_PREFIXES`
 * prefix, a name ending `_API_KEY` / `_TOKEN` / `_SECRET`, or any name `isSecretName` recognises
 * (password, credential, private key …). Case-insensitive.
 */
export function isSecretEnvName(name: string): boolean {
  const upper = name.toUpperCase();
  return SECRET_PREFIXES.some((p) => upper.startsWith(p)) || SECRET_SUFFIX.test(name) || isSecretName(name);
}

/**
 * Builds the CLI's environment from `parent`: the allowlist above plus `extraAllow` (config
 * `[ccexec] env_allow`), minus every secret name, cc-linker's own `CC_LINKER_*` settings and
 * `denyNames` (the providers' `api_key_env` variables, whatever they are called), plus
 * `NO_COLOR=1` / `FORCE_COLOR=0`. Pure; `parent` is not modified.
 *
 * @example
 *   buildCliEnv({ PATH: '/bin', HOME: '/h', OPENAI_API_KEY: 'sk-…', FOO: 'x' }, ['FOO'])
 *   // { PATH: '/bin', HOME: '/h', FOO: 'x', NO_COLOR: '1', FORCE_COLOR: '0' }
 */
export function buildCliEnv(
  parent: NodeJS.ProcessEnv,
  extraAllow: readonly string[] = [],
  denyNames: readonly string[] = [],
): NodeJS.ProcessEnv {
  const allow = new Set([...CLI_ENV_ALLOW, ...extraAllow]);
  const deny = new Set(denyNames);
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(parent)) {
    if (value === undefined) continue;
    if (!allow.has(name) && !LOCALE.test(name)) continue;
    if (isSecretEnvName(name) || deny.has(name) || name.startsWith('CC_LINKER_')) continue;
    env[name] = value;
  }
  return { ...env, ...FORCED };
}
