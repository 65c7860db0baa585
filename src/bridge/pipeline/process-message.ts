import { isAppError } from '../../core/app-error.js';
import type { ReplyStream } from '../channel.js';
import { bridgeMessages } from '../bridge-messages.js';
import type { Reply } from '../reply-model.js';
import { Deliveries } from '../spool/deliveries.js';
import { CANCELLED_CODE, finalStateOf, type RoutedRecord, type RunOutcome } from '../spool/spool-record.js';
import type { PipelineDeps } from './pipeline-deps.js';
import { pipelineMessages } from './pipeline-messages.js';
import { errorCard } from './reply-cards.js';
import { openStreamFor, replyTargetOf } from './reply-stream.js';
import { runEngine, type Produced } from './run-engine.js';
import { splitText } from './split-text.js';
import { stoppedCard, stoppedOutcome } from './stop-cards.js';
import { VOICE_REFUSAL_CODES, voiceRefusal, withHeardQuote } from '../voice/voice-turn.js';

/** Thrown when a run was cut short by shutdown; the record stays in `processing/` for the restart. */
export class ShutdownAbort extends Error {
  constructor() {
    super('stopped by shutdown');
    this.name = 'ShutdownAbort';
  }
}

/**
 * Processes one message that is in `processing/`, from wherever a previous attempt stopped:
 * 1. fully delivered already → nothing to run or send;
 * 2. no outcome yet → run it (Claude, `/cc`, or a precomputed reply) and persist the outcome
 *    BEFORE sending anything final, so a restart never runs Claude twice for a delivered answer;
 * 3. deliver every chunk not yet `sent`, each with its stable idempotency key.
 * `stop` is the owner's stop of this one run: a record stopped (now, or before a restart) and not
 * finished runs nothing more and gets the "Stopped" card.
 * Returns where the message ends: `done/`, `failed/` (an error reply) or `cancelled/` (stopped).
 */
export async function processMessage(
  record: RoutedRecord,
  deps: PipelineDeps,
  signal: AbortSignal,
  stop?: AbortSignal,
): Promise<'done' | 'failed' | 'cancelled'> {
  const id = record.message.id;
  if (await deps.deliveries.isFullySent(id)) return finalStateOf(record);
  let stream: ReplyStream | undefined;
  // A failed attempt leaves its streamed message to the retry, which re-opens and finishes it.
  const orAbandon = async (step: Promise<void>): Promise<void> => {
    try {
      await step;
    } catch (err) {
      await stream?.abandon?.();
      throw err;
    }
  };
  if (!record.outcome) {
    const produced: Produced = record.stop
      ? { outcome: stoppedOutcome(stoppedCard('', deps.lang)) }
      : await produce(record, deps, stop ? AbortSignal.any([signal, stop]) : signal);
    // Stopped by shutdown mid-run: keep no outcome, so the next start runs it again.
    if (signal.aborted) throw new ShutdownAbort();
    // A stop the owner was told was accepted holds even when the run returned its answer while the
    // stop was being saved (the child had already exited, so the abort had nothing left to end):
    // the card ends "Stopped", showing what Claude wrote.
    if (record.stop && !(produced.outcome.kind === 'error' && produced.outcome.code === CANCELLED_CODE))
      produced.outcome = stoppedOutcome(
        stoppedCard(produced.outcome.kind === 'engine' ? produced.outcome.fullText : '', deps.lang),
      );
    stream = produced.stream;
    record.outcome = heardOutcome(produced.outcome, record, deps.lang);
    await orAbandon(deps.spool.write('processing', record));
  } else {
    // A retry after the write above failed (e.g. a full disk) has the outcome only in memory:
    // persist it before anything final is shown, or a crash would run Claude again.
    await deps.spool.write('processing', record);
  }
  await orAbandon(deliver(record, record.outcome, deps, stream));
  await deps.notifier?.turnEnded(record, deps);
  return finalStateOf(record);
}

/** The outcome with what a voice message said quoted on its card (not on the card refusing it). */
function heardOutcome(outcome: RunOutcome, record: RoutedRecord, lang: PipelineDeps['lang']): RunOutcome {
  if (outcome.kind === 'error' && VOICE_REFUSAL_CODES.has(outcome.code)) return outcome;
  if (outcome.kind === 'engine') return { ...outcome, reply: withHeardQuote(outcome.reply, record.message, lang) };
  return { ...outcome, reply: withHeardQuote(outcome.reply, record.message, lang) };
}

