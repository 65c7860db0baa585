import { randomUUID } from 'node:crypto';
import path from 'node:path';
import type { EngineEvent } from '../../engine/engine-types.js';
import { isAppError } from '../../core/app-error.js';
import type { ReplyStream, StreamState } from '../channel.js';
import { createFileSender } from '../files/file-sender.js';
import type { CardReply } from '../reply-model.js';
import type { RoutedRecord, RunOutcome } from '../spool/spool-record.js';
import { buildPrompt, filePaths, imagePaths } from './build-prompt.js';
import type { PipelineDeps } from './pipeline-deps.js';
import { pipelineMessages } from './pipeline-messages.js';
import { markRunStarted, planRun } from './recover-turn.js';
import { skippedCard } from './recovery-choices.js';
import { completeCard, errorCard } from './reply-cards.js';
import { planLine } from './plan-line.js';
import { heardText } from '../voice/voice-turn.js';
import { openStreamFor, replyTargetOf } from './reply-stream.js';
import { stopButtons, stoppedCard, stoppedOutcome } from './stop-cards.js';

/** What a run produced: its outcome, and the stream its card is in (finished by the delivery). */
export interface Produced {
  outcome: RunOutcome;
  stream?: ReplyStream;
}

/**
 * One engine run of a record (target `session` or `new`), streamed into the record's card.
 * A new session's id is chosen and saved before anything starts. A re-run of a record whose run
 * had begun first asks the transcript what happened (`planRun`): the finished answer is delivered
 * from it, a cut turn is resumed with the continue instruction (after the owner's Continue when
 * `runtime.recovery = "ask"`), and only a prompt that never reached it is sent again. Before the
 * engine starts, `record.run` is saved, so the next re-run can do the same.
 */
