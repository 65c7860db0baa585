import { bridgeMessages } from '../bridge-messages.js';
import { entryAgent } from '../mapping/user-mapping.js';
import { textReply, type CardSection } from '../reply-model.js';
import { agentLabel, catalogOf, checkAgent, newSessionAgent } from './agent-catalog.js';
import type { CommandContext, CommandOutcome } from './command-context.js';

/**
 * `/agent [name]`: without a name shows the agents this machine runs, the one `/new` uses and the
 * current session's; with a name makes it the user's default for `/new` (existing sessions keep
 * their agent — a session belongs to the agent that created it).
 */
export async function handleAgent(
  cmd: { name: 'agent'; agent?: string },
  ctx: CommandContext,
): Promise<CommandOutcome> {
  const t = bridgeMessages(ctx.lang);
  if (cmd.agent) {
    const found = checkAgent(cmd.agent, ctx);
    if (!found.ok) return { reply: textReply(found.message) };
    await ctx.mapping.setDefaultAgent(ctx.userId, found.agent.name);
    return { reply: textReply(t('agentSet', { agent: found.agent.label })) };
  }
  const chosen = await newSessionAgent(ctx);
  const entry = await ctx.mapping.get(ctx.userId);
  const sections: CardSection[] = [{ type: 'plain', text: t('agentDefault', { agent: agentLabel(ctx, chosen) }) }];
  if (entry) sections.push({ type: 'plain', text: t('agentCurrent', { agent: agentLabel(ctx, entryAgent(entry)) }) });
  const lines = catalogOf(ctx)
    .list()
    .map(
      (a) =>
        `• ${a.name} — ${a.label}${a.available === false ? t('agentNotInstalled') : ''}${a.name === chosen ? ' ✓' : ''}`,
    );
  sections.push(
    { type: 'markdown', text: t('agentList') },
    { type: 'plain', text: lines.join('\n') },
    { type: 'divider' },
    { type: 'markdown', text: t('agentHint') },
  );
  return { reply: { kind: 'card', title: t('agentTitle'), status: 'info', sections } };
}
