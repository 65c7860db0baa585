import { VersionedDoc } from '../../store/versioned-doc.js';

/** One persisted "always allow" answer for an ACP agent. */
export interface AgentRule {
  /** The agent's name (`codex`, `qwen`, …); a rule never applies to another agent. */
  agent: string;
  /** ACP tool kind (`execute`, `edit`, …; `other` when the agent sent none). */
  kind: string;
  /** What exactly was allowed: the shell command, or the tool call's title. Matched exactly (whitespace collapsed). */
  command: string;
  /** ISO time it was accepted. */
  addedAt: string;
  userId?: string;
}

/** `~/.cc-linker/agent-permissions.json` → `data`. */
export interface AgentPermissionsData {
  rules: AgentRule[];
}

const SCHEMA = 1;

/** Whitespace-insensitive form of a command, so `echo  hi` and `echo hi` are one rule. */
export function normalizeCommand(command: string): string {
  return command.replace(/\s+/g, ' ').trim();
}

function validate(raw: unknown): AgentPermissionsData {
  if (typeof raw !== 'object' || raw === null || !Array.isArray((raw as { rules?: unknown }).rules))
    throw new Error('expected { rules: [...] }');
  const rules: AgentRule[] = [];
  for (const r of (raw as { rules: unknown[] }).rules) {
    if (typeof r !== 'object' || r === null) continue;
    const { agent, kind, command, addedAt, userId } = r as Record<string, unknown>;
    // A hand-edited entry missing a field is dropped, not fatal.
    if (typeof agent !== 'string' || typeof kind !== 'string' || typeof command !== 'string') continue;
    if (!agent || !kind || !normalizeCommand(command)) continue;
    rules.push({
      agent,
      kind,
      command: normalizeCommand(command),
      addedAt: typeof addedAt === 'string' ? addedAt : '',
      ...(typeof userId === 'string' ? { userId } : {}),
    });
  }
  return { rules };
}

/**
 * "Always allow" answers given to ACP agents' permission requests, kept per agent: the triple
 * (agent, tool kind, exact command or title). A later request with the same triple is allowed
 * without asking. Its own file next to Claude's `permissions.json` (whose rules use Claude Code's
 * syntax and are read by Claude's engines): an ACP agent's request is not a Claude rule, and one
 * file with two writers of different shapes could drop the other's part. A `VersionedDoc` (0600,
 * compare-and-swap), like the Claude store.
 *
 * @example
 *   const store = new AgentPermissionStore(path.join(paths.home, 'agent-permissions.json'));
 *   await store.add({ agent: 'codex', kind: 'execute', command: 'npm test' });
 *   await store.allows('codex', 'execute', 'npm test') // true
 */
export class AgentPermissionStore {
  private readonly doc: VersionedDoc<AgentPermissionsData>;

  constructor(readonly file: string) {
    this.doc = new VersionedDoc<AgentPermissionsData>(file, {
      schema: SCHEMA,
      defaultValue: () => ({ rules: [] }),
      validate,
    });
  }

  /** Every rule (of one agent, when named), oldest first. */
  async list(agent?: string): Promise<AgentRule[]> {
    const { rules } = (await this.doc.read()).data;
    return agent === undefined ? rules : rules.filter((r) => r.agent === agent);
  }

  /** True when this agent was told to always allow exactly this kind + command. */
  async allows(agent: string, kind: string, command: string): Promise<boolean> {
    const want = normalizeCommand(command);
    if (!want) return false;
    return (await this.list(agent)).some((r) => r.kind === kind && r.command === want);
  }

  /** Adds a rule; false when it was already there. Throws `RangeError` for an empty field. */
  async add(rule: { agent: string; kind: string; command: string; userId?: string; now?: Date }): Promise<boolean> {
    const command = normalizeCommand(rule.command);
    if (!rule.agent || !rule.kind || !command)
      throw new RangeError('an agent rule needs an agent, a kind and a command');
    const r = await this.doc.update((data) => {
      if (data.rules.some((x) => x.agent === rule.agent && x.kind === rule.kind && x.command === command))
        return undefined;
      data.rules.push({
        agent: rule.agent,
        kind: rule.kind,
        command,
        addedAt: (rule.now ?? new Date()).toISOString(),
        ...(rule.userId ? { userId: rule.userId } : {}),
      });
      return data;
    });
    return r.changed;
  }

  /**
   * Removes exactly this rule (agent, kind and command, whitespace collapsed); returns it, or null
   * when it is not there (any more). What a caller that picked a rule from `list()` revokes, so a
   * change to the file in between can never remove another rule.
   */
  async revokeRule(rule: Pick<AgentRule, 'agent' | 'kind' | 'command'>): Promise<AgentRule | null> {
    const command = normalizeCommand(rule.command);
    let removed: AgentRule | null = null;
    await this.doc.update((data) => {
      removed = null;
      const i = data.rules.findIndex((r) => r.agent === rule.agent && r.kind === rule.kind && r.command === command);
      if (i < 0) return undefined;
      removed = data.rules[i] ?? null;
      data.rules.splice(i, 1);
      return data;
    });
    return removed;
  }

  /** Removes the `index`-th (1-based) rule of `list(agent)`; returns it, or null when there is none. */
  async revoke(index: number, agent?: string): Promise<AgentRule | null> {
    let removed: AgentRule | null = null;
    await this.doc.update((data) => {
      removed = null;
      const mine = data.rules.filter((r) => agent === undefined || r.agent === agent);
      const target = mine[index - 1];
      if (!target) return undefined;
      data.rules.splice(data.rules.indexOf(target), 1);
      removed = target;
      return data;
    });
    return removed;
  }
}
