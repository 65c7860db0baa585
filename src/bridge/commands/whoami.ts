import { bridgeMessages } from '../bridge-messages.js';
import { textReply } from '../reply-model.js';
import type { CommandContext, CommandOutcome } from './command-context.js';

/** `/whoami`: the sender's id (the owner copies it into `feishu_bot.owner_open_id`). */
export async function handleWhoami(_cmd: { name: 'whoami' }, ctx: CommandContext): Promise<CommandOutcome> {
  return { reply: textReply(bridgeMessages(ctx.lang)('whoami', { userId: ctx.userId })) };
}
