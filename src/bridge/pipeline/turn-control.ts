import path from 'node:path';
import type { Language } from '../../core/i18n.js';
import type { Logger } from '../../core/logger.js';
import type { ActionResult, Channel } from '../channel.js';
import type { QueueView, TurnCommands } from '../commands/command-context.js';
import type { MappingEntry } from '../mapping/user-mapping.js';
import type { CardAction } from '../reply-model.js';
import { Deliveries } from '../spool/deliveries.js';
import { isRouted, type RoutedRecord, type SpoolRecord } from '../spool/spool-record.js';
import type { Spool } from '../spool/spool.js';
import { serialKeyOf } from './dispatcher.js';
import { pipelineMessages } from './pipeline-messages.js';
import { replyTargetOf } from './reply-stream.js';
import { cancelledCard, queuedCard, stoppedOutcome } from './stop-cards.js';

/** The dispatcher's queue, as far as stopping and listing need it. */
export interface WaitingQueue {
  /** Routed and unrouted records not running yet, in arrival order. */
  waiting(): readonly SpoolRecord[];
  /** Takes a waiting record out of the queue; null when it is not waiting (running, routing, gone). */
  remove(messageId: string): SpoolRecord | null;
}

export interface TurnControlDeps {
  spool: Spool;
  deliveries: Deliveries;
  channel(id: string): Channel;
  mapping: { get(userId: string): Promise<MappingEntry | null> };
  queue: WaitingQueue;
  lang: Language;
  logger: Logger;
  now(): Date;
}

interface Turn {
  record: RoutedRecord;
  cancel: AbortController;
}

/** Characters of a message shown by `/queue`. */
const PREVIEW_CHARS = 40;

/**
 * Stop and queue control of the user's turns (see docs/design.md#commands-and-targets):
 * - a running engine turn is registered here while it runs; a stop saves `stop` in its record
 *   (so a restart never runs it again) and then aborts its run, whose engine ends the child's
 *   whole process group; the run ends with the "Stopped" card and the record in `cancelled/`;
 * - a routed message that waits behind its session's running turn gets its "Queued (#n)" card at
 *   once (chunk 0 of its reply, so the run later streams into the same card); its Cancel button
 *   takes it out of the queue, shows "Cancelled" and moves it to `cancelled/` — it never runs.
 * A click counts only from the message's own user, with the nonce saved in the record; a click on
 * a finished message, and a repeated one, change nothing.
 */
export class TurnControl implements TurnCommands {
  private readonly turns = new Map<string, Turn>();
  private readonly cards = new Map<string, Promise<void>>();

  constructor(private readonly d: TurnControlDeps) {}

  /** Registers a run (its record is in `processing/`); `end()` when it is over. */
  begin(record: RoutedRecord): { signal: AbortSignal; end(): void } {
    const turn: Turn = { record, cancel: new AbortController() };
    const id = record.message.id;
    this.turns.set(id, turn);
    return {
      signal: turn.cancel.signal,
      end: () => {
        if (this.turns.get(id) === turn) this.turns.delete(id);
        this.cards.delete(id);
      },
    };
  }

  /** Resolves once a "Queued" card being sent for the message is out (its run then streams into it). */
  async cardShown(messageId: string): Promise<void> {
    await this.cards.get(messageId);
  }

  /** A routed record waits behind its session's running turn: show "Queued (#position)" once. */
  waiting(record: RoutedRecord, position: number): void {
    const id = record.message.id;
    if (!isEngineTurn(record) || this.cards.has(id) || record.stop) return;
    const shown = this.showQueued(record, position).catch((err) =>
      this.d.logger.warn('could not show the queued card', { err, messageId: id }),
    );
    this.cards.set(id, shown);
  }

  private async showQueued(record: RoutedRecord, position: number): Promise<void> {
    const id = record.message.id;
    const delivery = await this.d.deliveries.load(id);
    const chunk = Deliveries.chunk(delivery, 0, true);
    if (chunk.platformMessageId || chunk.status === 'sent') return; // shown before a restart
    const outbox = this.d.channel(record.message.channel).outbox;
    const { messageId } = await outbox.send(
      replyTargetOf(record),
      queuedCard(record, position, this.d.lang),
      chunk.requestUuid,
    );
    chunk.platformMessageId = messageId;
    await this.d.deliveries.save(delivery);
  }

  /** `/stop` (`all` = every running turn of the user, else the one of the current session). */
  async stop(userId: string, all: boolean): Promise<{ stopped: number; elsewhere: number }> {
    // The mapping is read first: the turns are taken after the look-up, so a run that ended
    // meanwhile (outcome written) is not counted as stopped while its answer is delivered.
    const entry = all ? null : await this.d.mapping.get(userId);
    const mine = [...this.turns.values()].filter(
      (t) => t.record.message.userId === userId && isEngineTurn(t.record) && !t.record.stop && !t.record.outcome,
    );
    const current = all ? mine : mine.filter(matches(entry));
    // Each stop saves before it aborts; with `all`, later turns are checked again when their turn comes.
    let stopped = 0;
    for (const turn of current) {
      if (turn.record.outcome || turn.record.stop) continue;
      await this.stopTurn(turn);
      stopped += 1;
    }
    return { stopped, elsewhere: mine.length - current.length };
  }

