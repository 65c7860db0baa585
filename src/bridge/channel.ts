import type { InboundMessage, ReplyTarget } from './inbound-message.js';
import type { CardAction, CardButton, FileReply, Reply } from './reply-model.js';

/**
 * The seam through which a chat platform plugs into the bridge (see docs/design.md#seams).
 * Feishu and the web console are two implementations; a third platform is one more folder of the
 * same shape.
 */
export interface Channel {
  /** Matches `InboundMessage.channel`. */
  readonly id: string;
  readonly outbox: ChannelOutbox;
  /** Connects to the platform and starts feeding `bridge.accept()` / `bridge.handleAction()`. */
  start(bridge: BridgeInbound): Promise<void>;
  /** Disconnects; in-flight sends finish or fail, nothing new is accepted. */
  stop(): Promise<void>;
  /** For `/status` and the console's status view. */
  status(): ChannelStatus;
  /** Runs at processing time (not in the platform's 3-second handler), e.g. to download images. */
  prepare?(message: InboundMessage): Promise<InboundMessage>;
  /**
   * One short notification about the card `cardMessageId` (a long turn ended, a prompt is
   * waiting), made so the user's device alerts them where a card update would not: Feishu replies
   * to the card, the console shows a browser notification. `idempotencyKey` is stable per
   * notification, so a retry never shows it twice where the platform can de-duplicate.
   */
  notify(target: ReplyTarget, cardMessageId: string, text: string, idempotencyKey: string): Promise<void>;
}

export interface ChannelStatus {
  connected: boolean;
  detail?: string;
}

/** What the bridge offers a channel: persist a message, or handle a button click. */
export interface BridgeInbound {
  /**
   * Validates, de-duplicates and persists the message with its parsed command; returns within
   * milliseconds. It runs nothing: commands run later, in the dispatcher, in arrival order.
   */
  accept(message: InboundMessage): Promise<AcceptResult>;
  /** A button click. Only the owner's click on a still-pending prompt changes anything. */
  handleAction(input: {
    channel: string;
    userId: string;
    action: CardAction;
    messageId?: string;
  }): Promise<ActionResult>;
}

export type AcceptResult =
  | { status: 'accepted' }
  | { status: 'duplicate' }
  /** Not queued; the bridge has already sent `notice` (if any) to the sender. */
  | {
      status: 'refused';
      reason: 'overloaded' | 'not-owner' | 'too-long' | 'invalid' | 'shutting-down' | 'group';
      notice?: string;
    };

export interface ActionResult {
  /** A short toast for the clicker (Feishu answers a click within 3 seconds with this). */
  toast?: { type: 'success' | 'info' | 'warning' | 'error'; text: string };
  /** A replacement for the clicked card, when it should change. */
  card?: Reply;
}

/**
 * Outbound: the ONE path replies take to a platform. Every send carries the delivery record's
 * stable idempotency key, so a retry after a crash or a lost response never shows the user a
 * second copy.
 */
export interface ChannelOutbox {
  send(target: ReplyTarget, reply: Reply, idempotencyKey: string): Promise<{ messageId: string }>;
  /**
   * Sends a checked file (an image as an image, anything else as a file message), at most once per
   * `idempotencyKey`. A channel without it refuses the agent's `send_file` calls. The caption, if
   * any, follows as a text message.
   */
  sendFile?(target: ReplyTarget, file: FileReply, idempotencyKey: string): Promise<{ messageId: string }>;
  /** Replaces a card sent earlier (permission answered, list refreshed, …). */
  update(messageId: string, reply: Reply): Promise<void>;
  /**
   * Opens (or, after a restart, re-opens with `existingMessageId`) a reply that streams into one
   * message. The channel owns throttling and platform limits. `buttons` (a Stop button) show on
   * the message while it streams; the final card replaces them.
   */
  openStream(
    target: ReplyTarget,
    idempotencyKey: string,
    options?: { existingMessageId?: string; buttons?: CardButton[] },
  ): Promise<ReplyStream>;
  /** Longest text one plain message may carry on this platform (for splitting long replies). */
  readonly maxTextChunk: number;
  /**
   * Optional: the session of message `messageId`'s reply became known after it was opened (a new
   * session's id as the engine reported it). Channels that ignore `ReplyTarget.sessionId` omit it.
   */
  sessionKnown?(messageId: string, sessionId: string): Promise<void>;
}

/** The evolving state of a streamed reply; the channel renders it however suits the platform. */
export interface StreamState {
  phase: 'processing' | 'streaming';
  text: string;
  thinking: string;
  /** The tool running now, for the heartbeat line. */
  activeTool?: string;
  /** The agent's plan for the turn, as one line (`📋 2/5 · Run the tests`), when it shared one. */
  plan?: string;
  /** What the message's voice said, when it was a voice message (shown quoted, `🎤 …`, at the top). */
  heard?: string;
  toolCount: number;
  /** Since the run first started — across a restart too (`resumed`). */
  elapsedMs: number;
  /** The run began before cc-linker restarted and was picked up again after it. */
  resumed?: boolean;
  /** cc-linker is stopping: the run has the graceful stop's time left to finish, else it resumes after the next start. */
  stopping?: boolean;
}

export interface ReplyStream {
  readonly messageId: string;
  /** Latest state; cheap to call often — the channel throttles. */
  update(state: StreamState): void;
  /**
   * Ends the stream with the final reply. Returns `overflow` = the part of the final text that did
   * not fit in the streamed message and must be sent as further text chunks.
   */
  finish(final: Reply & { kind: 'card' }, fullText: string): Promise<{ overflow: string }>;
  /**
   * Stops showing states, with no final edit: the attempt that opened it failed, and the retry
   * re-opens the message and finishes it (this one must never edit it again, e.g. a failed edit
   * re-tried seconds later over the final reply). Resolves once an edit in progress settled.
   */
  abandon?(): Promise<void>;
}
