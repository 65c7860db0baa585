import type { BridgeInbound, Channel, ChannelStatus } from '../../bridge/channel.js';
import type { InboundMessage } from '../../bridge/inbound-message.js';
import type { WebOutbox } from './web-outbox.js';

/** The console's one user: the person holding the token. The lead's owner policy must accept it. */
export const WEB_USER_ID = 'web:owner';
/** The console's one chat. */
export const WEB_CHAT_ID = 'web';

/**
 * The web console as a bridge `Channel` (id `web`): inbound, the page's messages become
 * `InboundMessage`s (`web:<uuid from the page>`, so a re-sent request is a duplicate, not a second
 * message); outbound, replies land in the durable `WebOutbox` and are pushed to pages over SSE.
 * `start()` only marks the channel connected — the HTTP server is already listening, and it talks
 * to the bridge given to `startWebConsole({ bridge })`.
 */
export class WebChannel implements Channel {
  readonly id = 'web';
  private running = false;

  constructor(readonly outbox: WebOutbox) {}

  async start(_bridge: BridgeInbound): Promise<void> {
    this.running = true;
  }

  async stop(): Promise<void> {
    this.running = false;
  }

  status(): ChannelStatus {
    return { connected: this.running };
  }

  /** Builds the bridge message for text the page sent with its own uuid. */
  static message(uuid: string, text: string, now: Date = new Date()): InboundMessage {
    return {
      id: `web:${uuid}`,
      channel: 'web',
      platformMessageId: uuid,
      userId: WEB_USER_ID,
      chatId: WEB_CHAT_ID,
      chatType: 'p2p',
      text,
      images: [],
      receivedAt: now.toISOString(),
    };
  }
}
