import type { Language } from '../../core/i18n.js';
import type { CardButton, CardReply } from '../reply-model.js';
import { CANCELLED_CODE, type RunOutcome, type SpoolRecord } from '../spool/spool-record.js';
import { pipelineMessages } from './pipeline-messages.js';

/** The Stop button of a running card; none for a record without a nonce (accepted by an older version). */
export function stopButtons(record: SpoolRecord, lang: Language): CardButton[] {
  if (!record.nonce) return [];
  const action = { type: 'stop' as const, messageId: record.message.id, nonce: record.nonce };
  return [{ label: pipelineMessages(lang)('stopButton'), style: 'danger', action }];
}

/** The "Queued (#n)" card of a message waiting behind its session's running turn, with Cancel. */
export function queuedCard(record: SpoolRecord, position: number, lang: Language): CardReply {
  const t = pipelineMessages(lang);
  return {
    kind: 'card',
    title: t('queuedTitle', { n: position }),
    status: 'info',
    sections: [{ type: 'markdown', text: t('queuedText') }],
    ...(record.nonce
      ? {
          buttons: [
            {
              label: t('cancelButton'),
              style: 'default',
              action: { type: 'stop', messageId: record.message.id, nonce: record.nonce },
            },
          ],
        }
      : {}),
  };
}

/** The card of a stopped run: what Claude had written so far, then the note that it was stopped. */
export function stoppedCard(partialText: string, lang: Language): CardReply {
  const t = pipelineMessages(lang);
  const done = partialText.trim().length > 0;
  return {
    kind: 'card',
    title: t('stoppedTitle'),
    status: 'stopped',
    sections: [
      ...(done ? [{ type: 'answer' as const, text: partialText }, { type: 'divider' as const }] : []),
      { type: 'markdown', text: t(done ? 'stoppedNote' : 'stoppedEmpty') },
    ],
  };
}

/** The card of a message cancelled while it waited (it never ran). */
export function cancelledCard(lang: Language): CardReply {
  const t = pipelineMessages(lang);
  return {
    kind: 'card',
    title: t('cancelledTitle'),
    status: 'stopped',
    sections: [{ type: 'markdown', text: t('cancelledText') }],
  };
}

/** The outcome of a stopped or cancelled message: it ends in `cancelled/` (see `finalStateOf`). */
export function stoppedOutcome(card: CardReply): RunOutcome {
  return { kind: 'error', code: CANCELLED_CODE, reply: card };
}
