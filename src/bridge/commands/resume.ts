import { statusOf } from '../../sessions/registry/registry-schema.js';
import { sessionsMessages } from '../../sessions/sessions-messages.js';
import { bridgeMessages } from '../bridge-messages.js';
import type { ListRef } from './command-parser.js';
import type { CardSection } from '../reply-model.js';
import { textReply } from '../reply-model.js';
import { resumeCommandLine } from '../../sessions/present/resume-command.js';
import { isSessionId } from '../../sessions/scan/session-id.js';
import type { CommandContext, CommandOutcome } from './command-context.js';
import { resolveSessionRef } from './resolve-session-ref.js';
import { shortId, titleOf } from './session-format.js';

/**
 * `/resume <n|prefix>`: safe advice for continuing the session in a terminal, with the same status
 * rules as `cc-linker resume`: active/archived → the commands to run;
 * provisioning/degraded → repair first (never a bare `claude --resume` that may fail obscurely);
 * corrupted, or an id that is not a session id (an older version's entry) → refused. The printed
 * command quotes the program, the directory and the id for the shell, and names the Claude Code
 * binary this daemon runs when `claude` is not on PATH (`ctx.claudeProgram`). It changes nothing: the chat keeps its
 * current target.
 */
export async function handleResume(
  cmd: { name: 'resume'; ref: ListRef },
  ctx: CommandContext,
): Promise<CommandOutcome> {
  const t = bridgeMessages(ctx.lang);
  const r = await resolveSessionRef(cmd.ref, ctx);
  if (!r.ok) return { reply: r.reply };
  const s = r.session;
  const id = shortId(s.uuid);
  const status = statusOf(s);
  if (!isSessionId(s.uuid)) return { reply: textReply(t('resumeNotAnId', { id })) };
  if (status === 'corrupted') return { reply: textReply(t('resumeCorrupted', { id })) };
  const sections: CardSection[] = [{ type: 'plain', text: `${titleOf(s, ctx.lang)}\nID: ${s.uuid}` }];
  if (status === 'provisioning' || status === 'degraded') {
    sections.push({
      type: 'markdown',
      text: t('resumeRepairFirst', { status: sessionsMessages(ctx.lang)(`status_${status}`) }),
    });
    sections.push({ type: 'plain', text: `cc-linker repair ${id}\n${t('resumeCliCommand', { id })}` });
    if (s.last_error) sections.push({ type: 'plain', text: t('resumeRepairReason', { reason: s.last_error }) });
  } else {
    sections.push({ type: 'markdown', text: t('resumeReady') });
    sections.push({
      type: 'plain',
      text: `${t('resumeCliCommand', { id })}\n${resumeCommandLine(s.cwd, s.uuid, s.agent, ctx.claudeProgram)}`,
    });
  }
  sections.push({ type: 'markdown', text: t('resumeBusyNote') });
  return {
    reply: {
      kind: 'card',
      title: t('resumeTitle'),
      status: status === 'active' || status === 'archived' ? 'info' : 'warning',
      sections,
    },
  };
}
