import fs from 'node:fs';
import path from 'node:path';
import type { Config } from './config-schema.js';
import { findUnknownKeys, validateConfig } from './config-validate.js';
import { ConfigError } from './config-error.js';
import { ENV_OVERRIDES, parseEnvValue } from './env-overrides.js';
import { expandHome } from './expand-home.js';
import type { Language } from './i18n.js';
import type { Paths } from './paths.js';
import { isSecretName, registerSecret } from './redact.js';

/** What `loadConfig` returns: the validated config plus warnings the caller should show once. */
export interface LoadedConfig {
  config: Config;
  /** Non-fatal problems, e.g. an unknown (probably misspelt) key. One line each. */
  warnings: string[];
  fileExists: boolean;
  file: string;
}

type Plain = Record<string, unknown>;

const isPlain = (v: unknown): v is Plain => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Keys whose values are filesystem paths and get `~` expansion. */
const PATH_KEYS = [
  'general.log_path',
  'general.claude_bin',
  'feishu_bot.default_cwd',
  'queue.spool_dir',
  'sdk.claude_executable',
  'ccexec.cwd',
];
const PATH_LIST_KEYS = ['security.allowed_roots', 'security.denied_roots'];

function getIn(obj: Plain, key: string): unknown {
  let cur: unknown = obj;
  for (const part of key.split('.')) {
    if (!isPlain(cur)) return undefined;
    cur = cur[part];
  }
  return cur;
}

function setIn(obj: Plain, key: string, value: unknown): void {
  const parts = key.split('.');
  let cur = obj;
  for (const part of parts.slice(0, -1)) {
    if (!isPlain(cur[part])) cur[part] = {};
    cur = cur[part] as Plain;
  }
  cur[parts[parts.length - 1] as string] = value;
}

