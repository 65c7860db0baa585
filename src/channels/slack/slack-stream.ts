import type { StreamState } from '../../bridge/channel.js';
import { EditedReplyStream } from '../../bridge/edited-reply-stream.js';
import { streamStatusParts } from '../../bridge/stream-status.js';
import type { Config } from '../../core/config-schema.js';
import type { Language } from '../../core/i18n.js';
import type { Logger } from '../../core/logger.js';
import {
  cardBlocks,
  context,
  fallbackText,
  MAX_MESSAGE_CHARS,
  quoteSections,
  section,
  type Block,
  type SlackMessage,
} from './render-blocks.js';
import type { SlackApi } from './slack-api.js';
import { SlackApiError } from './slack-api-error.js';
import { escapeMrkdwn, fitMrkdwn, markdownToMrkdwnBlocks, renderedLength } from './slack-mrkdwn.js';
import { slackMessages } from './slack-messages.js';

/** `chat.update` is a Tier 3 method (about 50 a minute): never edit one message faster than this. */
export const MIN_EDIT_GAP_MS = 1_000;
const MAX_THINKING_CHARS = 1_000;
/** Rendered answer characters a streamed message shows at most (less when the thinking quote is long). */
const STREAM_ANSWER_CHARS = 9_000;

export interface SlackStreamDeps {
  api: SlackApi;
  lang: Language;
  logger: Logger;
  stream: Config['stream'];
}

const cap = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, max)}…`);

/**
 * A stream state as blocks, the same parts as the other channels: the thinking as a quote, the
 * answer so far (cut with a note once over {@link STREAM_ANSWER_CHARS}) and the heartbeat line
 * (elapsed time, the tool running, the plan, tools used) as a context line. `shownChars` =
 * characters of the answer shown.
 */
export function streamBlocks(
  state: StreamState,
  o: { lang: Language; showThinking: boolean },
): SlackMessage & { shownChars: number } {
  const t = slackMessages(o.lang);
  const blocks: Block[] = [];
  const thinking = state.thinking.trim();
  if (o.showThinking && thinking !== '') blocks.push(...quoteSections(cap(thinking, MAX_THINKING_CHARS)));
  let shownChars = state.text.length;
  if (state.text === '') blocks.push(section(escapeMrkdwn(t('waiting'))));
  else {
    // What the thinking quote takes comes off the answer's share of the message.
    const quoted = blocks.reduce((n, b) => n + ((b.text as { text?: string } | undefined)?.text?.length ?? 0), 0);
    const budget = Math.min(STREAM_ANSWER_CHARS, MAX_MESSAGE_CHARS - quoted - 2_000);
    const over = renderedLength(state.text) > budget;
    if (over) shownChars = fitMrkdwn(state.text, budget);
    blocks.push(...markdownToMrkdwnBlocks(state.text.slice(0, shownChars)).map(section));
    if (over) blocks.push(section(`_${escapeMrkdwn(t('streamCapped'))}_`));
  }
  blocks.push(context(streamStatusParts(state, o.lang).join(' · ')));
  return { text: fallbackText(state.text || t('waiting')), blocks, shownChars };
}

/**
 * One reply streaming into one Slack message by `chat.update` (the shared `EditedReplyStream`:
 * throttled, unchanged edits skipped, the final update tried again while Slack fails or does not
 * answer — on top of the Web API client's own retries; a refusal such as `msg_too_long` is not
 * retried). `chat.startStream` is not used: it needs a thread, and the final card with its
 * buttons replaces the message anyway.
 */
export function slackReplyStream(
  messageId: string,
  d: SlackStreamDeps,
  buttons: Block[] = [],
): EditedReplyStream<SlackMessage> {
  return new EditedReplyStream<SlackMessage>(
    messageId,
    {
      view: (state) => {
        const v = streamBlocks(state, { lang: d.lang, showThinking: d.stream.show_thinking });
        const payload = { text: v.text, blocks: [...v.blocks, ...buttons] };
        return { payload, key: JSON.stringify(payload), shownChars: v.shownChars };
      },
      final: async (card, fullText) => {
        const { text, blocks, kept } = cardBlocks(card, {
          text: fullText,
          note: slackMessages(d.lang)('continuedBelow'),
        });
        return { payload: { text, blocks }, kept };
      },
      edit: (message) => d.api.update(messageId, message),
      retryable: (err) =>
        err instanceof SlackApiError &&
        (err.slackCode === 'network request failed' || /^http_5\d\d$/.test(err.slackCode)),
    },
    { stream: d.stream, logger: d.logger, minGapMs: MIN_EDIT_GAP_MS },
  );
}

/** The first message of a new stream (before any state arrives), with its buttons. */
export function openingMessage(lang: Language, buttons: Block[]): SlackMessage {
  const view = streamBlocks(
    { phase: 'processing', text: '', thinking: '', toolCount: 0, elapsedMs: 0 },
    { lang, showThinking: false },
  );
  return { text: view.text, blocks: [...view.blocks, ...buttons] };
}
