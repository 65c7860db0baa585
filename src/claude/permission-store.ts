import { VersionedDoc } from '../store/versioned-doc.js';
import { parseRule } from './permission-rules.js';

/** One persisted "always allow" rule. */
export interface StoredRule {
  /** Claude Code rule syntax, e.g. `Bash(npm test:*)`. */
  rule: string;
  /** ISO time it was accepted. */
  addedAt: string;
  /** Who accepted it (open_id / web user), when known. */
  userId?: string;
  /** The prompt it came from, for `permissions list`: `Bash: npm test`. */
  source?: string;
}

/** `~/.cc-linker/permissions.json` → `data`. */
export interface PermissionsData {
  rules: StoredRule[];
}

const SCHEMA = 1;

function validate(raw: unknown): PermissionsData {
  if (typeof raw !== 'object' || raw === null || !Array.isArray((raw as { rules?: unknown }).rules))
    throw new Error('expected { rules: [...] }');
  const rules: StoredRule[] = [];
  for (const r of (raw as { rules: unknown[] }).rules) {
    if (typeof r !== 'object' || r === null) continue;
    const { rule, addedAt, userId, source } = r as Record<string, unknown>;
    if (typeof rule !== 'string' || !parseRule(rule)) continue; // a hand-edited bad rule is dropped, not fatal
    rules.push({
      rule,
      addedAt: typeof addedAt === 'string' ? addedAt : '',
      ...(typeof userId === 'string' ? { userId } : {}),
      ...(typeof source === 'string' ? { source } : {}),
    });
  }
  return { rules };
}

/**
 * The persisted "always allow" rules: a user accepts a prompt's suggestion once,
 * later runs apply it before asking — in `sdk` mode inside `canUseTool` and as `allowedTools`, in
 * `json` / `stream-json` modes as `--allowedTools`. A `VersionedDoc` (0600, compare-and-swap), so
 * the bot and `cc-linker permissions revoke` can change it at the same time without losing updates.
 *
 * @example
 *   const store = new PermissionStore(paths.permissionsFile);
 *   await store.add('Bash(npm test:*)', { userId, source: 'Bash: npm test' });
 *   await store.rules() // ['Bash(npm test:*)']
 */
export class PermissionStore {
  private readonly doc: VersionedDoc<PermissionsData>;

  constructor(readonly file: string) {
    this.doc = new VersionedDoc<PermissionsData>(file, {
      schema: SCHEMA,
      defaultValue: () => ({ rules: [] }),
      validate,
    });
  }

  /** Every stored rule with its metadata, oldest first. */
  async list(): Promise<StoredRule[]> {
    return (await this.doc.read()).data.rules;
  }

  /** Just the rule strings. */
  async rules(): Promise<string[]> {
    return (await this.list()).map((r) => r.rule);
  }

  /** Adds a rule (no-op when already there). Throws `RangeError` for a rule that does not parse. */
  async add(rule: string, meta: { userId?: string; source?: string; now?: Date } = {}): Promise<boolean> {
    if (!parseRule(rule)) throw new RangeError(`not a permission rule: ${rule}`);
    const r = await this.doc.update((data) => {
      if (data.rules.some((x) => x.rule === rule)) return undefined;
      data.rules.push({
        rule,
        addedAt: (meta.now ?? new Date()).toISOString(),
        ...(meta.userId ? { userId: meta.userId } : {}),
        ...(meta.source ? { source: meta.source } : {}),
      });
      return data;
    });
    return r.changed;
  }

  /**
   * Removes a rule given as its exact text or its 1-based position in `list()`. Returns the removed
   * rule, or null when nothing matched.
   */
  async revoke(ruleOrIndex: string): Promise<StoredRule | null> {
    let removed: StoredRule | null = null;
    await this.doc.update((data) => {
      removed = null;
      let i = data.rules.findIndex((x) => x.rule === ruleOrIndex);
      if (i < 0 && /^\d+$/.test(ruleOrIndex)) {
        const n = Number(ruleOrIndex);
        if (n >= 1 && n <= data.rules.length) i = n - 1;
      }
      if (i < 0) return undefined;
      removed = data.rules[i] ?? null;
      data.rules.splice(i, 1);
      return data;
    });
    return removed;
  }
}
