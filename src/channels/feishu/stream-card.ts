import type { ReplyStream, StreamState } from '../../bridge/channel.js';
import type { CardButton, CardReply } from '../../bridge/reply-model.js';
import type { Config } from '../../core/config-schema.js';
import type { Language } from '../../core/i18n.js';
import type { Logger } from '../../core/logger.js';
import { CoalescingThrottle } from '../../core/coalescing-throttle.js';
import { answerFit, answerMarkdown, jsonBytes } from './escape-markdown.js';
import type { FeishuApi, FeishuTarget } from './feishu-api.js';
import { FeishuApiError } from './feishu-api-error.js';
import { feishuMessages } from './feishu-messages.js';
import { cardPlainText, noteMarkdown, renderCard, type CardJson } from './render-card.js';
import { CARD_MAX_AGE_MS, type StreamCardRecord, type StreamCardStore } from './stream-card-store.js';
import { ANSWER_ELEMENT, STATUS_ELEMENT, streamingCard, streamView, type StreamView } from './stream-view.js';

/** Spacing of CardKit operations on one card: ≤ 8.3/s against Feishu's 10/s per card entity. */
export const CARDKIT_GAP_MS = 120;
/** Spacing of whole-card patches of one message: ≤ 4/s against Feishu's 5/s per message. */
export const PATCH_GAP_MS = 250;
/** Consecutive failed updates after which the stream stops updating and falls back to text. */
export const MAX_CONSECUTIVE_FAILURES = 3;
/** Updates mid-stream give up fast: the next one carries newer text anyway. */
const UPDATE_POLICY = { maxAttempts: 2, maxTotalMs: 2_000 };

/**
 * Remembers that CardKit was refused (not enabled for the app, missing permission) and skips it
 * for a while, so every reply does not first pay for a failing call.
 */
export class CardKitSwitch {
  private disabledUntil = 0;

  constructor(
    private readonly now: () => number = Date.now,
    private readonly coolDownMs = 10 * 60_000,
  ) {}

  usable(): boolean {
    return this.now() >= this.disabledUntil;
  }

  refused(): void {
    this.disabledUntil = this.now() + this.coolDownMs;
  }
}

export interface StreamCardDeps {
  api: FeishuApi;
  store: StreamCardStore;
  cardkit: CardKitSwitch;
  lang: Language;
  logger: Logger;
  stream: Config['stream'];
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

type Mode = { kind: 'cardkit'; record: StreamCardRecord } | { kind: 'patch' };

const EMPTY_STATE: StreamState = { phase: 'processing', text: '', thinking: '', toolCount: 0, elapsedMs: 0 };

function cardIdOf(content: string | undefined): string | undefined {
  if (content === undefined) return undefined;
  try {
    const parsed = JSON.parse(content) as { type?: unknown; data?: { card_id?: unknown } };
    return parsed.type === 'card' && typeof parsed.data?.card_id === 'string' ? parsed.data.card_id : undefined;
  } catch {
    return undefined;
  }
}

/**
 * One reply streaming into one Feishu message. CardKit mode pushes the full text so far into the
 * card's answer element (typewriter) and the heartbeat into its status element, one operation per
 * flush, flushes ≥ {@link CARDKIT_GAP_MS} apart; patch mode replaces the whole card every
 * `stream.throttle_ms`. After {@link MAX_CONSECUTIVE_FAILURES} failed updates it stops updating;
 * `finish()` then returns what the card does not show as `overflow`, for the bridge to send as text.
 */
class FeishuReplyStream implements ReplyStream {
  private state: StreamState | undefined;
  private shown: { answer: string; status: string; text: string };
  private failures = 0;
  private degraded = false;
  private finished = false;
  private reopen = false;
  private lastOpAt = Number.NEGATIVE_INFINITY;
  private readonly interval: number;
  private readonly gap: number;
  private readonly throttle: CoalescingThrottle;

  constructor(
    readonly messageId: string,
    private readonly mode: Mode,
    private readonly d: StreamCardDeps,
    initial?: StreamView,
    private readonly buttons: CardButton[] = [],
  ) {
    this.shown = { answer: initial?.answer ?? '', status: initial?.status ?? '', text: '' };
    this.gap = mode.kind === 'cardkit' ? CARDKIT_GAP_MS : PATCH_GAP_MS;
    this.interval = mode.kind === 'cardkit' ? CARDKIT_GAP_MS : Math.max(d.stream.throttle_ms, PATCH_GAP_MS);
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
    const { card, kept } = this.finalCard(final, fullText);
    if (await this.deliverFinal(card)) {
      // stream.fallback_to_text = false: a reply too long for the card is cut, not continued.
      return { overflow: this.d.stream.fallback_to_text ? fullText.slice(kept).replace(/^\n+/, '') : '' };
    }
    if (fullText === '') return { overflow: cardPlainText(final) };
    const rest = fullText.startsWith(this.shown.text) ? fullText.slice(this.shown.text.length) : fullText;
    return { overflow: rest.replace(/^\n+/, '') };
  }

