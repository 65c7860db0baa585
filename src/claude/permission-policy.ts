import type { Logger } from '../core/logger.js';
import { firstMatchingRule, type ToolCall } from './permission-rules.js';
import type { PermissionStore } from './permission-store.js';

/** The verdict of the policy on one tool call before anyone is asked. */
export type PolicyVerdict = { verdict: 'allow'; rule: string } | { verdict: 'deny'; rule: string } | { verdict: 'ask' };

/** The rules in force for one run: config lists plus the persisted "always allow" rules. */
export interface RuleSet {
  /** `claude.allowed_tools` followed by the persisted rules. */
  allowed: string[];
  /** `claude.disallowed_tools`. */
  disallowed: string[];
}

/**
 * Applies cc-linker's permission settings to tool calls, the same way in every mode:
 * `claude.disallowed_tools` always denies (it wins over everything), `claude.allowed_tools` and
 * the persisted "always allow" rules (`~/.cc-linker/permissions.json`) allow without asking,
 * anything else is asked — interactively in `sdk` mode, or decided by Claude Code's own
 * `--permission-mode` in `json` / `stream-json` mode (there is nobody to ask there; see
 * src/claude/README.md).
 *
 * @example
 *   const rules = await policy.ruleSet();
 *   policy.decide(rules, { toolName: 'Bash', input: { command: 'npm test' }, cwd, home }) // { verdict: 'ask' }
 */
export class PermissionPolicy {
  constructor(
    private readonly config: { allowed_tools: readonly string[]; disallowed_tools: readonly string[] },
    private readonly store: PermissionStore,
    private readonly logger: Logger,
  ) {}

  /** The rules for a run starting now. A broken permissions file only loses the persisted part (logged). */
  async ruleSet(): Promise<RuleSet> {
    let persisted: string[] = [];
    try {
      persisted = await this.store.rules();
    } catch (err) {
      this.logger.warn('cannot read persisted permission rules; using the config lists only', {
        file: this.store.file,
        err,
      });
    }
    const allowed = [...this.config.allowed_tools];
    for (const r of persisted) if (!allowed.includes(r)) allowed.push(r);
    return { allowed, disallowed: [...this.config.disallowed_tools] };
  }

  /** Deny-list first, then allow-list, else ask. */
  decide(rules: RuleSet, call: ToolCall): PolicyVerdict {
    const denied = firstMatchingRule(rules.disallowed, call);
    if (denied) return { verdict: 'deny', rule: denied };
    const allowed = firstMatchingRule(rules.allowed, call);
    if (allowed) return { verdict: 'allow', rule: allowed };
    return { verdict: 'ask' };
  }

  /** Persists an "always allow" rule; failures are logged (the current call is still allowed). */
  async remember(rule: string, meta: { userId?: string; source?: string }): Promise<void> {
    try {
      await this.store.add(rule, meta);
    } catch (err) {
      this.logger.warn('cannot persist an always-allow rule', { rule, err });
    }
  }
}

/**
 * The permission flags of a `claude -p` run: `--permission-mode <mode>`, `--allowedTools <rules…>`,
 * `--disallowedTools <rules…>`. Each rule is its own argv element (the CLI splits on commas and
 * spaces only outside parentheses, and there is no shell). The lists are variadic, so the caller
 * must not put a positional prompt after them — the engine passes the prompt on stdin.
 */
export function permissionFlags(permissionMode: string, rules: RuleSet): string[] {
  const flags = ['--permission-mode', permissionMode];
  if (rules.allowed.length > 0) flags.push('--allowedTools', ...rules.allowed);
  if (rules.disallowed.length > 0) flags.push('--disallowedTools', ...rules.disallowed);
  return flags;
}
