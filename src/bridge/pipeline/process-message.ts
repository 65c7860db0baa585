import { randomUUID } from 'node:crypto';
import type { ClaudeEngine, EngineEvent } from '../../claude/engine-types.js';
import { isAppError } from '../../core/app-error.js';
import type { Language } from '../../core/i18n.js';
import type { Logger } from '../../core/logger.js';
import type { Channel, ReplyStream, StreamState } from '../channel.js';
import { bridgeMessages } from '../bridge-messages.js';
import { Deliveries } from '../spool/deliveries.js';
import type { ReplyTarget } from '../inbound-message.js';
import type { PendingPrompts } from '../prompts/pending-prompts.js';
import { pipelineMessages } from './pipeline-messages.js';
import { completeCard, errorCard } from './reply-cards.js';
import type { CardReply, Reply } from '../reply-model.js';
import { splitText } from './split-text.js';
import type { RoutedRecord, RunOutcome, SpoolRecord } from '../spool/spool-record.js';
import type { Spool } from '../spool/spool.js';

/** Registry side effects of runs, wired by the runtime (kept optional so tests can omit them). */
export interface SessionHooks {
  sessionCreated?(info: {
    sessionId: string;
    cwd: string;
    userId: string;
    channel: string;
    model?: string;
    prompt: string;
  }): Promise<void>;
  runFinished?(info: { sessionId: string; prompt: string; answer: string; model?: string }): Promise<void>;
}

/** The mapping operations the pipeline needs (a subset of `UserMapping`). */
export interface ClaimOps {
  completeClaim(userId: string, messageId: string, sessionUuid: string, cwd: string): Promise<boolean>;
  rollbackClaim(userId: string, messageId: string): Promise<boolean>;
}

export interface PipelineDeps {
  spool: Spool;
  deliveries: Deliveries;
  channel(id: string): Channel;
  engine: ClaudeEngine;
  mapping: ClaimOps;
  prompts: PendingPrompts;
  sessions?: SessionHooks;
  ccexec?: (question: string, userId: string, signal: AbortSignal) => Promise<Reply>;
  lang: Language;
  logger: Logger;
  showThinking: boolean;
  /** How often the streamed card gets a heartbeat (elapsed time, running tool) while Claude is silent. */
  heartbeatMs: number;
}

/** Thrown when a run was cut short by shutdown; the record stays in `processing/` for the restart. */
export class ShutdownAbort extends Error {
  constructor() {
    super('stopped by shutdown');
    this.name = 'ShutdownAbort';
  }
}

/** Where the reply to a record goes. */
export function replyTargetOf(record: SpoolRecord): ReplyTarget {
  const m = record.message;
  return { channel: m.channel, userId: m.userId, chatId: m.chatId, replyTo: m.platformMessageId };
}

/**
 * Processes one message that is in `processing/`, from wherever a previous attempt stopped:
 * 1. fully delivered already → nothing to run or send;
 * 2. no outcome yet → run it (Claude, `/cc`, or a precomputed reply) and persist the outcome
 *    BEFORE sending anything final, so a restart never runs Claude twice for a delivered answer;
 * 3. deliver every chunk not yet `sent`, each with its stable idempotency key.
 * Returns whether the message ended as a success (`done/`) or a failure reply (`failed/`).
 */
export async function processMessage(
  record: RoutedRecord,
  deps: PipelineDeps,
  signal: AbortSignal,
): Promise<'done' | 'failed'> {
  const id = record.message.id;
  if (await deps.deliveries.isFullySent(id)) return record.outcome?.kind === 'error' ? 'failed' : 'done';
  let stream: ReplyStream | undefined;
  if (!record.outcome) {
    const produced = await produce(record, deps, signal);
    // Stopped by shutdown mid-run: keep no outcome, so the next start runs it again.
    if (signal.aborted) throw new ShutdownAbort();
    stream = produced.stream;
    record.outcome = produced.outcome;
    await deps.spool.write('processing', record);
  } else {
    // A retry after the write above failed (e.g. a full disk) has the outcome only in memory:
    // persist it before anything final is shown, or a crash would run Claude again.
    await deps.spool.write('processing', record);
  }
  await deliver(record, record.outcome, deps, stream);
  return record.outcome.kind === 'error' ? 'failed' : 'done';
}