  private view(state: StreamState): StreamView {
    return streamView(state, {
      lang: this.d.lang,
      showThinking: this.d.stream.show_thinking,
      maxBytes: this.d.stream.max_card_bytes,
    });
  }

  private async flush(): Promise<void> {
    const state = this.state;
    if (!state || this.degraded || this.finished) return;
    const view = this.view(state);
    try {
      if (this.mode.kind === 'cardkit') {
        const { record } = this.mode;
        if (this.reopen) {
          // Feishu closes streaming mode by itself after a while; a refused update re-opens it.
          await this.op((seq) => this.d.api.cardSettings(record.cardId, { streaming_mode: true }, seq, UPDATE_POLICY));
          this.reopen = false;
        }
        if (view.answer !== this.shown.answer) {
          await this.op((seq) =>
            this.d.api.cardContent(record.cardId, ANSWER_ELEMENT, view.answer, seq, UPDATE_POLICY),
          );
          this.shown = { ...this.shown, answer: view.answer, text: state.text.slice(0, view.shownChars) };
        } else if (view.status !== this.shown.status) {
          await this.op((seq) =>
            this.d.api.cardContent(record.cardId, STATUS_ELEMENT, view.status, seq, UPDATE_POLICY),
          );
          this.shown = { ...this.shown, status: view.status };
        }
      } else if (view.answer !== this.shown.answer || view.status !== this.shown.status) {
        const content = JSON.stringify(streamingCard(view, this.d.lang, false, this.buttons));
        await this.op(() => this.d.api.patch(this.messageId, content, UPDATE_POLICY));
        this.shown = { answer: view.answer, status: view.status, text: state.text.slice(0, view.shownChars) };
      }
      this.failures = 0;
      this.throttle.setInterval(this.interval);
      if (view.answer !== this.shown.answer || view.status !== this.shown.status) this.throttle.request();
    } catch (err) {
      this.failures += 1;
      this.d.logger.warn('stream card update failed', { messageId: this.messageId, failures: this.failures, err });
      if (this.mode.kind === 'cardkit' && err instanceof FeishuApiError && err.rejected) this.reopen = true;
      if (this.failures >= MAX_CONSECUTIVE_FAILURES) {
        this.degraded = true;
        return;
      }
      this.throttle.setInterval(Math.max(this.interval, 1_000));
      this.throttle.request();
    }
  }

  /** Runs one card operation no sooner than the per-card gap after the previous one. */
  private async op(run: (sequence: number) => Promise<void>): Promise<void> {
    const now = this.d.now ?? Date.now;
    const wait = this.lastOpAt + this.gap - now();
    if (wait > 0) await (this.d.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms))))(wait);
    this.lastOpAt = now();
    await run(this.mode.kind === 'cardkit' ? this.d.store.nextSequence(this.mode.record) : 0);
  }

  /**
   * The final card, with Claude's answer (the `plain` section equal to `fullText`) cut to
   * `stream.max_card_bytes` and `kept` = how many characters of `fullText` it shows.
   */
  private finalCard(final: CardReply, fullText: string): { card: CardJson; kept: number } {
    const note = feishuMessages(this.d.lang)(this.d.stream.fallback_to_text ? 'continuedBelow' : 'truncated');
    const sections = [...final.sections];
    const index =
      fullText === ''
        ? -1
        : sections.findIndex((s) => (s.type === 'plain' || s.type === 'answer') && s.text === fullText);
    let kept = fullText.length;
    if (index >= 0 && jsonBytes(answerMarkdown(fullText)) > this.d.stream.max_card_bytes) {
      kept = answerFit(fullText, this.d.stream.max_card_bytes);
      sections.splice(
        index,
        1,
        { type: 'answer', text: fullText.slice(0, kept) },
        { type: 'markdown', text: noteMarkdown(note) },
      );
    }
    const rendered = renderCard(
      { ...final, sections },
      { lang: this.d.lang, truncationNote: note, config: { streaming_mode: false } },
    );
    const cut = rendered.truncated.find((t) => t.section === index);
    if (cut) kept = Math.min(kept, cut.keptChars);
    return { card: rendered.card, kept };
  }

  private async deliverFinal(card: CardJson): Promise<boolean> {
    try {
      if (this.mode.kind === 'cardkit') {
        const { record } = this.mode;
        try {
          await this.op((seq) => this.d.api.cardSettings(record.cardId, { streaming_mode: false }, seq));
        } catch (err) {
          this.d.logger.warn('closing streaming mode failed; replacing the card anyway', { err });
        }
        await this.op((seq) => this.d.api.cardUpdate(record.cardId, card, seq));
      } else {
        const content = JSON.stringify(card);
        await this.op(() => this.d.api.patch(this.messageId, content));
      }
      return true;
    } catch (err) {
      this.d.logger.warn('final card update failed; the rest goes out as text', { messageId: this.messageId, err });
      return false;
    }
  }
}

