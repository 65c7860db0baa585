import { bridgeMessages } from '../bridge-messages.js';
import { checkWorkingDirectory } from './dir-safety.js';
import { tildify } from '../../core/tildify.js';
import { textReply } from '../reply-model.js';
import { defaultModelOf } from '../mapping/user-mapping.js';
import type { CommandContext, CommandOutcome } from './command-context.js';
import { dirPolicy } from './dir-policy.js';
import { resolveModel } from './model-catalog.js';

/**
 * `/new [cwd] [--model <alias>] [-- prompt]` (see docs/design.md#commands-and-targets):
 * - cwd: the argument, else `feishu_bot.default_cwd`, else guidance (nothing is created);
 * - the directory must pass the safety check; its real path is what Claude runs in;
 * - no prompt → the mapping becomes `pending_new_session` ("请继续发送第一条消息"): no Claude
 *   process, no cost, no bootstrap prompt;
 * - a prompt → this message claims the new-session slot in one CAS (under its own id, so a re-run
 *   after a crash claims nothing new) and the outcome carries `run`, which the dispatcher executes
 *   under the `new:<open_id>` key.
 * `--model` takes an alias (or a model id / Claude Code alias); without it the user's default stays.
 */
export async function handleNew(
  cmd: { name: 'new'; cwd?: string; prompt?: string; model?: string },
  ctx: CommandContext,
): Promise<CommandOutcome> {
  const t = bridgeMessages(ctx.lang);
  const target = cmd.cwd ?? ctx.config.feishu_bot.default_cwd;
  if (!target) return { reply: textReply(t('newNoCwd')) };
  const dir = await checkWorkingDirectory(target, dirPolicy(ctx));
  if (!dir.ok) return { reply: textReply(dir.message) };
  let model: string | undefined;
  if (cmd.model !== undefined) {
    const m = await resolveModel(cmd.model, ctx);
    if (!m.ok) return { reply: textReply(m.message) };
    model = m.model;
  }
  const shown = tildify(dir.realPath, ctx.paths.userHome);
  if (!cmd.prompt) {
    await ctx.mapping.setPendingNew(
      ctx.userId,
      model === undefined ? { cwd: dir.realPath } : { cwd: dir.realPath, model },
    );
    const effective = model ?? (await currentModel(ctx));
    const text =
      t('newPendingSet', { cwd: shown }) + (effective ? `\n${t('newPendingModel', { model: effective })}` : '');
    return { reply: textReply(text) };
  }
  await ctx.mapping.claimNewDirectly(ctx.userId, ctx.messageId, dir.realPath, model);
  const runModel = model ?? (await currentModel(ctx));
  return {
    reply: textReply(t('newCreating', { cwd: shown })),
    run: { prompt: cmd.prompt, cwd: dir.realPath, ...(runModel ? { model: runModel } : {}) },
  };
}

async function currentModel(ctx: CommandContext): Promise<string | undefined> {
  return defaultModelOf(await ctx.mapping.get(ctx.userId)) ?? undefined;
}
