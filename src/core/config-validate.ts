import { checkAgentsSection } from './check-agents.js';
import { CONFIG_SPEC, type Config, type FieldSpec, type SectionSpec } from './config-schema.js';
import type { LocalizedText } from './i18n.js';

type Plain = Record<string, unknown>;
const isPlain = (v: unknown): v is Plain => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A key that failed validation: its dotted path, the value, and what was expected. */
export interface ConfigIssue {
  key: string;
  value: unknown;
  expected: string;
  /** `expected` in Chinese, for a problem whose reason needs explaining (most are English only). */
  expectedZh?: string;
}

/** Checks one value against its spec: the value to keep, or undefined after recording an issue. */
function checkField(spec: FieldSpec, value: unknown, key: string, issues: ConfigIssue[]): unknown {
  const bad = (expected: string): undefined => {
    issues.push({ key, value, expected });
    return undefined;
  };
  const badBoth = (text: LocalizedText, at = key, shown: unknown = value): undefined => {
    issues.push({ key: at, value: shown, expected: text.en, expectedZh: text.zh });
    return undefined;
  };
  switch (spec.t) {
    case 'string':
      if (typeof value !== 'string') return bad('expected a string');
      if (spec.check) {
        const problem = spec.check(value);
        if (problem) return bad(problem);
      }
      return value;
    case 'int':
      if (typeof value !== 'number' || !Number.isInteger(value))
        return bad(`expected an integer${spec.min === 1 ? ' ≥ 1' : spec.min === 0 ? ' ≥ 0' : ''}`);
      if (value < spec.min || (spec.max !== undefined && value > spec.max))
        return bad(
          spec.max === undefined
            ? `expected an integer ≥ ${spec.min}`
            : `expected an integer from ${spec.min} to ${spec.max}`,
        );
      return value;
    case 'bool':
      return typeof value === 'boolean' ? value : bad('expected true or false');
    case 'enum':
      return typeof value === 'string' && spec.values.includes(value)
        ? value
        : bad(`expected one of ${spec.values.map((v) => `"${v}"`).join(', ')}`);
    case 'strings':
      if (!Array.isArray(value) || value.some((v) => typeof v !== 'string'))
        return bad('expected a list of strings, e.g. ["a", "b"]');
      if (spec.minItems && value.length < spec.minItems) return bad(`expected at least ${spec.minItems} item(s)`);
      if (spec.check) {
        const problem = spec.check(value);
        if (typeof problem === 'string') return bad(problem);
        if (problem) return badBoth(problem);
      }
      return [...value];
    case 'map': {
      if (!isPlain(value) || Object.values(value).some((v) => typeof v !== 'string'))
        return bad('expected a table of strings, e.g. { sonnet = "claude-sonnet-4-5" }');
      const problem = spec.check?.(value as Record<string, string>);
      return problem ? badBoth(problem) : { ...value };
    }
    case 'rest': {
      // `value` holds the section's keys that no other field names.
      const out: Plain = {};
      for (const [name, item] of Object.entries(value as Plain)) {
        const at = key.slice(0, key.lastIndexOf('.') + 1) + name;
        const refused = spec.name(name);
        if (refused) badBoth(refused, at, item);
        else if (!isPlain(item)) badBoth(spec.notTable, at, item);
        else out[name] = checkSection(spec.item, item, at, issues);
      }
      return out;
    }
    case 'tables': {
      if (!isPlain(value)) return bad('expected a table of tables');
      const out: Plain = {};
      for (const [name, item] of Object.entries(value)) {
        if (!isPlain(item)) {
          issues.push({ key: `${key}.${name}`, value: item, expected: 'expected a table' });
          continue;
        }
        const missing = spec.required.filter((req) => !(req in item));
        for (const req of missing)
          issues.push({ key: `${key}.${name}.${req}`, value: undefined, expected: 'is required' });
        if (missing.length === 0) out[name] = checkSection(spec.item, item, `${key}.${name}`, issues);
      }
      return out;
    }
  }
}

function defaultOf(spec: FieldSpec): unknown {
  switch (spec.t) {
    case 'tables':
      return {};
    case 'strings':
      return spec.d ? [...spec.d] : undefined;
    case 'map':
      return { ...spec.d };
    case 'rest':
      return {};
    default:
      return spec.d;
  }
}