export async function runEngine(record: RoutedRecord, deps: PipelineDeps, signal: AbortSignal): Promise<Produced> {
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
  const sessionId = resumeId ?? (record.plannedSessionId as string);
  const stream = await openStreamFor(record, deps, stopButtons(record, deps.lang));
  let createdReported = false;
  const onSessionId = async (id: string, model?: string) => {
    if (!isNew || createdReported) return;
    createdReported = true;
    record.sessionId = id;
    await deps.spool.write('processing', record);
    await deps
      .channel(msg.channel)
      .outbox.sessionKnown?.(stream.messageId, id)
      .catch((err) => deps.logger.warn('could not tag a reply with its new session', { err }));
    await deps.mapping.completeClaim(msg.userId, msg.id, id, target.cwd);
    await deps.sessions?.sessionCreated?.({
      sessionId: id,
      cwd: target.cwd,
      userId: msg.userId,
      channel: msg.channel,
      model,
      ...(target.agent ? { agent: target.agent } : {}),
      prompt: record.prompt ?? '',
    });
  };
  const prompt = buildPrompt(record);
  const runFinished = (id: string, answer: string, model?: string) =>
    deps.sessions
      ?.runFinished?.({ sessionId: id, prompt, answer, model })
      .catch((err) => deps.logger.warn('registry update after run failed', { err }));

  const plan = await planRun(record, deps);
  if (plan.kind === 'answer') {
    await onSessionId(record.run?.sessionId ?? sessionId);
    await runFinished(record.run?.sessionId ?? sessionId, plan.text);
    const card = completeCard({
      text: plan.text,
      thinking: plan.thinking,
      showThinking: deps.showThinking,
      result: { costUsd: null, durationMs: 0, numTurns: 0, permissionDenials: [] },
      lang: deps.lang,
      continued: plan.continued,
      fromTranscript: true,
      agent: cardAgent(target.agent, deps),
    });
    return { outcome: transcriptOutcome(record.run?.sessionId ?? sessionId, plan, card), stream };
  }
  const outbox = deps.channel(msg.channel).outbox;
  if (plan.kind === 'continue' && deps.recovery?.mode === 'ask') {
    const choice = await deps.recovery.choices.ask({
      messageId: msg.id,
      userId: msg.userId,
      card: {
        kind: 'card',
        title: t('interruptedTitle'),
        status: 'warning',
        sections: [{ type: 'markdown', text: t('interruptedAsk') }],
      },
      show: (card) => outbox.update(stream.messageId, card),
      timeoutMs: deps.recovery.timeoutMs,
      signal,
    });
    if (choice === 'aborted' && record.stop) return { outcome: stoppedOutcome(stoppedCard('', deps.lang)), stream };
    if (choice === 'aborted') return { outcome: { kind: 'error', code: 'CANCELLED', reply: errorCard('', deps.lang) } };
    if (choice !== 'continue')
      return {
        outcome: { kind: 'reply', reply: skippedCard(t(choice === 'skip' ? 'skipped' : 'skippedNoChoice'), deps.lang) },
        stream,
      };
  }
  const resumed = (record.run?.restarts ?? 0) > 0;
  await markRunStarted(record, sessionId, deps);
  if (plan.kind === 'continue' && record.run) {
    record.run.continued = (record.run.continued ?? 0) + 1;
    await deps.spool.write('processing', record);
  }

  // The card's timer counts from the run's first start, so a run resumed after a restart (or a
  // retry) keeps its time instead of starting again at 0.
  const started = Math.min(Date.now(), Date.parse(record.run?.startedAt ?? '') || Date.now());
  const state: StreamState = {
    phase: 'processing',
    text: '',
    thinking: '',
    toolCount: 0,
    elapsedMs: Date.now() - started,
    ...(resumed ? { resumed: true } : {}),
    ...(heardText(msg) ? { heard: heardText(msg) } : {}),
  };
  const beat = () => {
    state.elapsedMs = Date.now() - started;
    if (deps.isStopping?.()) state.stopping = true;
    stream.update({ ...state });
  };
  if (resumed) beat(); // shown at once, not at the first heartbeat
  const heartbeat = setInterval(beat, deps.heartbeatMs);
  heartbeat.unref?.();
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
      case 'plan':
        state.plan = planLine(event.entries);
        break;
      default:
        return;
    }
    beat();
  };
  const sender = {
    send: (card: CardReply, key: string) => outbox.send(replyTargetOf(record), card, key),
    update: (messageId: string, card: CardReply) => outbox.update(messageId, card),
  };
  const continued = plan.kind === 'continue';
  const handlerFor = (s: typeof sender) =>
    deps.prompts.handlerFor(msg.userId, s, msg.id, cardAgent(target.agent, deps));
  const permissions = deps.notifier
    ? deps.notifier.watchPrompts(record, stream.messageId, sender, handlerFor, deps)
    : handlerFor(sender);
  const files = deps.files
    ? createFileSender({
        outbox,
        target: replyTargetOf(record),
        keyPrefix: msg.id,
        policy: {
          ...deps.files,
          cwd: target.cwd,
          attachmentDirs: [...new Set(imagePaths(record).map((p) => path.dirname(p)))],
          lang: deps.lang,
        },
        logger: deps.logger,
      })
    : undefined;
  try {
    const result = await deps.engine.send(
      {
        prompt: continued ? t('continueInstruction') : prompt,
        cwd: target.cwd,
        ...(resumeId ? { sessionId: resumeId } : { newSessionId: record.plannedSessionId }),
        ...(target.model ? { model: target.model } : {}),
        ...(target.agent ? { agent: target.agent } : {}),
        userId: msg.userId,
        ...(imagePaths(record).length ? { imagePaths: imagePaths(record) } : {}),
        ...(filePaths(record).length ? { filePaths: filePaths(record) } : {}),
      },
      { signal, onEvent, permissions, ...(files ? { files } : {}) },
    );
    await Promise.all(pendingWrites);
    if (isNew) await onSessionId(result.sessionId, result.model);
    await runFinished(result.sessionId, result.text, result.model);
    const text = result.text.length > 0 ? result.text : state.text;
    const card = completeCard({
      text,
      thinking: state.thinking,
      showThinking: deps.showThinking,
      result,
      lang: deps.lang,
      continued,
      agent: cardAgent(target.agent, deps),
    });
    const { permissionDenials, ...rest } = result;
    return {
      outcome: {
        kind: 'engine',
        result: { ...rest, permissionDenials: permissionDenials.length },
        reply: card,
        fullText: text,
        ...(continued ? { continued: true } : {}),
      },
      stream,
    };
  } catch (err) {
    await Promise.all(pendingWrites);
    if (isNew && !record.sessionId) await deps.mapping.rollbackClaim(msg.userId, msg.id).catch(() => undefined);
    // Stopped by the owner: the card keeps what Claude wrote so far.
    if (record.stop) return { outcome: stoppedOutcome(stoppedCard(state.text, deps.lang)), stream };
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

/** The outcome of an answer read back from the transcript (nothing ran: no cost, time or turns). */
function transcriptOutcome(sessionId: string, plan: { text: string; continued: boolean }, card: CardReply): RunOutcome {
  return {
    kind: 'engine',
    result: {
      text: plan.text,
      sessionId,
      costUsd: null,
      durationMs: 0,
      numTurns: 0,
      stopReason: 'end_turn',
      permissionDenials: 0,
      isNewSession: false,
    },
    reply: card,
    fullText: plan.text,
    fromTranscript: true,
    ...(plan.continued ? { continued: true } : {}),
  };
}

/** The name on a run's card: Claude for Claude Code (as before), else the agent's display name. */
function cardAgent(agent: string | undefined, deps: PipelineDeps): string {
  if (!agent || agent === 'claude') return 'Claude';
  return deps.agentLabel?.(agent) ?? agent;
}
