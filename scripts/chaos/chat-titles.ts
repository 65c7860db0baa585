import { pipelineMessages } from '../../src/bridge/pipeline/pipeline-messages.js';
import { promptMessages } from '../../src/bridge/prompts/prompt-messages.js';
import { feishuMessages } from '../../src/channels/feishu/feishu-messages.js';
import type { PieceState } from './chat-user.js';

/** The chaos run drives Claude Code only; the cards' titles name it. */
const AGENT = { agent: 'Claude' };
/** The running card's title on Feishu ("⏳ Working"). */
export const STREAM_TITLE = feishuMessages('en')('streamTitle');
export const ANSWER_TITLE = pipelineMessages('en')('completeTitle', AGENT);
export const ERROR_TITLE = pipelineMessages('en')('errorTitle');
/** "⏳ Queued (#": a waiting message's card, which its run later turns into the answer (not final). */
export const QUEUED_TITLE = pipelineMessages('en')('queuedTitle', { n: 1 }).split('#')[0] as string;
export const PERMISSION_TITLE = promptMessages('en')('permissionTitle', AGENT);
const PROMPT_TITLES = [PERMISSION_TITLE, promptMessages('en')('questionTitle', AGENT)];
/** Tags of the notices the bridge and channel send with `deliveryUuid(id, tag)`. */
export const NOTICE_TAGS = ['refusal', 'too-long', 'overload', 'unsupported', 'whoami'];
export const MAX_CHUNKS = 20;
export const TOKEN_RE = /\btok[0-9a-z]+\b/gi;

/** A card's state from its first line (the title), for cards of every chat app. */
export function cardState(head: string): PieceState {
  if (head.includes(STREAM_TITLE) || head.includes(QUEUED_TITLE)) return 'streaming';
  if (head.includes(ANSWER_TITLE)) return 'answer';
  if (head.includes(ERROR_TITLE)) return 'error';
  if (PROMPT_TITLES.some((t) => head.includes(t))) return 'prompt';
  return 'card';
}
