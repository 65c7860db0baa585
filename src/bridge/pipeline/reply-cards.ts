import type { EngineResult } from '../../engine/engine-types.js';
import type { Language } from '../../core/i18n.js';
import { pipelineMessages } from './pipeline-messages.js';
import type { CardReply } from '../reply-model.js';

/** The footer under a finished answer: cost, duration, turns. */
export function resultFooter(
  result: Pick<EngineResult, 'costUsd' | 'durationMs' | 'numTurns'>,
  lang: Language,
): string {
  const t = pipelineMessages(lang);
  const parts: string[] = [];
  if (result.costUsd !== null) parts.push(`💰 $${result.costUsd.toFixed(4)}`);
  parts.push(`⏱ ${(result.durationMs / 1000).toFixed(1)}s`);
  parts.push(`🔄 ${t('turns', { n: result.numTurns })}`);
  return parts.join(' · ');
}

/**
 * The final card of a successful run: thinking (optional, quoted), the answer, a footer. After a
 * crash, `continued` (the turn was resumed after an interruption) adds a note above the answer;
 * `fromTranscript` (the answer was read back from the session's transcript, nothing ran) replaces
 * the cost, duration and turns, which are unknown then, with a line saying where it came from.
 */
export function completeCard(input: {
  text: string;
  thinking: string;
  showThinking: boolean;
  result: Pick<EngineResult, 'costUsd' | 'durationMs' | 'numTurns' | 'permissionDenials'>;
  lang: Language;
  continued?: boolean;
  fromTranscript?: boolean;
  /** The agent's display name for the title (default Claude). */
  agent?: string;
}): CardReply {
  const t = pipelineMessages(input.lang);
  const agent = input.agent ?? 'Claude';
  const sections: CardReply['sections'] = [];
  if (input.continued) sections.push({ type: 'markdown', text: `**${t('continuedNote')}**` });
  if (input.showThinking && input.thinking.trim().length > 0)
    sections.push({ type: 'quote', text: input.thinking.trim() });
  sections.push(
    input.text.trim().length > 0
      ? { type: 'answer', text: input.text }
      : { type: 'plain', text: t('emptyAnswer', { agent }) },
  );
  if (input.result.permissionDenials.length > 0) {
    sections.push({
      type: 'markdown',
      text: t('denials', { tools: [...new Set(input.result.permissionDenials.map((d) => d.toolName))].join(', ') }),
    });
  }
  return {
    kind: 'card',
    title: t('completeTitle', { agent }),
    status: 'complete',
    sections,
    footer: input.fromTranscript ? t('transcriptFooter') : resultFooter(input.result, input.lang),
  };
}

/** The card shown when a run or a step failed: what happened and what to do. */
export function errorCard(message: string, lang: Language, partialText = ''): CardReply {
  const t = pipelineMessages(lang);
  const sections: CardReply['sections'] = [];
  if (partialText.trim().length > 0) sections.push({ type: 'answer', text: partialText }, { type: 'divider' });
  sections.push({ type: 'markdown', text: `❌ ${message}` });
  return { kind: 'card', title: t('errorTitle'), status: 'error', sections };
}
