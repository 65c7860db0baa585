import { bridgeMessages } from '../bridge-messages.js';
import type { CardSection } from '../reply-model.js';
import { textReply } from '../reply-model.js';
import { defaultModelOf, entryAgent } from '../mapping/user-mapping.js';
import { agentLabel, catalogOf } from './agent-catalog.js';
import type { CommandContext, CommandOutcome } from './command-context.js';
import { modelChoices, resolveModel } from './model-catalog.js';

/**
 * `/model [n|alias|--clear]`: without an argument shows the user's
 * default model and the numbered choices; with one sets (or clears) the default kept on the
 * user's mapping entry, used for new sessions and later messages. For a session of another agent
 * than Claude Code, the choices are the models that agent offers (when it says).
 */
export async function handleModel(
  cmd: { name: 'model'; arg?: { index: number } | { alias: string } | { clear: true } },
  ctx: CommandContext,
): Promise<CommandOutcome> {
  const t = bridgeMessages(ctx.lang);
  const arg = cmd.arg;
  const agent = entryAgent(await ctx.mapping.get(ctx.userId));
  if (agent) return agentModel(arg, agent, ctx);
  if (!arg) return { reply: await modelCard(ctx) };
  let model: string | null;
  if ('clear' in arg) {
    model = null;
  } else if ('index' in arg) {
    const choices = await modelChoices(ctx);
    const choice = choices[arg.index - 1];
    if (arg.index < 1 || !choice)
      return { reply: textReply(t('modelIndexOutOfRange', { index: arg.index, count: choices.length })) };
    model = choice.model;
  } else {
    const r = await resolveModel(arg.alias, ctx);
    if (!r.ok) return { reply: textReply(r.message) };
    model = r.model;
  }
  if (!(await ctx.mapping.setDefaultModel(ctx.userId, model))) return { reply: textReply(t('modelNoTarget')) };
  return { reply: textReply(model === null ? t('modelCleared') : t('modelSet', { model })) };
}

async function modelCard(ctx: CommandContext): Promise<CommandOutcome['reply']> {
  const t = bridgeMessages(ctx.lang);
  const current = defaultModelOf(await ctx.mapping.get(ctx.userId));
  const configured = ctx.config.claude.default_model;
  const fallback = configured ? t('modelFallbackConfig', { model: configured }) : t('modelFallbackClaude');
  const choices = await modelChoices(ctx);
  const sections: CardSection[] = [
    { type: 'plain', text: current ? t('modelCurrent', { model: current }) : t('modelCurrentNone', { fallback }) },
  ];
  if (choices.length === 0) {
    sections.push({ type: 'markdown', text: t('modelListEmpty') });
  } else {
    const lines = choices.map((c, i) => `${i + 1}. ${c.alias} → ${c.model}${c.model === current ? ' ✓' : ''}`);
    sections.push({ type: 'markdown', text: t('modelList') }, { type: 'plain', text: lines.join('\n') });
  }
  sections.push({ type: 'divider' }, { type: 'markdown', text: t('modelHint') });
  return { kind: 'card', title: t('modelTitle'), status: 'info', sections };
}

/** `/model` for an agent other than Claude Code: its own model ids, listed where it can say. */
async function agentModel(
  arg: { index: number } | { alias: string } | { clear: true } | undefined,
  agent: string,
  ctx: CommandContext,
): Promise<CommandOutcome> {
  const t = bridgeMessages(ctx.lang);
  const label = agentLabel(ctx, agent);
  const offered = await catalogOf(ctx)
    .models(agent)
    .catch(() => []);
  const current = defaultModelOf(await ctx.mapping.get(ctx.userId));
  if (!arg) {
    const sections: CardSection[] = [
      {
        type: 'plain',
        text: current ? t('modelCurrent', { model: current }) : t('modelCurrentNone', { fallback: label }),
      },
    ];
    if (offered.length === 0) sections.push({ type: 'markdown', text: t('modelAgentUnlisted', { agent: label }) });
    else
      sections.push(
        { type: 'markdown', text: t('modelList') },
        {
          type: 'plain',
          text: offered
            .map(
              (m, i) =>
                `${i + 1}. ${m.id}${m.name && m.name !== m.id ? ` (${m.name})` : ''}${m.id === current ? ' ✓' : ''}`,
            )
            .join('\n'),
        },
      );
    sections.push({ type: 'divider' }, { type: 'markdown', text: t('modelHint') });
    return { reply: { kind: 'card', title: `${t('modelTitle')} · ${label}`, status: 'info', sections } };
  }
  let model: string | null;
  if ('clear' in arg) model = null;
  else if ('index' in arg) {
    const choice = offered[arg.index - 1];
    if (arg.index < 1 || !choice)
      return { reply: textReply(t('modelIndexOutOfRange', { index: arg.index, count: offered.length })) };
    model = choice.id;
  } else {
    const known = offered.find((m) => m.id.toLowerCase() === arg.alias.toLowerCase());
    if (offered.length > 0 && !known)
      return { reply: textReply(t('modelUnknown', { alias: arg.alias, known: offered.map((m) => m.id).join(', ') })) };
    model = known?.id ?? arg.alias;
  }
  if (!(await ctx.mapping.setDefaultModel(ctx.userId, model))) return { reply: textReply(t('modelNoTarget')) };
  return { reply: textReply(model === null ? t('modelCleared') : t('modelSet', { model })) };
}