/** The keys of `raw` that no field of `spec` names (what a `rest` field gathers). */
function restOf(spec: SectionSpec, raw: Plain): Plain {
  const named = Object.entries(spec).filter(([, f]) => f.t !== 'rest');
  return Object.fromEntries(Object.entries(raw).filter(([k]) => !named.some(([n]) => n === k)));
}

function checkSection(spec: SectionSpec, raw: Plain, prefix: string, issues: ConfigIssue[]): Plain {
  const out: Plain = {};
  for (const [name, field] of Object.entries(spec)) {
    if (field.t === 'rest') {
      out[name] = checkField(field, restOf(spec, raw), `${prefix}.${name}`, issues);
      continue;
    }
    if (raw[name] === undefined) {
      const d = defaultOf(field);
      if (d !== undefined) out[name] = d;
      continue;
    }
    const value = checkField(field, raw[name], `${prefix}.${name}`, issues);
    if (value !== undefined) out[name] = value;
  }
  return out;
}

/**
 * Validates raw TOML data (after environment overrides) against `CONFIG_SPEC` and fills in
 * defaults. Every bad key is reported (in schema order), so one run shows all there is to fix.
 * Unknown keys are ignored here (`findUnknownKeys` reports them as warnings).
 */
export function validateConfig(
  raw: Plain,
): { ok: true; config: Config } | { ok: false; issues: [ConfigIssue, ...ConfigIssue[]] } {
  const out: Plain = {};
  const issues: ConfigIssue[] = [];
  for (const [section, spec] of Object.entries(CONFIG_SPEC)) {
    const value = raw[section] ?? {};
    if (!isPlain(value)) issues.push({ key: section, value, expected: 'expected a table ([section])' });
    else out[section] = checkSection(spec, value, section, issues);
  }
  if (issues.length === 0) {
    // Across sections: a profile's env_pass against the cc_exec keys, agents.default against the profiles.
    const config = out as unknown as Config;
    const ccexecKeys = new Map(
      Object.entries(config.ccexec.providers)
        .filter(([, p]) => p.api_key_env.length > 0)
        .map(([name, p]) => [p.api_key_env, name] as const),
    );
    for (const { key, value, text } of checkAgentsSection(config.agents, ccexecKeys))
      issues.push({ key, value, expected: text.en, expectedZh: text.zh });
  }
  const [first, ...rest] = issues;
  return first ? { ok: false, issues: [first, ...rest] } : { ok: true, config: out as unknown as Config };
}

/** Dotted keys present in `raw` that the schema does not know, with a near-miss suggestion. */
export function findUnknownKeys(raw: Plain): Array<{ key: string; suggestion?: string }> {
  const found: Array<{ key: string; suggestion?: string }> = [];
  const walk = (data: Plain, spec: SectionSpec, prefix: string) => {
    const rest = Object.values(spec).find((f) => f.t === 'rest');
    for (const [name, value] of Object.entries(data)) {
      const key = `${prefix}.${name}`;
      const field = spec[name]?.t === 'rest' ? undefined : spec[name];
      if (!field && rest?.t === 'rest') {
        // A table of the section's "rest" (`[agents.codex]`): its keys are checked like a table's.
        if (isPlain(value)) walk(value, rest.item, key);
      } else if (!field) {
        const near = Object.keys(spec).find((k) => levenshtein(k, name) <= 2);
        found.push(near ? { key, suggestion: `${prefix}.${near}` } : { key });
      } else if (field.t === 'tables' && isPlain(value)) {
        for (const [item, itemValue] of Object.entries(value))
          if (isPlain(itemValue)) walk(itemValue, field.item, `${key}.${item}`);
      }
    }
  };
  for (const [section, value] of Object.entries(raw)) {
    const spec = CONFIG_SPEC[section as keyof Config];
    if (!spec) {
      const near = Object.keys(CONFIG_SPEC).find((k) => levenshtein(k, section) <= 2);
      found.push(near ? { key: section, suggestion: near } : { key: section });
    } else if (isPlain(value)) walk(value, spec, section);
  }
  return found;
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
