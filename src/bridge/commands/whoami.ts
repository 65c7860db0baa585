import { bridgeMessages } from '../bridge-messages.js';
import { textReply } from '../reply-model.js';
import type { CommandContext, CommandOutcome } from './command-context.js';

/**
 * `/whoami`: the sender's id — Feishu's open_id (for `feishu_bot.owner_open_id`), or another chat
 * app's user id, named so (for that channel's owner setting).
 */
export async function handleWhoami(_cmd: { name: 'whoami' }, ctx: CommandContext): Promise<CommandOutcome> {
  const key = ctx.channel === undefined || ctx.channel === 'feishu' ? 'whoami' : 'whoamiUserId';
  return { reply: textReply(bridgeMessages(ctx.lang)(key, { userId: ctx.userId })) };
}
