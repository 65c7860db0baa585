import type { BridgeInbound, Channel, ChannelStatus } from '../../bridge/channel.js';
import type { InboundFile, InboundImage, InboundMessage, ReplyTarget } from '../../bridge/inbound-message.js';
import type { WebOutbox } from './web-outbox.js';

/** The console's one user: the person holding the token. The lead's owner policy must accept it. */
export const WEB_USER_ID = 'web:owner';
/** The console's one chat. */
export const WEB_CHAT_ID = 'web';

/** A notification for open pages (`bridge.notify` on the event stream): the page alerts the user. */
export interface WebNotification {
  /** The card it is about (a reply in the sessions conversation). */
  messageId: string;
  text: string;
  /** The bridge's idempotency key: a page shows each key once. */
  key: string;
  at: string;
}

/**
 * The web console as a bridge `Channel` (id `web`): inbound, the page's messages become
 * `InboundMessage`s (`web:<uuid from the page>`, so a re-sent request is a duplicate, not a second
 * message); outbound, replies land in the durable `WebOutbox` and are pushed to pages over SSE.
 * `start()` only marks the channel connected — the HTTP server is already listening, and it talks
 * to the bridge given to `startWebConsole({ bridge })`. A notification goes to the open pages only
 * (`onNotify`), never into the history: a page that is not open has nobody to alert.
 */
export class WebChannel implements Channel {
  readonly id = 'web';
  private running = false;

  constructor(
    readonly outbox: WebOutbox,
    private readonly onNotify: (notification: WebNotification) => void = () => undefined,
  ) {}

  async notify(_target: ReplyTarget, cardMessageId: string, text: string, key: string): Promise<void> {
    this.onNotify({ messageId: cardMessageId, text, key, at: new Date().toISOString() });
  }

  async start(_bridge: BridgeInbound): Promise<void> {
    this.running = true;
  }

  async stop(): Promise<void> {
    this.running = false;
  }

  status(): ChannelStatus {
    return { connected: this.running };
  }

  /**
   * Builds the bridge message for text the page sent with its own uuid (from session `sessionId`'s
   * view, when given), with the uploads it carried already on disk (`WebUploads.take`): sniffed
   * pictures as `images`, the rest as `files` — the agent reads the same prompt lines as from Feishu.
   */
  static message(
    uuid: string,
    text: string,
    now: Date = new Date(),
    sessionId?: string,
    attached?: { images: InboundImage[]; files: InboundFile[] },
  ): InboundMessage {
    return {
      id: `web:${uuid}`,
      channel: 'web',
      platformMessageId: uuid,
      userId: WEB_USER_ID,
      chatId: WEB_CHAT_ID,
      chatType: 'p2p',
      text,
      images: attached?.images ?? [],
      ...(attached?.files.length ? { files: attached.files } : {}),
      receivedAt: now.toISOString(),
      ...(sessionId ? { sessionId } : {}),
    };
  }
}
