/**
 * A chat message as the bridge sees it, whatever platform it came from. Channels convert their
 * platform events into this shape and hand it to `Bridge.accept()`; everything after that is
 * channel-neutral.
 */
export interface InboundMessage {
  /** Globally unique and stable across re-pushes: `<channel>:<platform message id>`. */
  id: string;
  /** Which channel delivered it (`feishu`, `web`, …); replies go back through the same channel. */
  channel: string;
  /** The platform's own message id (Feishu `om_…`), used to reply in thread. */
  platformMessageId: string;
  /** The sender (Feishu open_id; `web:<name>` for the console). */
  userId: string;
  chatId: string;
  chatType: 'p2p' | 'group';
  /** Plain text with platform mention keys already stripped. */
  text: string;
  /** Images the user sent; downloaded by the channel at processing time, not in the 3-second handler. */
  images: InboundImage[];
  /**
   * Files the user sent (any type but images), in the order they came; downloaded by the channel
   * at processing time into a folder of this message only. Absent on channels without files and on
   * records spooled before files existed.
   */
  files?: InboundFile[];
  /**
   * A voice message: the channel transcribes it at processing time (or, for the console, before
   * accepting it) and the transcript becomes the prompt (docs/design.md#voice-in).
   */
  voice?: InboundVoice;
  /** ISO time the channel received it. */
  receivedAt: string;
  /**
   * Set for a message type the bot does not take (file, audio, sticker …): the bridge answers the
   * owner "not supported yet" and a stranger the usual refusal, and queues nothing.
   */
  unsupportedType?: string;
  /**
   * The session this message is meant for, when the channel knows it (the web console's composer
   * inside one session's view). Routing a pinned plain text first points the user's mapping at that
   * session — the same change `/switch` makes — then claims as usual; a session the registry does not
   * know answers the message with an error and runs nothing. Commands ignore it.
   */
  sessionId?: string;
}

export interface InboundImage {
  /** Platform resource key (Feishu `img_…`). */
  key: string;
  /** Filled in once downloaded (under `~/.cc-linker/images/`). */
  localPath?: string;
}

/** One file of a message; `localPath` or `error` is set once the channel has prepared it. */
export interface InboundFile {
  /** Platform resource key (Feishu `file_…`). */
  key: string;
  /** The name as the user sent it (untrusted: never used as a path). */
  name: string;
  /** In a rich-text message: the offset in `text` where the file stood; absent = before the text. */
  at?: number;
  /** Absolute path of the downloaded copy (under `~/.cc-linker/attachments/<message>/`, 0600). */
  localPath?: string;
  size?: number;
  /** Sniffed from the first bytes, never taken from the name. */
  mime?: string;
  /** Why there is no `localPath` (too large, failed, files off), in the user's language. */
  error?: string;
}

/** A voice message; `transcript` or `error` is set once the channel has prepared it. */
export interface InboundVoice {
  /** Platform resource key of the audio (Feishu `file_…`); absent when the channel already has the text. */
  key?: string;
  /** Length as the platform reports it, in ms. */
  durationMs?: number;
  /**
   * What was heard ('' = nothing). Kept on the record, so a retried record never sends the audio
   * to the speech service again.
   */
  transcript?: string;
  /** Why there is no transcript (not permitted, too long, undecodable, …), in the user's language. */
  error?: string;
  /**
   * Set for an audio clip in a container the decoder does not read (Slack's webm / mp4 clips): it is
   * sent whole through `SpeechToText.transcribeFile`, and kept as a file (`name`, the `size` the
   * platform announced) when the daemon's speech service cannot take it (docs/design.md#voice-in).
   */
  clip?: { name: string; size?: number };
}

/** Where a reply goes: back to the same user and chat, threaded on the message when possible. */
export interface ReplyTarget {
  channel: string;
  userId: string;
  chatId: string;
  /** Platform message id to reply to. */
  replyTo?: string;
  /**
   * The session the reply belongs to, when known: the routed target's session, or a new session's
   * id once chosen (`ChannelOutbox.sessionKnown` tells a stream that learns it later). A channel
   * that shows one session per view (the web console) files the reply there; others ignore it.
   */
  sessionId?: string;
}