/** The record of a card found in a sent message: ours if known, else one whose sequence starts high. */
async function adopt(d: StreamCardDeps, key: string, cardId: string, messageId: string): Promise<StreamCardRecord> {
  const now = (d.now ?? Date.now)();
  const known = await d.store.byCardId(cardId);
  // Unknown card (its record was lost): pretend it is as old as a card can be, so our sequence
  // numbers start above whatever the process that created it used.
  const record = { key, cardId, messageId, createdAt: known?.createdAt ?? now - CARD_MAX_AGE_MS };
  await d.store.save(record);
  return record;
}

async function openCardKit(
  d: StreamCardDeps,
  target: FeishuTarget,
  key: string,
  view: StreamView,
  buttons: CardButton[],
): Promise<ReplyStream> {
  let record = await d.store.byKey(key);
  if (!record) {
    const cardId = await d.api.createCard(streamingCard(view, d.lang, true, buttons));
    record = { key, cardId, createdAt: (d.now ?? Date.now)() };
    await d.store.save(record);
  }
  const sent = await d.api.send(
    target,
    'interactive',
    JSON.stringify({ type: 'card', data: { card_id: record.cardId } }),
    key,
  );
  const sentCard = cardIdOf(sent.content);
  // A resend de-duplicated by Feishu returns the FIRST message: follow whatever it shows.
  if (sent.content !== undefined && sentCard === undefined)
    return new FeishuReplyStream(sent.messageId, { kind: 'patch' }, d, undefined, buttons);
  record = await adopt(d, key, sentCard ?? record.cardId, sent.messageId);
  return new FeishuReplyStream(sent.messageId, { kind: 'cardkit', record }, d, view, buttons);
}

/**
 * `ChannelOutbox.openStream` for Feishu: a CardKit streaming card when CardKit works (create the
 * entity, send it as a reply with the delivery's uuid, then stream into it), else an interactive
 * card updated by message patch. With `existingMessageId` (after a restart) the stream resumes
 * that message, through CardKit when its card entity is on record, else by patching it whole (a
 * "Queued" card sent while the message waited is re-opened that way). `buttons` (Stop) are part
 * of the card while it streams; a resumed CardKit card keeps the elements it was created with.
 */
export async function openStreamCard(
  d: StreamCardDeps,
  target: FeishuTarget,
  key: string,
  options: { existingMessageId?: string; buttons?: CardButton[] } = {},
): Promise<ReplyStream> {
  const buttons = options.buttons ?? [];
  if (options.existingMessageId) {
    const found = await d.store.byMessageId(options.existingMessageId);
    const record = found ? await d.store.resume(found) : undefined;
    return new FeishuReplyStream(
      options.existingMessageId,
      record ? { kind: 'cardkit', record } : { kind: 'patch' },
      d,
      undefined,
      buttons,
    );
  }
  const view = streamView(EMPTY_STATE, {
    lang: d.lang,
    showThinking: d.stream.show_thinking,
    maxBytes: d.stream.max_card_bytes,
  });
  if (d.cardkit.usable() || (await d.store.byKey(key))) {
    try {
      return await openCardKit(d, target, key, view, buttons);
    } catch (err) {
      if (err instanceof FeishuApiError && err.rejected) d.cardkit.refused();
      d.logger.warn('CardKit streaming card unavailable, using message patch', { err });
    }
  }
  const sent = await d.api.send(
    target,
    'interactive',
    JSON.stringify(streamingCard(view, d.lang, false, buttons)),
    key,
  );
  const cardId = cardIdOf(sent.content);
  if (cardId)
    return new FeishuReplyStream(
      sent.messageId,
      { kind: 'cardkit', record: await adopt(d, key, cardId, sent.messageId) },
      d,
      undefined,
      buttons,
    );
  return new FeishuReplyStream(sent.messageId, { kind: 'patch' }, d, view, buttons);
}