function describeValue(key: string, value: unknown): string {
  if (isSecretName(key)) return '(hidden)';
  // A whole section given a value (`feishu_bot = "…"`) may be a secret pasted on the wrong line:
  // say what kind of value it is, not what it says.
  if (!key.includes('.') && value !== null && typeof value !== 'object') return `(a ${typeof value})`;
  // A table may hold a secret under a secret-looking name (`env = { OPENAI_API_KEY = "sk-…" }`).
  const text = JSON.stringify(value, (k, v: unknown) =>
    k && isSecretName(k) && typeof v === 'string' ? '(hidden)' : v,
  );
  return text === undefined ? 'nothing' : text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/** Replaces a leading `~/.cc-linker` with the real (possibly relocated) home, then expands `~`. */
function expandPath(value: string, paths: Paths): string {
  if (value === '') return value;
  if (value === '~/.cc-linker' || value.startsWith('~/.cc-linker/'))
    return path.join(paths.home, value.slice('~/.cc-linker'.length));
  return expandHome(value, paths.userHome);
}

/**
 * Loads `config.toml` (missing file = embedded defaults), applies environment overrides, validates,
 * and expands `~` in path keys (`ignoreFile`: the embedded defaults, as if there were no file).
 * Errors are `ConfigError`s whose message names the file (or the
 * environment variable), the key, the bad value (hidden for secrets) and what is expected.
 * Secret values are registered with the redactor so they never reach a log line.
 */
export async function loadConfig(options: {
  paths: Paths;
  env?: NodeJS.ProcessEnv;
  ignoreFile?: boolean;
}): Promise<LoadedConfig> {
  const { paths } = options;
  const env = options.env ?? process.env;
  const file = paths.configFile;
  let raw: Plain = {};
  let fileExists = false;
  let text: string | null = null;
  try {
    if (!options.ignoreFile) {
      // One synchronous read of a small file: every command starts here, and a thread-pool round
      // trip costs more than the read.
      text = fs.readFileSync(file, 'utf8');
      fileExists = true;
    }
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EISDIR') throw new ConfigError(`${file}: is a directory, expected a TOML file`, { cause: err });
    if (code === 'ENOTDIR')
      throw new ConfigError(
        `${path.dirname(file)} is a file, expected cc-linker's directory (move it away, or set CC_LINKER_HOME)`,
        { cause: err },
      );
    if (code !== 'ENOENT') throw new ConfigError(`${file}: cannot be read (${code ?? 'error'})`, { cause: err });
  }
  if (text !== null) {
    // Imported only when there is a file: a fresh install runs every command on the defaults.
    const { parse: parseToml, TomlError } = await import('smol-toml');
    try {
      raw = parseToml(text) as Plain;
    } catch (err) {
      const where = err instanceof TomlError ? ` at line ${err.line}, column ${err.column}` : '';
      const first = err instanceof Error ? (err.message.split('\n')[0] ?? '') : '';
      throw new ConfigError(`${file}: invalid TOML${where}: ${first}`, { cause: err });
    }
  }

  const warnings = findUnknownKeys(raw).map(
    (u) => `${file}: unknown key '${u.key}' is ignored${u.suggestion ? ` (did you mean '${u.suggestion}'?)` : ''}`,
  );

  const sources = new Map<string, string>();
  for (const o of ENV_OVERRIDES) {
    const value = env[o.env];
    if (value === undefined || value === '') continue;
    const parsed = parseEnvValue(o.kind, value);
    if ('error' in parsed) {
      throw new ConfigError(
        `environment ${o.env}=${isSecretName(o.key) ? '(hidden)' : JSON.stringify(value)} (sets ${o.key}): ${parsed.error}`,
      );
    }
    setIn(raw, o.key, parsed.value);
    sources.set(o.key, o.env);
  }

  const result = validateConfig(raw);
  if (!result.ok) {
    // One line per bad key, each naming where it came from: all of them, not only the first. A
    // problem explained in both languages is shown in the one the file asks for (the config that
    // would say so is the one that failed, so its raw `general.language` decides).
    const message = (lang: Language) =>
      result.issues
        .map(({ key, value, expected, expectedZh }) => {
          const where = sources.get(key) ? `environment ${sources.get(key)}` : file;
          const shown = describeValue(key, value);
          return lang === 'zh' && expectedZh
            ? `${where}：${key} = ${shown} 无效：${expectedZh}`
            : `${where}: ${key} = ${shown} is invalid: ${expected}`;
        })
        .join('\n');
    const localized = { zh: message('zh'), en: message('en') };
    throw new ConfigError(localized[getIn(raw, 'general.language') === 'en' ? 'en' : 'zh'], { localized });
  }
  const config = result.config;

  for (const key of PATH_KEYS) {
    const value = getIn(config as unknown as Plain, key);
    if (typeof value === 'string') setIn(config as unknown as Plain, key, expandPath(value, paths));
  }
  for (const key of PATH_LIST_KEYS) {
    const value = getIn(config as unknown as Plain, key);
    if (Array.isArray(value))
      setIn(
        config as unknown as Plain,
        key,
        value.map((v: string) => expandPath(v, paths)),
      );
  }

  // An agent's command (its program) and the values of its extra variables are paths as often as not.
  for (const agent of Object.values(config.agents.profiles)) {
    const [program, ...args] = agent.command ?? [];
    if (program !== undefined) agent.command = [expandPath(program, paths), ...args];
    for (const [name, value] of Object.entries(agent.env)) agent.env[name] = expandPath(value, paths);
  }

  registerSecret(config.feishu_bot.app_secret);
  registerSecret(config.telegram.bot_token);
  registerSecret(config.telegram.webhook_secret);
  registerSecret(config.slack.bot_token);
  registerSecret(config.slack.app_token);
  registerSecret(config.dingtalk.client_secret);
  registerSecret(config.voice.api_key);
  registerSecret(config.cli_proxy.token);
  registerSecret(config.web.token);
  for (const provider of Object.values(config.ccexec.providers)) {
    if (provider.api_key_env) registerSecret(env[provider.api_key_env]);
  }
  return { config, warnings, fileExists, file };
}
