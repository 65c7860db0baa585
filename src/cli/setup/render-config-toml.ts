import { CONFIG_SPEC, type Config } from '../../core/config-schema.js';
import type { Language } from '../../core/i18n.js';
import { CONFIG_COMMENTS } from './config-comments.js';

type Plain = Record<string, unknown>;
const isPlain = (v: unknown): v is Plain =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Date);

const ESCAPES: Record<string, string> = {
  '"': '\\"',
  '\\': '\\\\',
  '\b': '\\b',
  '\t': '\\t',
  '\n': '\\n',
  '\f': '\\f',
  '\r': '\\r',
};

/** A TOML basic string: quotes, backslashes and every control character (DEL too) escaped. */
function tomlString(s: string): string {
  return `"${s.replace(/["\\\u0000-\u001f\u007f]/g, (c) => ESCAPES[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)}"`;
}

/** A bare key when TOML allows one, else a quoted key. */
function tomlKey(k: string): string {
  return /^[A-Za-z0-9_-]+$/.test(k) ? k : tomlString(k);
}

/** One value on one line: strings, numbers, booleans, dates, arrays and (inline) tables. */
function tomlValue(v: unknown): string {
  if (typeof v === 'string') return tomlString(v);
  if (typeof v === 'bigint') return v.toString();
  if (typeof v === 'number')
    return Number.isNaN(v) ? 'nan' : v === Infinity ? 'inf' : v === -Infinity ? '-inf' : String(v);
  if (typeof v === 'boolean') return String(v);
  // smol-toml's TomlDate prints itself in the TOML form it was read in (date, time or date-time).
  if (v instanceof Date) return v.toISOString();
  if (Array.isArray(v)) return `[${v.map(tomlValue).join(', ')}]`;
  if (isPlain(v)) {
    const entries = Object.entries(v).filter(([, x]) => x !== undefined);
    return entries.length === 0 ? '{}' : `{ ${entries.map(([k, x]) => `${tomlKey(k)} = ${tomlValue(x)}`).join(', ')} }`;
  }
  throw new Error(`cannot write ${typeof v} as TOML`);
}

function comment(text: string): string[] {
  return text.split('\n').map((line) => `# ${line}`);
}

const HEADER: Record<Language, string> = {
  zh: 'cc-linker 配置文件（由 cc-linker setup 生成，可以手工修改）。\n每个键都写出了当前值；删除一行即恢复默认值。环境变量 CC_LINKER_* 优先于本文件。',
  en: 'cc-linker configuration (written by cc-linker setup; safe to edit by hand).\nEvery key is shown with its current value; delete a line to go back to the default. CC_LINKER_* environment variables win over this file.',
};

const UNKNOWN: Record<Language, string> = {
  zh: '以下键 cc-linker 不认识（可能拼错或来自其他版本），原样保留',
  en: 'Keys below are unknown to cc-linker (a typo, or another version): kept as they were',
};

/**
 * Renders a whole `config.toml` from a `Config`: every section of `CONFIG_SPEC` in order, every key
 * with its value and a comment (in `lang`) saying what it does — so the file documents itself and a
 * user sees every setting they can change. Maps are inline tables; `[ccexec.providers.<name>]`
 * tables follow their section.
 *
 * `raw` (the parsed old file) contributes what the schema does not know: unknown keys of known
 * sections are kept at the end of their section, unknown sections at the end of the file, so a
 * rewrite never silently drops a setting (a misspelt key stays visible and keeps its warning).
 * Comments of the old file are not carried over (the caller keeps a `.bak`).
 *
 * @example
 *   const text = renderConfigToml(validated, { lang: 'zh', raw: parsedOldFile });
 *   parseToml(text) // → validates to `validated`
 */
export function renderConfigToml(config: Config, opts: { lang: Language; raw?: Plain }): string {
  const notes = CONFIG_COMMENTS[opts.lang];
  const raw = opts.raw ?? {};
  const out: string[] = [...comment(HEADER[opts.lang])];

  const rootExtras = Object.entries(raw).filter(([k, v]) => !(k in CONFIG_SPEC) && !isPlain(v));
  if (rootExtras.length > 0)
    out.push('', ...comment(UNKNOWN[opts.lang]), ...rootExtras.map(([k, v]) => `${tomlKey(k)} = ${tomlValue(v)}`));

  for (const section of Object.keys(CONFIG_SPEC) as Array<keyof Config>) {
    const spec = CONFIG_SPEC[section];
    const values = config[section] as unknown as Plain;
    const sectionNotes = notes[section] as unknown as Record<string, string>;
    out.push('', ...comment(sectionNotes._ ?? section), `[${section}]`);
    const tables: string[] = [];
    for (const [key, field] of Object.entries(spec)) {
      const note = sectionNotes[key];
      const value = values[key];
      if (field.t === 'tables' || field.t === 'rest') {
        // `rest` tables sit directly under the section (`[agents.codex]`), `tables` under their key.
        const at = field.t === 'rest' ? section : `${section}.${key}`;
        tables.push('', ...comment(note ?? key));
        for (const [name, item] of Object.entries(isPlain(value) ? value : {})) {
          tables.push(`[${at}.${tomlKey(name)}]`);
          for (const [k, v] of Object.entries(isPlain(item) ? item : {}))
            if (v !== undefined) tables.push(`${tomlKey(k)} = ${tomlValue(v)}`);
        }
        continue;
      }
      if (value === undefined) continue;
      if (note) out.push(...comment(note));
      out.push(`${key} = ${tomlValue(value)}`);
    }
    const oldSection = raw[section];
    const extras = isPlain(oldSection)
      ? Object.entries(oldSection).filter(
          ([k, v]) => !(k in spec) && v !== undefined && !Object.values(spec).some((f) => f.t === 'rest'),
        )
      : [];
    if (extras.length > 0)
      out.push(...comment(UNKNOWN[opts.lang]), ...extras.map(([k, v]) => `${tomlKey(k)} = ${tomlValue(v)}`));
    out.push(...tables);
  }

  for (const [name, value] of Object.entries(raw)) {
    if (name in CONFIG_SPEC || !isPlain(value)) continue;
    out.push(
      '',
      ...comment(UNKNOWN[opts.lang]),
      `[${tomlKey(name)}]`,
      ...Object.entries(value).map(([k, v]) => `${tomlKey(k)} = ${tomlValue(v)}`),
    );
  }
  return `${out.join('\n')}\n`;
}
