import type { InboundMessage } from '../../src/bridge/inbound-message.js';

/**
 * A Feishu private-chat message from the owner `ou_a` (`feishu:om_1`, received at the epoch), with
 * `overrides` on top: the shape a channel hands to the bridge, for tests of what reads it.
 */
export function inboundMessage(overrides: Partial<InboundMessage> = {}): InboundMessage {
  return {
    id: 'feishu:om_1',
    channel: 'feishu',
    platformMessageId: 'om_1',
    userId: 'ou_a',
    chatId: 'oc_1',
    chatType: 'p2p',
    text: '',
    images: [],
    receivedAt: new Date(0).toISOString(),
    ...overrides,
  };
}