async function produce(
  record: RoutedRecord,
  deps: PipelineDeps,
  signal: AbortSignal,
): Promise<{ outcome: RunOutcome; stream?: ReplyStream }> {
  const t = pipelineMessages(deps.lang);
  const target = record.target;
  if (target.kind === 'reply') return { outcome: { kind: 'reply', reply: target.reply } };
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

async function openStreamFor(record: SpoolRecord, deps: PipelineDeps): Promise<ReplyStream> {
  const delivery = await deps.deliveries.load(record.message.id);
  const chunk = Deliveries.chunk(delivery, 0, true);
  const stream = await deps
    .channel(record.message.channel)
    .outbox.openStream(
      replyTargetOf(record),
      chunk.requestUuid,
      chunk.platformMessageId ? { existingMessageId: chunk.platformMessageId } : {},
    );
  if (chunk.platformMessageId !== stream.messageId) {
    chunk.platformMessageId = stream.messageId;
    await deps.deliveries.save(delivery);
  }
  return stream;
}

async function runEngine(
  record: RoutedRecord,
  deps: PipelineDeps,
  signal: AbortSignal,
): Promise<{ outcome: RunOutcome; stream?: ReplyStream }> {
  const t = pipelineMessages(deps.lang);
  const target = record.target;
  if (target.kind !== 'session' && target.kind !== 'new') throw new Error('runEngine: not an engine target');
  const msg = record.message;
  const resumeId = target.kind === 'session' ? target.sessionId : record.sessionId;
  const isNew = target.kind === 'new' && !record.sessionId;
  if (isNew && !record.plannedSessionId) {
    // Saved before Claude starts, so no crash can make a re-run create a second session.
    record.plannedSessionId = randomUUID();
    await deps.spool.write('processing', record);
  }
  const stream = await openStreamFor(record, deps);
  const state: StreamState = { phase: 'processing', text: '', thinking: '', toolCount: 0, elapsedMs: 0 };
  const started = Date.now();
  const heartbeat = setInterval(() => {
    state.elapsedMs = Date.now() - started;
    stream.update({ ...state });
  }, deps.heartbeatMs);
  heartbeat.unref?.();
  let createdReported = false;
  const onSessionId = async (sessionId: string, model?: string) => {
    if (!isNew || createdReported) return;
    createdReported = true;
    record.sessionId = sessionId;
    await deps.spool.write('processing', record);
    await deps.mapping.completeClaim(msg.userId, msg.id, sessionId, target.cwd);
    await deps.sessions?.sessionCreated?.({
      sessionId,
      cwd: target.cwd,
      userId: msg.userId,
      channel: msg.channel,
      model,
      prompt: record.prompt ?? '',
    });
  };
  const pendingWrites: Promise<unknown>[] = [];
  const onEvent = (event: EngineEvent) => {
    switch (event.type) {
      case 'session':
        pendingWrites.push(
          onSessionId(event.sessionId, event.model).catch((err) =>
            deps.logger.warn('recording new session failed', { err }),
          ),
        );
        return;
      case 'text':
        state.phase = 'streaming';
        state.text += event.delta;
        break;
      case 'thinking':
        state.thinking += event.delta;
        break;
      case 'tool_use':
        state.activeTool = `${event.name}${event.summary ? `: ${event.summary}` : ''}`;
        state.toolCount += 1;
        break;
      case 'tool_result':
        state.activeTool = undefined;
        break;
      default:
        return;
    }
    state.elapsedMs = Date.now() - started;
    stream.update({ ...state });
  };
  const keyBase = msg.id;
  const outbox = deps.channel(msg.channel).outbox;
  const sender = {
    send: (card: CardReply, key: string) => outbox.send(replyTargetOf(record), card, key),
    update: (messageId: string, card: CardReply) => outbox.update(messageId, card),
  };
  try {
    const prompt = buildPrompt(record);
    const result = await deps.engine.send(
      {
        prompt,
        cwd: target.cwd,
        ...(resumeId ? { sessionId: resumeId } : { newSessionId: record.plannedSessionId }),
        ...(target.model ? { model: target.model } : {}),
        userId: msg.userId,
        ...(imagePaths(record).length ? { imagePaths: imagePaths(record) } : {}),
      },
      { signal, onEvent, permissions: deps.prompts.handlerFor(msg.userId, sender, keyBase) },
    );
    await Promise.all(pendingWrites);
    if (isNew) await onSessionId(result.sessionId, result.model);
    await deps.sessions
      ?.runFinished?.({ sessionId: result.sessionId, prompt, answer: result.text, model: result.model })
      .catch((err) => deps.logger.warn('registry update after run failed', { err }));
    const text = result.text.length > 0 ? result.text : state.text;
    const card = completeCard({
      text,
      thinking: state.thinking,
      showThinking: deps.showThinking,
      result,
      lang: deps.lang,
    });
    const { permissionDenials, ...rest } = result;
    return {
      outcome: {
        kind: 'engine',
        result: { ...rest, permissionDenials: permissionDenials.length },
        reply: card,
        fullText: text,
      },
      stream,
    };
  } catch (err) {
    await Promise.all(pendingWrites);
    if (isNew && !record.sessionId) await deps.mapping.rollbackClaim(msg.userId, msg.id).catch(() => undefined);
    const message = isAppError(err) ? err.userMessage : t('internalError');
    if (!isAppError(err)) deps.logger.error('engine run failed', { err, messageId: msg.id });
    return {
      outcome: {
        kind: 'error',
        code: isAppError(err) ? err.code : 'INTERNAL',
        reply: errorCard(message, deps.lang, state.text),
      },
      stream,
    };
  } finally {
    clearInterval(heartbeat);
  }
}

function imagePaths(record: SpoolRecord): string[] {
  return record.message.images.map((i) => i.localPath).filter((p): p is string => typeof p === 'string');
}

/**
 * The prompt Claude sees: one line per downloaded image naming its local file
 * (`[用户发送了第1张图片: <path>]`), a line asking Claude to look at them (Claude Code opens the files
 * with its own tools), then the user's text. Fixed wording, whatever the user's language: Claude
 * reads it, the user never sees it.
 */
export function buildPrompt(record: SpoolRecord): string {
  const text = record.prompt ?? record.message.text;
  const images = imagePaths(record);
  if (images.length === 0) return text;
  const lines = images.map((p, i) => `[用户发送了第${i + 1}张图片: ${p}]`);
  lines.push('请查看以上图片文件，然后理解图片内容。');
  if (text.length > 0) lines.push(text);
  return lines.join('\n');
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
