import type { Life } from './bridge-process.js';
import type { Rng } from './rng.js';
import type { Sandbox } from './sandbox.js';
import type { SendWindowVerdict } from './send-window.js';
import type { WebhookDeliveryStats } from './telegram-webhook-delivery.js';

/** The chat apps the chaos run can drive (one `ChatUser` file each; see docs/chaos.md#channels). */
export const CHAOS_CHANNELS = ['feishu', 'telegram', 'slack', 'dingtalk'] as const;
export type ChaosChannel = (typeof CHAOS_CHANNELS)[number];

/** What a chaos message is, for the verdict (commands expect a notice, the rest an answer). */
export type MessageKind =
  'text' | 'new-prompt' | 'new-bare' | 'switch' | 'command' | 'image' | 'post' | 'tool' | 'slow';

/** One message the simulated user sent, and what the platform saw of its delivery. */
export interface ChaosMessage {
  n: number;
  kind: MessageKind;
  text: string;
  /** A word that must appear in the answer (and in no other message's answer). */
  token?: string;
  /** The platform's delivery id (Feishu `event_id`, Telegram `update_id`). */
  eventId: string;
  /** The platform's id of the user's message (replies thread on it). */
  messageId: string;
  /** Bridge message id (`feishu:<om_…>`, `telegram:<chat>:<id>`): the base of the delivery keys. */
  bridgeId: string;
  firstPushAt: number;
  /** Every delivery of the message (first + re-deliveries after a missing or failed ack). */
  pushes: number;
  /** Ack codes in order; -1 = no ack arrived (bridge down or killed mid-handler). */
  acks: number[];
  ackedAt?: number;
  /** Extra deliveries of an already acked message (the "the platform delivered it twice" fault). */
  duplicatePushes: number;
  /** When the harness first saw a final reply (answer, error or notice). */
  finalSeenAt?: number;
  /** When the harness first saw the answer's token in a reply, a card still streaming included. */
  shownAt?: number;
}

/** What one bot message is, as the user reads it now. */
export type PieceState = 'streaming' | 'answer' | 'error' | 'prompt' | 'notice' | 'card';

export interface ReplyPiece {
  /** The platform's id of the bot message. */
  messageId: string;
  /** Its delivery key, when the platform records one (Feishu's `uuid`). */
  uuid?: string;
  state: PieceState;
  text: string;
  /** Chunk index when the delivery key is one of the message's chunk keys (-1 for a tagged notice). */
  chunk?: number;
}

/** A button the user can press: where it is and what pressing it sends. */
export interface ChatButton {
  /** The bot message that carries it. */
  messageId: string;
  /** The platform's callback value (Feishu: the behaviour's value; Telegram: `callback_data`). */
  value: unknown;
}

/** Bot messages per user message (by `messageId`), and how many bot messages answer none. */
export interface ReplyView {
  pieces: Map<string, ReplyPiece[]>;
  unattributed: number;
}

/**
 * The simulated owner on one chat app, talking to that app's fake server in this process — the
 * seam between the chaos run and a platform. It sends messages (and the platform re-delivers
 * each until the bridge confirmed it), re-delivers confirmed ones on demand, clicks buttons, reads
 * what the user sees per message, and injects the platform's own faults. Everything else (the
 * plan, kills, disk, clock, the verdict) is the same for every channel.
 */
export interface ChatUser {
  readonly channel: ChaosChannel;
  /** The app's name in the report ("Feishu", "Telegram"). */
  readonly label: string;
  readonly messages: ChaosMessage[];
  /** Environment for `cc-linker start` (credentials, the fake's address). */
  readonly env: Record<string, string>;
  /** Config sections merged into the sandbox's `config.toml`. */
  readonly config: Record<string, unknown>;
  /** Extra arguments for `cc-linker start` (e.g. `--no-feishu`). */
  readonly startArgs: string[];
  /** True when the harness presses no Stop / Cancel (DingTalk: tap links it does not follow): every stop is a typed `/stop`. */
  readonly typedStopsOnly?: boolean;
  /** Sends a text (an image for `image`, a text with an image for `post`) and keeps delivering it until acked. */
  send(kind: MessageKind, text: string, token?: string): ChaosMessage;
  /** Delivers an already acked message again (a duplicate delivery); not awaited. */
  repush(m: ChaosMessage, times: number): void;
  /** Presses a button; resolves with the ack (`code` -1 when none came) and the toast the user sees (`data`). */
  click(button: ChatButton, decision: string): Promise<{ code: number; data?: unknown }>;
  /** Messages not acked yet. */
  readonly unacked: ChaosMessage[];
  /** Waits until every delivery loop ended (all acked) or `timeoutMs` passed; then stops re-delivering. */
  drain(timeoutMs: number): Promise<void>;
  /** Every bot message attributed to the user message it answers; `only` limits it to those user messages. */
  replies(only?: ReadonlySet<string>): ReplyView;
  /** The Stop button of `m`'s running reply (`running`) or the Cancel of its queued one (`queued`), once shown. */
  stopButton(m: ChaosMessage, which: 'running' | 'queued'): { button?: ChatButton } | undefined;
  /** The text of the first reply to `m` (a command's notice), once it came. */
  noticeOf(m: ChaosMessage): string | undefined;
  /** Permission prompts not returned before, with their Allow and Deny buttons. */
  newPermissionPrompts(): Array<{ allow?: ChatButton; deny?: ChatButton }>;
  /** Bot writes so far (sends and edits): a kill "right after a write" waits for this to grow. */
  writes(): number;
  /** Resolves right after the platform answered the bot's next send or edit (≤ `timeoutMs`); false if none came. */
  afterNextWrite(timeoutMs: number): Promise<boolean>;
  /** How many times a bridge connected (a new life is up when it grows). */
  connectionsOpened(): number;
  /** One fault of the platform's API (rate limit, 5xx, …); returns its name for the counts. */
  platformFault(rng: Rng): string;
  /** The platform's fault names, in report order. */
  readonly faultNames: readonly string[];
  /** Drops the bridge's connections to the platform (the client must reconnect). */
  dropConnection(): Promise<void>;
  /** Requests the platform's fake served, and how many it answered with an injected error. */
  requestStats(): { total: number; injectedErrors: number };
  close(): Promise<void>;
  /** Writes every bot message as the platform kept it (a kept sandbox's post-mortem). */
  saveTranscript?(file: string): void;
  /** Called once the sandbox exists (a platform that reads the bridge's files learns where they are). */
  useSandbox?(sb: Sandbox): void;
  /**
   * Platforms without an idempotency key for sends: the chunks shown twice, inside the documented
   * window (a SIGKILL between the platform's answer and the bridge's record of it) or not, and the
   * reply view without those copies (they are counted there instead).
   */
  judgeSendWindow?(lives: readonly Life[]): { verdict: SendWindowVerdict; view: ReplyView };
  /** How the app delivers events when it has more than one way (Telegram: `polling` or `webhook`). */
  readonly mode?: string;
  /**
   * Delivery by POST to the bridge (Telegram's webhook): resolves once the app has sent its next
   * POST (undefined after `timeoutMs`), with the bridge's answer to come (HTTP status, 0 = none).
   */
  nextDeliveryInFlight?(timeoutMs: number): Promise<{ answer: Promise<number> } | undefined>;
  /** Delivery by POST: POSTs made, failed, and updates given up (undefined in other modes). */
  deliveryStats?(): WebhookDeliveryStats | undefined;
}
