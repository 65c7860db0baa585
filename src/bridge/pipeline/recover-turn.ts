import fs from 'node:fs';
import { findTurn } from '../../sessions/transcript/find-turn.js';
import type { RoutedRecord } from '../spool/spool-record.js';
import { buildPrompt } from './build-prompt.js';
import type { PipelineDeps } from './pipeline-deps.js';
import { pipelineMessages } from './pipeline-messages.js';

/** What a run of an engine target does. */
export type RunPlan =
  /** Send the prompt: a first attempt, or a re-run whose prompt never reached the transcript. */
  | { kind: 'prompt' }
  /** The transcript holds the finished answer: deliver it, run nothing. */
  | { kind: 'answer'; text: string; thinking: string; continued: boolean }
  /** The prompt reached the transcript but its turn was cut: resume with the continue instruction. */
  | { kind: 'continue' };

/** Every wording of the continue instruction (the language may have changed since it was sent). */
export function continueInstructions(): string[] {
  return (['zh', 'en'] as const).map((lang) => pipelineMessages(lang)('continueInstruction'));
}

/**
 * Saves, before the engine starts, that the run began: the session it writes to, that session's
 * transcript and the transcript's size now. Only the first attempt writes it; later attempts keep
 * it, so the search for the prompt always starts before every attempt's line.
 */
export async function markRunStarted(record: RoutedRecord, sessionId: string, deps: PipelineDeps): Promise<void> {
  if (record.run) return;
  const target = record.target;
  const transcript =
    target.kind === 'session' || target.kind === 'new'
      ? deps.engine.transcriptOf?.(sessionId, target.cwd, target.agent)
      : null;
  record.run = {
    startedAt: new Date().toISOString(),
    sessionId,
    ...(transcript ? { transcript, offset: await sizeOf(transcript) } : {}),
  };
  await deps.spool.write('processing', record);
}

/**
 * How to run an engine target (see docs/design.md#recovery). A record whose run began before
 * (`record.run`: the bridge crashed or was stopped mid-run) is checked against the session's
 * transcript first — the ground truth of what the run did — so its prompt never reaches Claude
 * twice: a finished answer is delivered from it, a cut turn is continued, and only a prompt that
 * never got there is sent again. An engine without a readable transcript (no `transcriptOf`)
 * keeps the older rule: the prompt is sent again.
 */
export async function planRun(record: RoutedRecord, deps: PipelineDeps): Promise<RunPlan> {
  const run = record.run;
  const target = record.target;
  if (!run || !deps.engine.transcriptOf || (target.kind !== 'session' && target.kind !== 'new'))
    return { kind: 'prompt' };
  const file = deps.engine.transcriptOf(run.sessionId, target.cwd, target.agent) ?? run.transcript;
  if (!file) return { kind: 'prompt' };
  const found = await findTurn(file, {
    prompt: buildPrompt(record),
    ...(run.transcript === file && run.offset !== undefined ? { fromOffset: run.offset } : {}),
    after: run.startedAt,
    continuations: continueInstructions(),
  });
  deps.logger.info('re-run of an interrupted message checked against its transcript', {
    messageId: record.message.id,
    found: found.state,
    ...(found.state === 'cut' ? { last: found.last } : {}),
  });
  switch (found.state) {
    case 'finished':
      return { kind: 'answer', text: found.text, thinking: found.thinking, continued: found.continued };
    case 'cut':
      return { kind: 'continue' };
    case 'unreadable':
      deps.logger.warn('transcript unreadable; sending the prompt again', { file, reason: found.reason });
      return { kind: 'prompt' };
    default:
      return { kind: 'prompt' };
  }
}

async function sizeOf(file: string): Promise<number> {
  try {
    return (await fs.promises.stat(file)).size;
  } catch {
    return 0;
  }
}
