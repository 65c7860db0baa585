import type { PermissionHandler } from '../../engine/engine-types.js';
import type { Language } from '../../core/i18n.js';
import type { Logger } from '../../core/logger.js';
import type { Channel } from '../channel.js';
import type { PromptSender } from '../prompts/pending-prompts.js';
import { deliveryUuid } from '../spool/message-key.js';
import type { Deliveries } from '../spool/deliveries.js';
import { CANCELLED_CODE, type RoutedRecord } from '../spool/spool-record.js';
import type { Spool } from '../spool/spool.js';
import { notifyMessages } from './notify-messages.js';
import type { RunNotifier } from './pipeline-deps.js';
import { replyTargetOf } from './reply-stream.js';

/** Time for the notifier; tests pass a fake one, so no test waits or reads the wall clock. */
export interface NotifyClock {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const systemClock: NotifyClock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => {
    const timer = setTimeout(fn, ms);
    timer.unref?.();
    return timer;
  },
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

export interface TurnNotifierOptions {
  /** `notify.enabled`. */
  enabled: boolean;
  /** `notify.after_s` in ms: a turn that ran longer than this notifies when it ends. */
  afterMs: number;
  /** `notify.permission_after_s` in ms: a prompt unanswered this long notifies once. */
  promptAfterMs: number;
  lang: Language;
  clock?: NotifyClock;
}

/** What the notifier needs from the pipeline (a subset of `PipelineDeps`). */
export interface NotifyDeps {
  spool: Spool;
  deliveries: Deliveries;
  channel(id: string): Channel;
  logger: Logger;
}

/** How many characters of the prompt a notification quotes. */
const WHAT_CHARS = 40;

/**
 * Decides when a run is worth one short new message, because a card update does not make a phone
 * ring: a turn that ran longer than `afterMs` and ended (answered, failed or stopped), or a
 * permission prompt or question left unanswered for `promptAfterMs`. Each notification is sent at
 * most once per message and prompt: the fact is kept in the spool record (`notified`) before the
 * channel is called. The end-of-turn fact is written to disk first, so a retry of the record or a
 * restart finds it and sends nothing, and a crash between the write and the send loses that one
 * notification rather than showing it twice; a prompt does not outlive a restart, so its fact rides
 * on the record's next write. A notification is best effort: its failure is logged and never fails
 * the message.
 */
export class TurnNotifier implements RunNotifier {
  private readonly clock: NotifyClock;

  constructor(private readonly o: TurnNotifierOptions) {
    this.clock = o.clock ?? systemClock;
  }

  /**
   * Called once the record's reply was delivered. The turn counts from when its engine first
   * started (`record.run.startedAt`, kept across restarts), so a turn resumed after a crash counts
   * its whole time. Replies that ran no engine (commands, a skipped interrupted turn) never notify.
   */
  async turnEnded(record: RoutedRecord, deps: NotifyDeps): Promise<void> {
    const outcome = record.outcome;
    if (!this.o.enabled || !outcome || !record.run || record.notified?.turn || outcome.kind === 'reply') return;
    // The turn's card is the streamed reply, chunk 0 of its delivery.
    const delivery = await deps.deliveries.load(record.message.id);
    const cardMessageId = delivery.chunks.find((c) => c.index === 0)?.platformMessageId;
    if (!cardMessageId) return;
    const tookMs = this.clock.now() - Date.parse(record.run.startedAt);
    if (!(tookMs > this.o.afterMs)) return;
    const key = outcome.kind === 'engine' ? 'done' : outcome.code === CANCELLED_CODE ? 'stopped' : 'failed';
    const t = notifyMessages(this.o.lang);
    const text = t(key, { what: promptHead(record), took: this.duration(tookMs) });
    record.notified = { ...record.notified, turn: new Date(this.clock.now()).toISOString() };
    try {
      await deps.spool.write('processing', record);
    } catch (err) {
      deps.logger.warn('notification not sent: the record could not be saved', { err, messageId: record.message.id });
      return;
    }
    await this.send(record, cardMessageId, text, 'notify:turn', deps);
  }

  /**
   * Wraps a run's permission handler: every prompt it shows starts a timer; a prompt still waiting
   * after `promptAfterMs` notifies once, as a reply to the prompt's own card (the card with the
   * buttons) or, before that card is known, to the turn's card. An answer, a timeout or a cancel
   * stops the timer.
   */
  watchPrompts(
    record: RoutedRecord,
    turnCardId: string,
    sender: PromptSender,
    handlerFor: (sender: PromptSender) => PermissionHandler,
    deps: NotifyDeps,
  ): PermissionHandler {
    if (!this.o.enabled) return handlerFor(sender);
    const cards = new Map<string, string>();
    const inner = handlerFor({
      send: async (card, key) => {
        const sent = await sender.send(card, key);
        cards.set(key, sent.messageId);
        return sent;
      },
      update: (messageId, card) => sender.update(messageId, card),
    });
    // The prompt cards' keys end with the prompt's id (`<message>:perm:<id>`, `<message>:question:<id>`).
    const cardOf = (id: string) => [...cards].find(([key]) => key.endsWith(`:${id}`))?.[1] ?? turnCardId;
    const watch = <T>(id: string, kind: 'permission' | 'question', what: string, ask: () => Promise<T>) => {
      const timer = this.clock.setTimeout(() => {
        void this.promptWaited(record, id, cardOf(id), notifyMessages(this.o.lang)(kind, { what: clip(what) }), deps);
      }, this.o.promptAfterMs);
      return ask().finally(() => this.clock.clearTimeout(timer));
    };
    return {
      requestPermission: (request, signal) =>
        watch(
          request.id,
          'permission',
          request.summary.startsWith(request.toolName) ? request.summary : `${request.toolName}: ${request.summary}`,
          () => inner.requestPermission(request, signal),
        ),
      askQuestion: (request, signal) =>
        watch(request.id, 'question', request.questions[0]?.question ?? '', () => inner.askQuestion(request, signal)),
    };
  }

  private async promptWaited(
    record: RoutedRecord,
    promptId: string,
    cardId: string,
    text: string,
    deps: NotifyDeps,
  ): Promise<void> {
    const done = record.notified?.prompts ?? [];
    if (done.includes(promptId)) return;
    // Kept in the record, which the run's next write saves; a write of its own here could land
    // after the record moved on from processing/ and bring it back there.
    record.notified = { ...record.notified, prompts: [...done, promptId] };
    await this.send(record, cardId, text, `notify:prompt:${promptId}`, deps);
  }

  private async send(record: RoutedRecord, cardId: string, text: string, tag: string, deps: NotifyDeps) {
    const id = record.message.id;
    try {
      await deps.channel(record.message.channel).notify(replyTargetOf(record), cardId, text, deliveryUuid(id, tag));
    } catch (err) {
      deps.logger.warn('notification not sent', { err, messageId: id, tag });
    }
  }

  private duration(ms: number): string {
    const t = notifyMessages(this.o.lang);
    const total = Math.max(1, Math.floor(ms / 1000));
    const h = Math.floor(total / 3600);
    const m = Math.floor((total % 3600) / 60);
    const s = total % 60;
    if (h > 0) return t('hours', { h, m });
    if (m > 0) return t('minutes', { m, s });
    return t('seconds', { s });
  }
}

/** The first words of the message's prompt, on one line. */
function promptHead(record: RoutedRecord): string {
  return clip(record.prompt ?? record.message.text);
}

function clip(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  const chars = [...line];
  return chars.length > WHAT_CHARS ? `${chars.slice(0, WHAT_CHARS).join('')}…` : line;
}
