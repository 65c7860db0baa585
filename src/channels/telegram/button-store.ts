import { randomBytes } from 'node:crypto';
import type { CardAction } from '../../bridge/reply-model.js';
import type { JsonLedger } from '../../core/json-ledger.js';

/** Prefix of our `callback_data`; anything else is not one of our buttons. */
const PREFIX = 'a:';

/**
 * Telegram's `callback_data` holds 1–64 bytes, less than a `CardAction` with its ids and nonce.
 * Each button gets a random 12-character id (`a:<id>`, 14 bytes) and the action is kept here, in
 * the runtime folder, so a button sent before a restart still works after it. Whether the click
 * is the owner's and the prompt still pending stays the bridge's decision (its nonces).
 */
export class ButtonStore {
  constructor(private readonly ledger: JsonLedger<CardAction>) {}

  async bind(action: CardAction): Promise<string> {
    const id = randomBytes(9).toString('base64url');
    await this.ledger.set(id, action);
    return `${PREFIX}${id}`;
  }

  /** The action behind a button's `callback_data`, or undefined for a foreign or forgotten one. */
  async resolve(data: string | undefined): Promise<CardAction | undefined> {
    if (!data?.startsWith(PREFIX)) return undefined;
    return this.ledger.get(data.slice(PREFIX.length));
  }
}
