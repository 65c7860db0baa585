/**
 * Channel-neutral replies. Chat commands and the dispatcher produce these; each channel renders
 * them natively (Feishu cards, web console components). Buttons carry an `action` that comes back
 * to `Bridge.handleAction()` when clicked, whatever the platform.
 */
export type Reply = TextReply | CardReply;

export interface TextReply {
  kind: 'text';
  text: string;
}

/** `stopped`: the owner stopped the run or cancelled the queued message (shows what was done so far). */
export type CardStatus = 'info' | 'processing' | 'streaming' | 'complete' | 'error' | 'warning' | 'stopped';

export interface CardReply {
  kind: 'card';
  title: string;
  status: CardStatus;
  /** Sections in order; markdown is the bridge's own (escaped user text inside). */
  sections: CardSection[];
  buttons?: CardButton[];
  /** Small grey line at the bottom: cost, duration, turns. */
  footer?: string;
}

export type CardSection =
  | { type: 'markdown'; text: string }
  /** Text the user or Claude wrote; channels must escape it so it cannot break or spoof the card. */
  | { type: 'plain'; text: string }
  /** Markdown Claude wrote: channels keep its formatting but neutralise tags and mentions. */
  | { type: 'answer'; text: string }
  | { type: 'quote'; text: string }
  | { type: 'divider' }
  | { type: 'fields'; fields: Array<{ label: string; value: string }> };

export interface CardButton {
  label: string;
  style?: 'primary' | 'danger' | 'default';
  action: CardAction;
}

/**
 * What a button does. `nonce` binds a click to one pending prompt, so a replayed, forged or stale
 * click changes nothing. A question's `answer` is an option's label and `question` the index of
 * the question it answers (0 when absent); the prompt accepts only a label it showed for that
 * question.
 */
export type CardAction =
  | { type: 'permission'; requestId: string; nonce: string; decision: 'allow' | 'deny' | 'always' }
  | { type: 'question'; requestId: string; nonce: string; answer: string; question?: number }
  | { type: 'switch'; sessionId: string }
  | { type: 'select_dir'; path: string }
  | { type: 'browse_dir'; path: string }
  | { type: 'force_send'; messageId: string; nonce: string }
  /** Continue or skip a message whose turn was interrupted by a restart (`runtime.recovery = "ask"`). */
  | { type: 'recovery'; messageId: string; nonce: string; choice: 'continue' | 'skip' }
  /**
   * Stop a message's run (the Stop button of a running card), or cancel it while it waits (the
   * Cancel button of its "Queued" card). `nonce` is the one saved with the message.
   */
  | { type: 'stop'; messageId: string; nonce: string };

/**
 * A file the agent sent into the chat (`mcp__cc-linker__send_file`), already checked
 * (`files/send-file-policy.ts`): `path` is its real path, `mime` sniffed from its bytes, `image`
 * true when the chat should show it as a picture. Not part of `Reply`: it goes through
 * `ChannelOutbox.sendFile`, and a channel shows it as an image, a file message or a download.
 */
export interface FileReply {
  kind: 'file';
  path: string;
  /** The name the chat shows (the file's base name). */
  name: string;
  mime: string;
  size: number;
  caption?: string;
  image: boolean;
}

/** Convenience constructor for the common case. */
export function textReply(text: string): TextReply {
  return { kind: 'text', text };
}
