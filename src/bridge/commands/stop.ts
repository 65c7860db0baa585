import { bridgeMessages } from '../bridge-messages.js';
import { textReply } from '../reply-model.js';
import type { CommandContext, CommandOutcome } from './command-context.js';

/**
 * `/stop` stops the running Claude turn of the user's current session; `/stop all` every running
 * turn of the user. Each stopped card turns into "Stopped"; the message ends as cancelled and the
 * next waiting message of that session starts. With nothing to stop it says so (and, for `/stop`,
 * how many run elsewhere).
 */
export async function handleStop(cmd: { name: 'stop'; all: boolean }, ctx: CommandContext): Promise<CommandOutcome> {
  const t = bridgeMessages(ctx.lang);
  const r = ctx.turns ? await ctx.turns.stop(ctx.userId, cmd.all) : { stopped: 0, elsewhere: 0 };
  if (cmd.all) return { reply: textReply(r.stopped > 0 ? t('stopAllDone', { n: r.stopped }) : t('stopAllNothing')) };
  if (r.stopped > 0) return { reply: textReply(t('stopDone')) };
  return { reply: textReply(r.elsewhere > 0 ? t('stopNothingElsewhere', { n: r.elsewhere }) : t('stopNothing')) };
}

/** `/queue`: per session, the message running and the ones waiting (a short preview of each). */
export async function handleQueue(_cmd: { name: 'queue' }, ctx: CommandContext): Promise<CommandOutcome> {
  const t = bridgeMessages(ctx.lang);
  const views = (ctx.turns?.queue(ctx.userId) ?? []).filter((v) => v.waiting.length > 0);
  if (views.length === 0) return { reply: textReply(t('queueEmpty')) };
  return {
    reply: {
      kind: 'card',
      title: t('queueTitle'),
      status: 'info',
      sections: views.map((v) => ({
        type: 'plain' as const,
        text: [
          t('queueSession', { label: v.session }),
          ...(v.running ? [t('queueRunning', { preview: v.running })] : []),
          ...v.waiting.map((p, i) => t('queueItem', { n: i + 1, preview: p })),
        ].join('\n'),
      })),
    },
  };
}
