import type { ReplyStream } from '../../bridge/channel.js';
import type { CardReply } from '../../bridge/reply-model.js';
import type { Language } from '../../core/i18n.js';
import { dingtalkMessages } from './dingtalk-messages.js';
import { cardMarkdown, titleOf } from './render-markdown.js';

/** What a stream needs from the outbox: one markdown message per key, at most once. */
export interface StreamSender {
  sendOnce(key: string, title: string, text: string): Promise<string>;
  lang: Language;
  fallbackToText: boolean;
}

/** The sentence a reply's first message starts with (its Stop follows: `reply-opening.ts`). */
export function openingMarkdown(lang: Language): { title: string; text: string } {
  const text = dingtalkMessages(lang)('waiting');
  return { title: titleOf(text), text };
}

/**
 * A reply on DingTalk without an AI card template: robot markdown messages cannot be edited, so
 * the stream is the opening message ("working on it") and then the final card as a new message
 * (key `<key>:final`, sent once) with the answer cut to what fits; `finish()` returns the rest as
 * `overflow`, which the bridge sends as further messages (docs/design.md#dingtalk). Live states
 * are not shown.
 */
export class DingTalkReplyStream implements ReplyStream {
  private finished = false;

  constructor(
    readonly messageId: string,
    private readonly key: string,
    private readonly d: StreamSender,
  ) {}

  update(): void {}

  async finish(final: CardReply, fullText: string): Promise<{ overflow: string }> {
    if (this.finished) return { overflow: '' };
    const note = dingtalkMessages(this.d.lang)('continuedBelow');
    const { title, text, kept } = cardMarkdown(final, this.d.lang, { text: fullText, note });
    await this.d.sendOnce(`${this.key}:final`, title, text);
    this.finished = true;
    return { overflow: this.d.fallbackToText ? fullText.slice(kept).replace(/^\n+/, '') : '' };
  }
}
