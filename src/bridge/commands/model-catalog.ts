import { bridgeMessages } from '../bridge-messages.js';
import type { CommandContext } from './command-context.js';

/** One choice of `/model`: what the user types and the model id Claude Code gets. */
export interface ModelChoice {
  alias: string;
  model: string;
}

/** Aliases Claude Code itself understands for `--model`; accepted even when not configured. */
export const CLAUDE_CODE_MODEL_ALIASES = ['sonnet', 'opus', 'haiku', 'opusplan'] as const;

/**
 * The numbered list `/model` shows: `claude.models` from the config first (in file order), then
 * discovered ones (`ctx.models()`) whose alias is not already listed.
 */
export async function modelChoices(ctx: Pick<CommandContext, 'config' | 'models'>): Promise<ModelChoice[]> {
  const choices: ModelChoice[] = Object.entries(ctx.config.claude.models).map(([alias, model]) => ({ alias, model }));
  const seen = new Set(choices.map((c) => c.alias.toLowerCase()));
  for (const c of await ctx.models()) {
    if (seen.has(c.alias.toLowerCase())) continue;
    seen.add(c.alias.toLowerCase());
    choices.push(c);
  }
  return choices;
}

/**
 * What `--model <x>` / `/model <x>` means: a listed alias (case-insensitive) → its model id; a
 * listed model id, a Claude Code alias or a `claude-…` id → itself; anything else is refused with
 * the known aliases, so a typo never silently falls back to another model.
 */
export async function resolveModel(
  input: string,
  ctx: Pick<CommandContext, 'config' | 'models' | 'lang'>,
): Promise<{ ok: true; model: string } | { ok: false; message: string }> {
  const choices = await modelChoices(ctx);
  const lower = input.toLowerCase();
  const byAlias = choices.find((c) => c.alias.toLowerCase() === lower);
  if (byAlias) return { ok: true, model: byAlias.model };
  if (choices.some((c) => c.model === input)) return { ok: true, model: input };
  if ((CLAUDE_CODE_MODEL_ALIASES as readonly string[]).includes(lower)) return { ok: true, model: lower };
  if (/^claude-[a-z0-9][a-z0-9.-]*(\[1m\])?$/i.test(input)) return { ok: true, model: input };
  const known = [...new Set([...choices.map((c) => c.alias), ...CLAUDE_CODE_MODEL_ALIASES])].join(', ');
  return { ok: false, message: bridgeMessages(ctx.lang)('modelUnknown', { alias: input, known }) };
}
