import fs from 'node:fs';
import path from 'node:path';

/** One choice for `/model`: what the user types, what is passed as `--model`, and where it came from. */
export interface ModelChoice {
  alias: string;
  model: string;
  /** `config` = `[claude.models]`; `provider:<file>` = a file under Claude's `providers/` directory. */
  source: string;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const nonEmpty = (v: unknown): v is string => typeof v === 'string' && v.trim().length > 0;

/** Largest provider file read; anything bigger is not a provider description. */
const MAX_PROVIDER_FILE = 256 * 1024;

/**
 * The model of one provider description. There is no standard format for `~/.claude/providers/`
 * (hand-written files, or ones written by tools such as CC Switch), so the common shapes are accepted:
 * `{ model }`, `{ env: { ANTHROPIC_MODEL } }` (a Claude settings file), and CC Switch's
 * `{ settingsConfig: { model | env: { ANTHROPIC_MODEL } } }`.
 */
function modelOf(doc: Obj): string | undefined {
  const candidates: unknown[] = [doc.model, isObj(doc.env) ? doc.env.ANTHROPIC_MODEL : undefined];
  if (isObj(doc.settingsConfig)) {
    const sc = doc.settingsConfig;
    candidates.push(sc.model, isObj(sc.env) ? sc.env.ANTHROPIC_MODEL : undefined);
  }
  const found = candidates.find(nonEmpty);
  return found?.trim();
}

/** Reads `<claudeDir>/providers/*.json` (and `<name>/settings.json`); unreadable or odd files are skipped. */
function providerModels(claudeDir: string): ModelChoice[] {
  const dir = path.join(claudeDir, 'providers');
  let names: string[];
  try {
    names = fs.readdirSync(dir).sort();
  } catch {
    return [];
  }
  const out: ModelChoice[] = [];
  for (const name of names) {
    const full = path.join(dir, name);
    const file = name.endsWith('.json') ? full : path.join(full, 'settings.json');
    let doc: unknown;
    try {
      const st = fs.statSync(file);
      if (!st.isFile() || st.size > MAX_PROVIDER_FILE) continue;
      doc = JSON.parse(fs.readFileSync(file, 'utf8'));
    } catch {
      continue;
    }
    if (!isObj(doc)) continue;
    const model = modelOf(doc);
    if (!model) continue;
    const stem = name.endsWith('.json') ? name.slice(0, -'.json'.length) : name;
    const alias = (nonEmpty(doc.alias) ? doc.alias : nonEmpty(doc.name) ? doc.name : stem).trim();
    out.push({ alias, model, source: `provider:${name}` });
  }
  return out;
}

/**
 * The data behind `/model`: aliases from `[claude.models]` in config first (they
 * win on a name clash), then providers found under Claude's `providers/` directory. Never throws:
 * a missing or unreadable directory only means fewer choices.
 *
 * @example
 *   listModels({ sonnet: 'claude-sonnet-4-5' }, paths.claudeDir)
 *   // [{ alias: 'sonnet', model: 'claude-sonnet-4-5', source: 'config' }, { alias: 'glm', model: 'glm-4.6', source: 'provider:glm.json' }]
 */
export function listModels(configModels: Readonly<Record<string, string>>, claudeDir: string): ModelChoice[] {
  const out: ModelChoice[] = [];
  const seen = new Set<string>();
  for (const [alias, model] of Object.entries(configModels)) {
    if (!nonEmpty(alias) || !nonEmpty(model) || seen.has(alias)) continue;
    seen.add(alias);
    out.push({ alias, model: model.trim(), source: 'config' });
  }
  for (const choice of providerModels(claudeDir)) {
    if (seen.has(choice.alias)) continue;
    seen.add(choice.alias);
    out.push(choice);
  }
  return out;
}

/** The model id for what a user typed: an alias from `choices`, else the text itself (a full model id). */
export function resolveModel(input: string, choices: readonly ModelChoice[]): string {
  const text = input.trim();
  return choices.find((c) => c.alias === text)?.model ?? text;
}
