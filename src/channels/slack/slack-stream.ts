import type { ReplyStream, StreamState } from '../../bridge/channel.js';
import type { CardReply } from '../../bridge/reply-model.js';
import { streamStatusParts } from '../../bridge/stream-status.js';
import { CoalescingThrottle } from '../../core/coalescing-throttle.js';
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
import { escapeMrkdwn, fitMrkdwn, markdownToMrkdwnBlocks, renderedLength } from './slack-mrkdwn.js';
import { slackMessages } from './slack-messages.js';

/** `chat.update` is a Tier 3 method (about 50 a minute): never edit one message faster than this. */
export const MIN_EDIT_GAP_MS = 1_000;
/** Consecutive failed edits after which the stream stops editing and the rest goes out as text. */
export const MAX_CONSECUTIVE_FAILURES = 3;
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
 * One reply streaming into one Slack message by `chat.update`, at most one edit per
 * `max(stream.throttle_ms, MIN_EDIT_GAP_MS)` through the shared coalescing throttle (intermediate
 * states are skipped, the last one always shown); edits that change nothing are not sent. After
 * {@link MAX_CONSECUTIVE_FAILURES} failed edits it stops editing; `finish()` then returns what the
 * message does not show as `overflow`. (`chat.startStream` is not used: it needs a thread, and
 * the final card with its buttons replaces the message anyway.)
 */
export class SlackReplyStream implements ReplyStream {
  private state: StreamState | undefined;
  private shown = { json: '', text: '' };
  private failures = 0;
  private degraded = false;
  private finished = false;
  private readonly interval: number;
  private readonly throttle: CoalescingThrottle;
  private readonly buttons: Block[];

  constructor(
    readonly messageId: string,
    private readonly d: SlackStreamDeps,
    buttons?: Block[],
  ) {
    this.buttons = buttons ?? [];
    this.interval = Math.max(d.stream.throttle_ms, MIN_EDIT_GAP_MS);
    this.throttle = new CoalescingThrottle(() => this.flush(), this.interval);
  }

  update(state: StreamState): void {
    if (this.finished || this.degraded) return;
    this.state = state;
    this.throttle.request();
  }

  async finish(final: CardReply, fullText: string): Promise<{ overflow: string }> {
    if (this.finished) return { overflow: '' };
    this.finished = true;
    await this.throttle.stop();
    const note = slackMessages(this.d.lang)('continuedBelow');
    const { text, blocks, kept } = cardBlocks(final, { text: fullText, note });
    try {
      await this.d.api.update(this.messageId, { text, blocks });
      return { overflow: this.d.stream.fallback_to_text ? fullText.slice(kept).replace(/^\n+/, '') : '' };
    } catch (err) {
      this.d.logger.warn('final message update failed; the rest goes out as text', { messageId: this.messageId, err });
      if (fullText === '')
        return {
          overflow: final.sections
            .map((s) => ('text' in s ? s.text : ''))
            .filter(Boolean)
            .join('\n\n'),
        };
      const rest = fullText.startsWith(this.shown.text) ? fullText.slice(this.shown.text.length) : fullText;
      return { overflow: rest.replace(/^\n+/, '') };
    }
  }

  private async flush(): Promise<void> {
    const state = this.state;
    if (!state || this.degraded || this.finished) return;
    const view = streamBlocks(state, { lang: this.d.lang, showThinking: this.d.stream.show_thinking });
    const message = { text: view.text, blocks: [...view.blocks, ...this.buttons] };
    const json = JSON.stringify(message);
    if (json === this.shown.json) return;
    try {
      await this.d.api.update(this.messageId, message);
      this.shown = { json, text: state.text.slice(0, view.shownChars) };
      this.failures = 0;
      this.throttle.setInterval(this.interval);
    } catch (err) {
      this.failures += 1;
      this.d.logger.warn('stream message update failed', { messageId: this.messageId, failures: this.failures, err });
      if (this.failures >= MAX_CONSECUTIVE_FAILURES) {
        this.degraded = true;
        return;
      }
      this.throttle.setInterval(Math.max(this.interval, 3_000));
      this.throttle.request();
    }
  }
}

/** The first message of a new stream (before any state arrives), with its buttons. */
export function openingMessage(lang: Language, buttons: Block[]): SlackMessage {
  const view = streamBlocks(
    { phase: 'processing', text: '', thinking: '', toolCount: 0, elapsedMs: 0 },
    { lang, showThinking: false },
  );
  return { text: view.text, blocks: [...view.blocks, ...buttons] };
}