  /** `/queue`: the user's running and waiting engine messages, per session. */
  queue(userId: string): QueueView[] {
    const views = new Map<string, QueueView>();
    const view = (record: RoutedRecord): QueueView => {
      const key = serialKeyOf(record);
      let v = views.get(key);
      if (!v) {
        v = { session: sessionLabel(record), waiting: [] };
        views.set(key, v);
      }
      return v;
    };
    for (const t of this.turns.values())
      if (t.record.message.userId === userId && isEngineTurn(t.record)) view(t.record).running = preview(t.record);
    for (const r of this.d.queue.waiting())
      if (r.message.userId === userId && isRouted(r) && isEngineTurn(r) && !r.stop) view(r).waiting.push(preview(r));
    return [...views.values()];
  }

  /** A Stop (running card) or Cancel (queued card) click; the bridge has checked the owner. */
  async click(userId: string, action: Extract<CardAction, { type: 'stop' }>): Promise<ActionResult> {
    const t = pipelineMessages(this.d.lang);
    const finished: ActionResult = { toast: { type: 'info', text: t('alreadyFinished') } };
    const turn = this.turns.get(action.messageId);
    if (turn) {
      const r = turn.record;
      if (r.nonce !== action.nonce) return finished;
      if (r.message.userId !== userId) return { toast: { type: 'error', text: t('stopNotYours') } };
      if (r.stop) return { toast: { type: 'info', text: t('alreadyStopping') } };
      if (r.outcome) return finished;
      await this.stopTurn(turn);
      return { toast: { type: 'success', text: t('stopAccepted') } };
    }
    const waiting = this.d.queue.waiting().find((r) => r.message.id === action.messageId);
    if (!waiting || waiting.nonce !== action.nonce) return finished;
    if (waiting.message.userId !== userId) return { toast: { type: 'error', text: t('stopNotYours') } };
    const record = this.d.queue.remove(action.messageId);
    if (!record) return finished; // it started meanwhile: its card is a running one now
    const card = cancelledCard(this.d.lang);
    await this.cancelWaiting(record, card);
    return { toast: { type: 'success', text: t('cancelAccepted') }, card };
  }

  /**
   * Saves the stop in the record before the abort, so a crash of the bridge after it cannot run
   * the turn again. The write skips the fsyncs (the stop must not wait for the disk); the run's
   * outcome, written durably as soon as its processes are gone, carries the stop too.
   */
  private async stopTurn(turn: Turn): Promise<void> {
    const r = turn.record;
    r.stop = { at: this.d.now().toISOString(), queued: false };
    await this.d.spool
      .write('processing', r, { durable: false })
      .catch((err) => this.d.logger.warn('could not save the stop', { err, messageId: r.message.id }));
    turn.cancel.abort();
  }

  /** Ends a waiting record as cancelled: saved, its card "Cancelled", moved to `cancelled/`. */
  private async cancelWaiting(record: SpoolRecord, card: ReturnType<typeof cancelledCard>): Promise<void> {
    const id = record.message.id;
    record.stop = { at: this.d.now().toISOString(), queued: true };
    record.outcome = stoppedOutcome(card);
    await this.d.spool.write('pending', record);
    await this.cards.get(id);
    this.cards.delete(id);
    const delivery = await this.d.deliveries.load(id);
    const chunk = Deliveries.chunk(delivery, 0, true);
    if (chunk.platformMessageId)
      await this.d
        .channel(record.message.channel)
        .outbox.update(chunk.platformMessageId, card)
        .catch((err) => this.d.logger.warn('could not show the cancelled card', { err, messageId: id }));
    chunk.status = 'sent';
    chunk.sentAt = this.d.now().toISOString();
    delivery.status = 'sent';
    await this.d.deliveries.save(delivery);
    await this.d.spool.move(id, 'pending', 'cancelled');
  }
}

/** Only a Claude run can be stopped or shows a queued card (a command's reply takes no time). */
function isEngineTurn(record: RoutedRecord): boolean {
  return record.target.kind === 'session' || record.target.kind === 'new';
}

/** Whether a running record is the turn of the user's current target. */
function matches(entry: MappingEntry | null): (turn: Turn) => boolean {
  return ({ record }) => {
    if (!entry) return false;
    if (entry.type === 'pending_new_session_claimed') return record.message.id === entry.claimedByMessageId;
    if (entry.type !== 'session') return false;
    const t = record.target;
    return (t.kind === 'session' && t.sessionId === entry.sessionUuid) || record.sessionId === entry.sessionUuid;
  };
}

function sessionLabel(record: RoutedRecord): string {
  const t = record.target;
  const id = t.kind === 'session' ? t.sessionId : (record.sessionId ?? record.plannedSessionId);
  const cwd = t.kind === 'session' || t.kind === 'new' ? t.cwd : '';
  return `${id ? id.slice(0, 8) : '…'}${cwd ? ` (${path.basename(cwd)})` : ''}`;
}

function preview(record: SpoolRecord): string {
  const text = (record.prompt ?? record.message.text).replace(/\s+/g, ' ').trim();
  return text.length > PREVIEW_CHARS ? `${text.slice(0, PREVIEW_CHARS)}…` : text;
}
