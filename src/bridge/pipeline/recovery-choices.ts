import { randomBytes } from 'node:crypto';
import type { Language } from '../../core/i18n.js';
import type { ActionResult } from '../channel.js';
import type { CardAction, CardReply } from '../reply-model.js';
import { pipelineMessages } from './pipeline-messages.js';

/** What the owner chose for an interrupted turn; `timeout` = nobody chose in time, `aborted` = shutdown. */
export type RecoveryChoice = 'continue' | 'skip' | 'timeout' | 'aborted';

interface Waiting {
  nonce: string;
  userId: string;
  settle(choice: RecoveryChoice): void;
}

/**
 * Interrupted turns waiting for the owner's Continue / Skip (`runtime.recovery = "ask"`). The
 * buttons carry the message id and a fresh nonce; a click counts only with that nonce, only from
 * the message's own user and only while the run waits — so a replayed, forged or stale click (or
 * one from before a restart) changes nothing, and a second click finds nothing to settle.
 */
export class RecoveryChoices {
  private readonly waiting = new Map<string, Waiting>();

  constructor(private readonly lang: Language) {}

  /**
   * Shows `card` with Continue / Skip (through `show`, e.g. an update of the message's reply card)
   * and waits for a click, `timeoutMs`, or `signal`.
   */
  async ask(o: {
    messageId: string;
    userId: string;
    card: CardReply;
    show: (card: CardReply) => Promise<void>;
    timeoutMs: number;
    signal: AbortSignal;
  }): Promise<RecoveryChoice> {
    const t = pipelineMessages(this.lang);
    const nonce = randomBytes(12).toString('hex');
    const action = (choice: 'continue' | 'skip'): CardAction => ({
      type: 'recovery',
      messageId: o.messageId,
      nonce,
      choice,
    });
    const asked: Promise<RecoveryChoice> = new Promise((resolve) => {
      if (o.signal.aborted) return resolve('aborted');
      const timer = setTimeout(() => finish('timeout'), o.timeoutMs);
      timer.unref?.();
      const onAbort = () => finish('aborted');
      o.signal.addEventListener('abort', onAbort, { once: true });
      const finish = (choice: RecoveryChoice) => {
        if (this.waiting.get(o.messageId)?.nonce !== nonce) return;
        this.waiting.delete(o.messageId);
        clearTimeout(timer);
        o.signal.removeEventListener('abort', onAbort);
        resolve(choice);
      };
      this.waiting.set(o.messageId, { nonce, userId: o.userId, settle: finish });
    });
    try {
      await o.show({
        ...o.card,
        buttons: [
          { label: t('continueButton'), style: 'primary', action: action('continue') },
          { label: t('skipButton'), style: 'default', action: action('skip') },
        ],
      });
    } catch {
      // The card could not show the buttons: nobody can choose, so it is not waited for.
      this.waiting.get(o.messageId)?.settle('timeout');
    }
    return asked;
  }

  /** A Continue / Skip click (the bridge has already checked that the clicker is the owner). */
  resolve(userId: string, action: CardAction): ActionResult {
    const t = pipelineMessages(this.lang);
    if (action.type !== 'recovery') return { toast: { type: 'error', text: t('choiceExpired') } };
    const w = this.waiting.get(action.messageId);
    if (!w || w.nonce !== action.nonce) return { toast: { type: 'warning', text: t('choiceExpired') } };
    if (w.userId !== userId) return { toast: { type: 'error', text: t('choiceNotYours') } };
    w.settle(action.choice);
    if (action.choice === 'skip')
      return { toast: { type: 'info', text: t('skippedTitle') }, card: skippedCard(t('skipped'), this.lang) };
    return {
      toast: { type: 'success', text: t('continuing') },
      card: { kind: 'card', title: t('continuing'), status: 'processing', sections: [] },
    };
  }
}

/** The card of an interrupted message that was not continued. */
export function skippedCard(text: string, lang: Language): CardReply {
  return {
    kind: 'card',
    title: pipelineMessages(lang)('skippedTitle'),
    status: 'info',
    sections: [{ type: 'markdown', text }],
  };
}
