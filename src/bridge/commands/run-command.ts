import type { ActionResult } from '../channel.js';
import { bridgeMessages, type BridgeMessageKey } from '../bridge-messages.js';
import type { ChatCommand, UsageCommand } from './command-parser.js';
import type { CardAction } from '../reply-model.js';
import { textReply } from '../reply-model.js';
import { handleAgent } from './agent.js';
import { handleAnswer } from './answer.js';
import { handleBrowseDirAction, handleSelectDirAction, handleSwitchAction } from './card-actions.js';
import { handleCc } from './cc.js';
import type { CommandContext, CommandOutcome } from './command-context.js';
import { handleHelp } from './help.js';
import { handleList } from './list.js';
import { handleListDir } from './list-dir.js';
import { handleModel } from './model.js';
import { handleNew } from './new.js';
import { handleResume } from './resume.js';
import { handleSearch } from './search.js';
import { handleStatus } from './status.js';
import { handleQueue, handleStop } from './stop.js';
import { handleSwitch } from './switch.js';
import { handleWhoami } from './whoami.js';

const USAGE: Record<UsageCommand, BridgeMessageKey> = {
  new: 'usageNew',
  switch: 'usageSwitch',
  resume: 'usageResume',
  model: 'usageModel',
  search: 'usageSearch',
  cc: 'usageCc',
};

/**
 * Runs one parsed chat command (dispatch by name). Errors from the store (lock timeout, corrupt
 * file) propagate to the caller's error boundary; every expected miss is a reply.
 *
 * @example
 *   const cmd = parseChatCommand(message.text);
 *   if (cmd) { const { reply, run } = await runChatCommand(cmd, ctx); … }
 */
export async function runChatCommand(cmd: ChatCommand, ctx: CommandContext): Promise<CommandOutcome> {
  const t = bridgeMessages(ctx.lang);
  switch (cmd.name) {
    case 'help':
      return handleHelp(cmd, ctx);
    case 'whoami':
      return handleWhoami(cmd, ctx);
    case 'status':
      return handleStatus(cmd, ctx);
    case 'list':
      return handleList(cmd, ctx);
    case 'listDir':
      return handleListDir(cmd, ctx);
    case 'new':
      return handleNew(cmd, ctx);
    case 'switch':
      return handleSwitch(cmd, ctx);
    case 'resume':
      return handleResume(cmd, ctx);
    case 'model':
      return handleModel(cmd, ctx);
    case 'search':
      return handleSearch(cmd, ctx);
    case 'cc':
      return handleCc(cmd, ctx);
    case 'answer':
      return handleAnswer(cmd, ctx);
    case 'stop':
      return handleStop(cmd, ctx);
    case 'queue':
      return handleQueue(cmd, ctx);
    case 'agent':
      return handleAgent(cmd, ctx);
    case 'usage': {
      const detail =
        cmd.problem === 'missing-model-alias'
          ? `${t('missingModelAlias')}\n`
          : cmd.problem === 'missing-agent-name'
            ? `${t('missingAgentName')}\n`
            : cmd.problem === 'unknown-option'
              ? `${t('unknownOption')}\n`
              : '';
      return { reply: textReply(detail + t(USAGE[cmd.command])) };
    }
    case 'unknown':
      return { reply: textReply(t('unknownCommand', { command: cmd.raw.split(/\s/)[0] ?? cmd.raw })) };
  }
}

/**
 * Runs a navigation button click (`switch`, `select_dir`, `browse_dir`). Permission, question and
 * force-send clicks belong to the pipeline; given one, this answers "not available".
 */
export async function runCardAction(action: CardAction, ctx: CommandContext): Promise<ActionResult> {
  switch (action.type) {
    case 'switch':
      return handleSwitchAction(action, ctx);
    case 'select_dir':
      return handleSelectDirAction(action, ctx);
    case 'browse_dir':
      return handleBrowseDirAction(action, ctx);
    default:
      return { toast: { type: 'warning', text: bridgeMessages(ctx.lang)('actionUnsupported') } };
  }
}
