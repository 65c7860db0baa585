import fs from 'node:fs/promises';
import path from 'node:path';
import { parse as parseToml, TomlError } from 'smol-toml';
import type { z } from 'zod';
import { configSchema, type Config } from './config-schema.js';
import { ConfigError } from './config-error.js';
import { ENV_OVERRIDES, parseEnvValue } from './env-overrides.js';
import { expandHome } from './expand-home.js';
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
const PATH_KEYS = ['general.log_path', 'general.claude_bin', 'feishu_bot.default_cwd', 'queue.spool_dir', 'sdk.claude_executable', 'ccexec.cwd'];
const PATH_LIST_KEYS = ['security.allowed_roots', 'security.denied_roots'];
/** Sections whose keys are user-chosen names (aliases, provider ids), so no unknown-key warnings inside. */
const FREE_FORM = new Set(['claude.models', 'ccexec.providers']);

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

function levenshtein(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i += 1) {
    let prev = row[0] as number;
    row[0] = i;
    for (let j = 1; j <= b.length; j += 1) {
      const tmp = row[j] as number;
      row[j] = Math.min((row[j] as number) + 1, (row[j - 1] as number) + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = tmp;
    }
  }
  return row[b.length] as number;
}

/** The known keys of a zod object schema (unwrapping defaults). */
function shapeOf(schema: z.ZodType): Record<string, z.ZodType> | null {
  let s: unknown = schema;
  for (let i = 0; i < 5; i += 1) {
    const def = (s as { def?: { type?: string; innerType?: unknown; shape?: Record<string, z.ZodType> } }).def;
    if (!def) return null;
    if (def.type === 'object' && def.shape) return def.shape;
    if (def.innerType) s = def.innerType;
    else return null;
  }
  return null;
}

function findUnknownKeys(raw: Plain, schema: z.ZodType, prefix: string, out: string[], file: string): void {
  const shape = shapeOf(schema);
  if (!shape) return;
  for (const [key, value] of Object.entries(raw)) {
    const full = prefix ? `${prefix}.${key}` : key;
    const child = shape[key];
    if (!child) {
      const near = Object.keys(shape).filter((k) => levenshtein(k, key) <= 2);
      out.push(`${file}: unknown key '${full}' is ignored${near.length > 0 ? ` (did you mean '${prefix ? `${prefix}.` : ''}${near[0]}'?)` : ''}`);
      continue;
    }
    if (isPlain(value) && !FREE_FORM.has(full)) findUnknownKeys(value, child, full, out, file);
  }
}

function describeValue(key: string, value: unknown): string {
  if (isSecretName(key)) return '(hidden)';
  const text = JSON.stringify(value);
  return text === undefined ? 'nothing' : text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/** Replaces a leading `~/.cc-linker` with the real (possibly relocated) home, then expands `~`. */
function expandPath(value: string, paths: Paths): string {
  if (value === '') return value;
  if (value === '~/.cc-linker' || value.startsWith('~/.cc-linker/')) return path.join(paths.home, value.slice('~/.cc-linker'.length));
  return expandHome(value, paths.userHome);
}

/**
 * Loads `config.toml` (missing file = embedded defaults), applies environment overrides, validates,
 * and expands `~` in path keys. Errors are `ConfigError`s whose message names the file (or the
 * environment variable), the key, the bad value (hidden for secrets) and what is expected.
 * Secret values are registered with the redactor so they never reach a log line.
 */
export async function loadConfig(options: { paths: Paths; env?: NodeJS.ProcessEnv }): Promise<LoadedConfig> {
  const { paths } = options;
  const env = options.env ?? process.env;
  const file = paths.configFile;
  let raw: Plain = {};
  let fileExists = false;
  let text: string | null = null;
  try {
    text = await fs.readFile(file, 'utf8');
    fileExists = true;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EISDIR') throw new ConfigError(`${file}: is a directory, expected a TOML file`, { cause: err });
    if (code !== 'ENOENT') throw new ConfigError(`${file}: cannot be read (${code ?? 'error'})`, { cause: err });
  }
  if (text !== null) {
    try {
      raw = parseToml(text) as Plain;
    } catch (err) {
      const where = err instanceof TomlError ? ` at line ${err.line}, column ${err.column}` : '';
      const first = err instanceof Error ? (err.message.split('\n')[0] ?? '') : '';
      throw new ConfigError(`${file}: invalid TOML${where}: ${first}`, { cause: err });
    }
  }

  const warnings: string[] = [];
  findUnknownKeys(raw, configSchema, '', warnings, file);

  const sources = new Map<string, string>();
  for (const o of ENV_OVERRIDES) {
    const value = env[o.env];
    if (value === undefined || value === '') continue;
    const parsed = parseEnvValue(o.kind, value);
    if ('error' in parsed) {
      throw new ConfigError(`environment ${o.env}=${isSecretName(o.key) ? '(hidden)' : JSON.stringify(value)} (sets ${o.key}): ${parsed.error}`);
    }
    setIn(raw, o.key, parsed.value);
    sources.set(o.key, o.env);
  }

  const result = configSchema.safeParse(raw);
  if (!result.success) {
    const issue = result.error.issues[0];
    const key = (issue?.path ?? []).map(String).join('.');
    const where = sources.get(key) ? `environment ${sources.get(key)}` : file;
    const bad = getIn(raw, key);
    throw new ConfigError(`${where}: ${key || '(root)'} = ${describeValue(key, bad)} is invalid: ${issue?.message ?? 'unexpected value'}`, { cause: result.error });
  }
  const config = result.data;

  for (const key of PATH_KEYS) {
    const value = getIn(config as unknown as Plain, key);
    if (typeof value === 'string') setIn(config as unknown as Plain, key, expandPath(value, paths));
  }
  for (const key of PATH_LIST_KEYS) {
    const value = getIn(config as unknown as Plain, key);
    if (Array.isArray(value)) setIn(config as unknown as Plain, key, value.map((v: string) => expandPath(v, paths)));
  }

  registerSecret(config.feishu_bot.app_secret);
  registerSecret(config.cli_proxy.token);
  registerSecret(config.web.token);
  for (const provider of Object.values(config.ccexec.providers)) {
    if (provider.api_key_env) registerSecret(env[provider.api_key_env]);
  }
  return { config, warnings, fileExists, file };
}
