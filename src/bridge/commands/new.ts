import { bridgeMessages } from '../bridge-messages.js';
import { checkWorkingDirectory } from './dir-safety.js';
import { tildify } from '../../core/tildify.js';
import { textReply } from '../reply-model.js';
import { DEFAULT_AGENT } from '../../engine/engine-types.js';
import { defaultModelOf, entryAgent } from '../mapping/user-mapping.js';
import { checkAgent, newSessionAgent } from './agent-catalog.js';
import type { CommandContext, CommandOutcome } from './command-context.js';
import { dirPolicy } from './dir-policy.js';
import { resolveModel } from './model-catalog.js';

/**
 * `/new [cwd] [--agent <name>] [--model <alias>] [-- prompt]` (see docs/design.md#commands-and-targets):
 * - cwd: the argument, else `feishu_bot.default_cwd`, else guidance (nothing is created);
 * - the directory must pass the safety check; its real path is what Claude runs in;
 * - no prompt → the mapping becomes `pending_new_session` ("请继续发送第一条消息"): no Claude
 *   process, no cost, no bootstrap prompt;
 * - a prompt → this message claims the new-session slot in one CAS (under its own id, so a re-run
 *   after a crash claims nothing new) and the outcome carries `run`, which the dispatcher executes
 *   under the `new:<open_id>` key.
 * - the agent: `--agent`, else the user's `/agent` choice, else `agents.default`; one that is not
 *   configured is refused with the ones that are (nothing is created).
 * `--model` takes an alias (or a model id / Claude Code alias) for Claude Code, and the agent's own
 * model id for other agents; without it the user's default stays when the agent does.
 */
export async function handleNew(
  cmd: { name: 'new'; cwd?: string; prompt?: string; model?: string; agent?: string },
  ctx: CommandContext,
): Promise<CommandOutcome> {
  const t = bridgeMessages(ctx.lang);
  const target = cmd.cwd ?? ctx.config.feishu_bot.default_cwd;
  if (!target) return { reply: textReply(t('newNoCwd')) };
  const picked = checkAgent(cmd.agent ?? (await newSessionAgent(ctx)), ctx);
  if (!picked.ok) return { reply: textReply(picked.message) };
  const dir = await checkWorkingDirectory(target, dirPolicy(ctx));
  if (!dir.ok) return { reply: textReply(dir.message) };
  // Claude Code's sessions keep no agent field: their mapping entries stay as they always were.
  const agent = picked.agent.name === DEFAULT_AGENT ? undefined : picked.agent.name;
  let model: string | undefined;
  if (cmd.model !== undefined && agent) {
    model = cmd.model;
  } else if (cmd.model !== undefined) {
    const m = await resolveModel(cmd.model, ctx);
    if (!m.ok) return { reply: textReply(m.message) };
    model = m.model;
  }
  const shown = tildify(dir.realPath, ctx.paths.userHome);
  const agentLine = agent ? `\n${t('newAgent', { agent: picked.agent.label })}` : '';
  if (!cmd.prompt) {
    await ctx.mapping.setPendingNew(ctx.userId, {
      cwd: dir.realPath,
      ...(model === undefined ? {} : { model }),
      ...(agent ? { agent } : {}),
    });
    const effective = model ?? (await currentModel(ctx, agent));
    const text =
      t('newPendingSet', { cwd: shown }) +
      agentLine +
      (effective ? `\n${t('newPendingModel', { model: effective })}` : '');
    return { reply: textReply(text) };
  }
  await ctx.mapping.claimNewDirectly(ctx.userId, ctx.messageId, dir.realPath, model, agent);
  const runModel = model ?? (await currentModel(ctx, agent));
  return {
    reply: textReply(t('newCreating', { cwd: shown }) + agentLine),
    run: {
      prompt: cmd.prompt,
      cwd: dir.realPath,
      ...(runModel ? { model: runModel } : {}),
      ...(agent ? { agent } : {}),
    },
  };
}

/** The user's default model, when their current target runs the same agent (a model is one agent's name). */
async function currentModel(ctx: CommandContext, agent: string | undefined): Promise<string | undefined> {
  const entry = await ctx.mapping.get(ctx.userId);
  return entryAgent(entry) === agent ? (defaultModelOf(entry) ?? undefined) : undefined;
}
