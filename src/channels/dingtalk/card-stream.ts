import type { ReplyStream, StreamState } from '../../bridge/channel.js';
import type { CardReply } from '../../bridge/reply-model.js';
import { streamStatusParts } from '../../bridge/stream-status.js';
import { CoalescingThrottle } from '../../core/coalescing-throttle.js';
import type { Config } from '../../core/config-schema.js';
import type { Language } from '../../core/i18n.js';
import type { Logger } from '../../core/logger.js';
import type { DingTalkApi } from './dingtalk-api.js';
import { dingtalkMessages } from './dingtalk-messages.js';
import { answerMarkdown, cardMarkdown, DINGTALK_MAX_TEXT, escapeMarkdown } from './render-markdown.js';

/** Never stream into a card faster than this (DingTalk limits card calls per app). */
export const MIN_CARD_GAP_MS = 500;
const MAX_THINKING_CHARS = 1_000;
/** The AI card's `flowStatus` values public templates use: processing, writing, finished, failed. */
export const FLOW = { processing: '1', inputing: '2', finished: '3', failed: '5' } as const;

export interface CardStreamDeps {
  api: Pick<DingTalkApi, 'streamCard' | 'updateCard'>;
  /** The template's streamed markdown variable (`dingtalk.card_template_key`). */
  key: string;
  lang: Language;
  logger: Logger;
  stream: Config['stream'];
  /** Sends the final card as a markdown message once, when the card cannot be finished. */
  sendFinalOnce(title: string, text: string): Promise<void>;
}

const cap = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, max)}…`);

/**
 * A stream state as card markdown, the same parts as Telegram's streamed message: the thinking as a
 * quote, the answer so far and the heartbeat line (`bridge/stream-status.ts`), cut to the limit.
 */
export function streamMarkdown(state: StreamState, o: { lang: Language; showThinking: boolean }): string {
  const status = `*${escapeMarkdown(streamStatusParts(state, o.lang).join(' · '))}*`;
  const thinking = state.thinking.trim();
  const quote =
    o.showThinking && thinking !== ''
      ? escapeMarkdown(cap(thinking, MAX_THINKING_CHARS))
          .split('\n')
          .map((l) => `> ${l}`)
          .join('\n')
      : '';
  const budget = DINGTALK_MAX_TEXT - quote.length - status.length - 8;
  let answer = state.text === '' ? dingtalkMessages(o.lang)('waiting') : answerMarkdown(state.text);
  if (answer.length > budget) answer = `${answer.slice(0, Math.max(0, budget - 1))}…`;
  return [quote, answer, status].filter((p) => p !== '').join('\n\n');
}

/**
 * One reply streamed into one AI card (`dingtalk.card_template_id`): each state replaces the
 * card's markdown variable (`PUT /v1.0/card/streaming`, full text) at most once per
 * `max(stream.throttle_ms, 500 ms)` through the shared coalescing throttle; `finish()` sets the
 * final card and `flowStatus` finished (`PUT /v1.0/card/instances`) and returns what does not fit
 * as `overflow`. A failed stream call is logged and the next state tried; if the final update
 * fails, the final card goes out as a markdown message instead (once).
 */
export class DingTalkCardStream implements ReplyStream {
  private state: StreamState | undefined;
  private shown = '';
  private finished = false;
  private readonly throttle: CoalescingThrottle;

  constructor(
    readonly messageId: string,
    private readonly outTrackId: string,
    private readonly d: CardStreamDeps,
  ) {
    this.throttle = new CoalescingThrottle(() => this.flush(), Math.max(d.stream.throttle_ms, MIN_CARD_GAP_MS));
  }

  update(state: StreamState): void {
    if (this.finished) return;
    this.state = state;
    this.throttle.request();
  }

  async finish(final: CardReply, fullText: string): Promise<{ overflow: string }> {
    if (this.finished) return { overflow: '' };
    await this.throttle.stop();
    const note = dingtalkMessages(this.d.lang)('continuedBelow');
    const { title, text, kept } = cardMarkdown(final, this.d.lang, { text: fullText, note });
    const status = final.status === 'error' ? FLOW.failed : FLOW.finished;
    try {
      await this.d.api.updateCard(this.outTrackId, { [this.d.key]: text, flowStatus: status });
    } catch (err) {
      this.d.logger.warn('final card update failed; the answer goes out as a message', { err });
      await this.d.sendFinalOnce(title, text);
    }
    this.finished = true;
    return { overflow: this.d.stream.fallback_to_text ? fullText.slice(kept).replace(/^\n+/, '') : '' };
  }

  private async flush(): Promise<void> {
    const state = this.state;
    if (!state || this.finished) return;
    const content = streamMarkdown(state, { lang: this.d.lang, showThinking: this.d.stream.show_thinking });
    if (content === this.shown) return;
    try {
      await this.d.api.streamCard(this.outTrackId, this.d.key, content, false);
      this.shown = content;
    } catch (err) {
      this.d.logger.warn('card stream update failed', { outTrackId: this.outTrackId, err });
    }
  }
}
