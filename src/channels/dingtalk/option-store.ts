import type { CardAction } from '../../bridge/reply-model.js';
import type { JsonLedger } from '../../core/json-ledger.js';

/** The numbered options last offered to one user, and the message that showed them. */
export interface OfferedOptions {
  /** Absent while the message is being sent (the options count from before the send). */
  messageId?: string;
  actions: CardAction[];
}

/** Actions a number reply may stand for: answers to a prompt the bridge is waiting on. */
const ANSWERS = new Set<CardAction['type']>(['permission', 'question', 'recovery', 'force_send']);

/**
 * DingTalk's robot markdown messages have no buttons, so a prompt's buttons are shown as a
 * numbered list and the owner answers with the number (docs/design.md#dingtalk). This keeps, per
 * user, the options of the newest prompt message (in the runtime folder, so they survive a
 * restart). Only prompt answers are offered; whether a reply still counts — the owner's, the
 * prompt still pending — stays the bridge's decision (its nonces), so a stranger's number or a
 * stale one changes nothing.
 */
export class OptionStore {
  constructor(private readonly ledger: JsonLedger<OfferedOptions>) {}

  /** True when these actions are offered as numbers (every one answers a prompt). */
  static offers(actions: CardAction[]): boolean {
    return actions.length > 0 && actions.every((a) => ANSWERS.has(a.type));
  }

  async offer(userId: string, messageId: string | undefined, actions: CardAction[]): Promise<void> {
    if (OptionStore.offers(actions)) await this.ledger.set(userId, { ...(messageId ? { messageId } : {}), actions });
  }

  /** Forgets the options offered to `userId`: once one was chosen, numbers are plain text again. */
  async clear(userId: string): Promise<void> {
    if (await this.ledger.get(userId)) await this.ledger.set(userId, { actions: [] });
  }

  /** The action behind reply `text` ("2") of `userId`, or undefined when it is not one. */
  async choice(userId: string, text: string): Promise<{ action: CardAction; messageId?: string } | undefined> {
    const m = /^\s*(\d{1,2})\s*$/.exec(text);
    if (!m) return undefined;
    const offered = await this.ledger.get(userId);
    const action = offered?.actions[Number(m[1]) - 1];
    if (!offered || !action) return undefined;
    return { action, ...(offered.messageId ? { messageId: offered.messageId } : {}) };
  }
}
