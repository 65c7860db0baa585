import type { CardAction } from '../../src/bridge/reply-model.js';
import { OWNER, type BridgeHarness } from '../fakes/bridge-harness.js';

/**
 * Clicks Allow on every permission card the fake channel has shown so far and not clicked yet (the
 * owner's click, with the card's own nonce). `clicked` remembers the cards across calls.
 */
export async function allowPrompts(b: BridgeHarness, clicked: Set<string>): Promise<void> {
  for (const m of b.channel.messages) {
    if (m.reply.kind !== 'card' || clicked.has(m.messageId)) continue;
    const allow = m.reply.buttons?.find((x) => x.action.type === 'permission' && x.action.decision === 'allow');
    if (!allow) continue;
    clicked.add(m.messageId);
    await b.bridge.handleAction({ channel: 'fake', userId: OWNER, action: allow.action as CardAction });
  }
}