async function produce(record: RoutedRecord, deps: PipelineDeps, signal: AbortSignal): Promise<Produced> {
  const t = pipelineMessages(deps.lang);
  const target = record.target;
  if (target.kind === 'reply') return { outcome: { kind: 'reply', reply: target.reply } };
  // A voice message of which nothing usable was heard runs nothing: its reply says why.
  const refused = target.kind === 'ccexec' ? undefined : voiceRefusal(record.message, deps.lang);
  if (refused) {
    if (target.kind === 'new')
      await deps.mapping.rollbackClaim(record.message.userId, record.message.id).catch(() => undefined);
    return { outcome: { kind: 'error', code: refused.code, reply: refused.reply } };
  }
  if (target.kind === 'ccexec') {
    if (!deps.ccexec)
      return {
        outcome: {
          kind: 'error',
          code: 'CCEXEC_UNAVAILABLE',
          reply: errorCard(bridgeMessages(deps.lang)('ccNotConfigured'), deps.lang),
        },
      };
    try {
      return { outcome: { kind: 'reply', reply: await deps.ccexec(target.question, record.message.userId, signal) } };
    } catch (err) {
      return {
        outcome: {
          kind: 'error',
          code: isAppError(err) ? err.code : 'INTERNAL',
          reply: errorCard(isAppError(err) ? err.userMessage : t('internalError'), deps.lang),
        },
      };
    }
  }
  return runEngine(record, deps, signal);
}

async function deliver(
  record: RoutedRecord,
  outcome: RunOutcome,
  deps: PipelineDeps,
  openStream?: ReplyStream,
): Promise<void> {
  const id = record.message.id;
  const channel = deps.channel(record.message.channel);
  const outbox = channel.outbox;
  const target = replyTargetOf(record);
  const delivery = await deps.deliveries.load(id);
  const streamed = delivery.chunks.find((c) => c.index === 0 && c.streaming);
  const pieces: Array<{ reply: Reply }> = [];

  if (streamed || openStream) {
    const chunk0 = Deliveries.chunk(delivery, 0, true);
    let overflow = '';
    const final = outcome.reply.kind === 'card' ? outcome.reply : errorCard(outcome.reply.text, deps.lang);
    if (chunk0.status !== 'sent') {
      const stream = openStream ?? (await openStreamFor(record, deps));
      const fullText = outcome.kind === 'engine' ? outcome.fullText : '';
      overflow = (await stream.finish(final, fullText)).overflow;
      chunk0.status = 'sent';
      chunk0.sentAt = new Date().toISOString();
      chunk0.overflow = overflow;
      // With nothing left over, the same write that marks the card sent completes the delivery.
      if (overflow.length === 0) delivery.status = 'sent';
      await deps.deliveries.save(delivery);
    } else {
      overflow = chunk0.overflow ?? '';
    }
    for (const text of splitText(overflow, outbox.maxTextChunk)) pieces.push({ reply: { kind: 'text', text } });
  } else if (outcome.reply.kind === 'text') {
    for (const text of splitText(outcome.reply.text, outbox.maxTextChunk))
      pieces.push({ reply: { kind: 'text', text } });
  } else {
    pieces.push({ reply: outcome.reply });
  }

  const offset = streamed || openStream ? 1 : 0;
  for (let i = 0; i < pieces.length; i += 1) {
    const chunk = Deliveries.chunk(delivery, i + offset);
    if (chunk.status === 'sent') continue;
    const { messageId } = await outbox.send(target, (pieces[i] as { reply: Reply }).reply, chunk.requestUuid);
    chunk.platformMessageId = messageId;
    chunk.status = 'sent';
    chunk.sentAt = new Date().toISOString();
    if (i === pieces.length - 1) delivery.status = 'sent';
    await deps.deliveries.save(delivery);
  }
  if (delivery.status !== 'sent') {
    delivery.status = 'sent';
    await deps.deliveries.save(delivery);
  }
}
