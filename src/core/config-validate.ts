import { CONFIG_SPEC, type Config, type FieldSpec, type SectionSpec } from './config-schema.js';

type Plain = Record<string, unknown>;
const isPlain = (v: unknown): v is Plain => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A key that failed validation: its dotted path, the value, and what was expected. */
export interface ConfigIssue {
  key: string;
  value: unknown;
  expected: string;
}

function checkField(spec: FieldSpec, value: unknown, key: string): { ok: true; value: unknown } | { ok: false; issue: ConfigIssue } {
  const bad = (expected: string) => ({ ok: false as const, issue: { key, value, expected } });
  switch (spec.t) {
    case 'string':
      if (typeof value !== 'string') return bad('expected a string');
      if (spec.check) {
        const problem = spec.check(value);
        if (problem) return bad(problem);
      }
      return { ok: true, value };
    case 'int':
      if (typeof value !== 'number' || !Number.isInteger(value)) return bad(`expected an integer${spec.min === 1 ? ' ≥ 1' : spec.min === 0 ? ' ≥ 0' : ''}`);
      if (value < spec.min || (spec.max !== undefined && value > spec.max)) return bad(`expected an integer from ${spec.min} to ${spec.max ?? 'any size'}`);
      return { ok: true, value };
    case 'bool':
      return typeof value === 'boolean' ? { ok: true, value } : bad('expected true or false');
    case 'enum':
      return typeof value === 'string' && spec.values.includes(value) ? { ok: true, value } : bad(`expected one of ${spec.values.map((v) => `"${v}"`).join(', ')}`);
    case 'strings':
      if (!Array.isArray(value) || value.some((v) => typeof v !== 'string')) return bad('expected a list of strings, e.g. ["a", "b"]');
      if (spec.minItems && value.length < spec.minItems) return bad(`expected at least ${spec.minItems} item(s)`);
      return { ok: true, value: [...value] };
    case 'map':
      if (!isPlain(value) || Object.values(value).some((v) => typeof v !== 'string')) return bad('expected a table of strings, e.g. { sonnet = "claude-sonnet-4-5" }');
      return { ok: true, value: { ...value } };
    case 'tables': {
      if (!isPlain(value)) return bad('expected a table of tables');
      const out: Plain = {};
      for (const [name, item] of Object.entries(value)) {
        if (!isPlain(item)) return { ok: false, issue: { key: `${key}.${name}`, value: item, expected: 'expected a table' } };
        for (const req of spec.required) {
          if (!(req in item)) return { ok: false, issue: { key: `${key}.${name}.${req}`, value: undefined, expected: 'is required' } };
        }
        const section = checkSection(spec.item, item, `${key}.${name}`);
        if (!section.ok) return section;
        out[name] = section.value;
      }
      return { ok: true, value: out };
    }
  }
}

function defaultOf(spec: FieldSpec): unknown {
  switch (spec.t) {
    case 'tables':
      return {};
    case 'strings':
      return [...spec.d];
    case 'map':
      return { ...spec.d };
    default:
      return spec.d;
  }
}

function checkSection(spec: SectionSpec, raw: Plain, prefix: string): { ok: true; value: Plain } | { ok: false; issue: ConfigIssue } {
  const out: Plain = {};
  for (const [name, field] of Object.entries(spec)) {
    const key = `${prefix}.${name}`;
    if (raw[name] === undefined) {
      const d = defaultOf(field);
      if (d !== undefined) out[name] = d;
      continue;
    }
    const r = checkField(field, raw[name], key);
    if (!r.ok) return r;
    out[name] = r.value;
  }
  return { ok: true, value: out };
}

/**
 * Validates raw TOML data (after environment overrides) against `CONFIG_SPEC` and fills in
 * defaults. Unknown keys are ignored here (`findUnknownKeys` reports them as warnings).
 */
export function validateConfig(raw: Plain): { ok: true; config: Config } | { ok: false; issue: ConfigIssue } {
  const out: Plain = {};
  for (const [section, spec] of Object.entries(CONFIG_SPEC)) {
    const value = raw[section] ?? {};
    if (!isPlain(value)) return { ok: false, issue: { key: section, value, expected: 'expected a table ([section])' } };
    const r = checkSection(spec, value, section);
    if (!r.ok) return r;
    out[section] = r.value;
  }
  return { ok: true, config: out as unknown as Config };
}

/** Dotted keys present in `raw` that the schema does not know, with a near-miss suggestion. */
export function findUnknownKeys(raw: Plain): Array<{ key: string; suggestion?: string }> {
  const found: Array<{ key: string; suggestion?: string }> = [];
  const walk = (data: Plain, spec: SectionSpec, prefix: string) => {
    for (const [name, value] of Object.entries(data)) {
      const key = `${prefix}.${name}`;
      const field = spec[name];
      if (!field) {
        const near = Object.keys(spec).find((k) => levenshtein(k, name) <= 2);
        found.push(near ? { key, suggestion: `${prefix}.${near}` } : { key });
      } else if (field.t === 'tables' && isPlain(value)) {
        for (const [item, itemValue] of Object.entries(value)) if (isPlain(itemValue)) walk(itemValue, field.item, `${key}.${item}`);
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
