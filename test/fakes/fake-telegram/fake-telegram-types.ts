/** A message the bot sent, as the fake Bot API keeps it. */
export interface FakeMessage {
  message_id: number;
  chat_id: number;
  text: string;
  /** The text as the user sees it (HTML parsed). */
  visible: string;
  parse_mode?: string;
  reply_markup?: { inline_keyboard: Array<Array<{ text: string; callback_data?: string }>> };
  reply_to?: number;
  edits: number;
  /** The visible text it was sent with, and when Telegram answered the send (ms since the epoch). */
  firstVisible: string;
  sentAt: number;
  /** An uploaded photo or document: its kind, name and bytes. */
  file?: { kind: 'photo' | 'document'; name?: string; bytes: Buffer };
}

/** A fault for `FakeTelegram.failNext`: a status (429 carries `retry_after`) or a destroyed connection. */
export interface InjectedFault {
  status?: number;
  retryAfter?: number;
  reset?: boolean;
  times: number;
}
