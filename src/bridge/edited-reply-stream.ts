import { CoalescingThrottle } from '../core/coalescing-throttle.js';
import type { Config } from '../core/config-schema.js';
import type { Logger } from '../core/logger.js';
import type { ReplyStream, StreamState } from './channel.js';
import type { CardReply } from './reply-model.js';

/** Consecutive failed edits after which a stream stops editing and the rest goes out as text. */
export const MAX_CONSECUTIVE_FAILURES = 3;

/** A live state as a chat app shows it: what to send, a key to skip an edit that changes nothing, and how much of the answer it shows. */
export interface EditedView<P> {
  payload: P;
  key: string;
  shownChars: number;
}

/** What a chat app whose messages can be edited (Telegram, Slack) gives {@link EditedReplyStream}. */
export interface EditableMessage<P> {
  view(state: StreamState): EditedView<P>;
  /** The final card, and how many characters of the full answer it shows. */
  final(card: CardReply, fullText: string): Promise<{ payload: P; kept: number }>;
  /** Edits the message; throws when the platform refused or failed. */
  edit(payload: P): Promise<void>;
  /** A failed final edit worth trying again (the platform failed or did not answer), not a refusal. */
  retryable(err: unknown): boolean;
}

export interface EditedReplyStreamOptions {
  stream: Config['stream'];
  logger: Logger;
  /** The platform's edit rate: never edit one message faster than this (and the retry gap). */
  minGapMs: number;
}

/**
 * One reply streaming into one edited chat message, for every chat app that can edit: at most one
 * edit per `max(stream.throttle_ms, minGapMs)` through the coalescing throttle (intermediate
 * states are skipped, the last one always shown), an edit that changes nothing not sent. After
 * {@link MAX_CONSECUTIVE_FAILURES} failed edits it stops editing. The final edit is tried up to
 * that many times, `minGapMs` apart, while the platform fails or does not answer (an edit is
 * idempotent; one passing failure would otherwise leave the message "⏳ Thinking…" with a live
 * Stop button); `finish()` returns what the message does not show as `overflow`.
 */
export class EditedReplyStream<P> implements ReplyStream {
  private state: StreamState | undefined;
  private shown = { key: '', text: '' };
  private failures = 0;
  private degraded = false;
  private finished = false;
  private readonly interval: number;
  private readonly throttle: CoalescingThrottle;

  constructor(
    readonly messageId: string,
    private readonly m: EditableMessage<P>,
    private readonly o: EditedReplyStreamOptions,
  ) {
    this.interval = Math.max(o.stream.throttle_ms, o.minGapMs);
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
    const { payload, kept } = await this.m.final(final, fullText);
    try {
      await this.finalEdit(payload);
      return { overflow: this.o.stream.fallback_to_text ? fullText.slice(kept).replace(/^\n+/, '') : '' };
    } catch (err) {
      this.o.logger.warn('final message edit failed; the rest goes out as text', { messageId: this.messageId, err });
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

  async abandon(): Promise<void> {
    this.finished = true;
    await this.throttle.stop();
  }

  private async finalEdit(payload: P): Promise<void> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await this.m.edit(payload);
      } catch (err) {
        if (attempt >= MAX_CONSECUTIVE_FAILURES || !this.m.retryable(err)) throw err;
        this.o.logger.warn('final message edit failed; retrying', { messageId: this.messageId, attempt, err });
        await new Promise((resolve) => setTimeout(resolve, this.o.minGapMs));
      }
    }
  }

  private async flush(): Promise<void> {
    const state = this.state;
    if (!state || this.degraded || this.finished) return;
    const view = this.m.view(state);
    if (view.key === this.shown.key) return;
    try {
      await this.m.edit(view.payload);
      this.shown = { key: view.key, text: state.text.slice(0, view.shownChars) };
      this.failures = 0;
      this.throttle.setInterval(this.interval);
    } catch (err) {
      this.failures += 1;
      this.o.logger.warn('stream message edit failed', { messageId: this.messageId, failures: this.failures, err });
      if (this.failures >= MAX_CONSECUTIVE_FAILURES) {
        this.degraded = true;
        return;
      }
      this.throttle.setInterval(Math.max(this.interval, 3_000));
      this.throttle.request();
    }
  }
}
