import type { StreamState } from '../../bridge/channel.js';
import type { CardButton, Reply } from '../../bridge/reply-model.js';
import { SENT_FILE_ID, type SentFile } from './sent-files.js';

// The shapes of the web outbox (`web-outbox.ts`): a message in memory, what a page receives, and
// the records of its log file, read back with every field checked (a replayed line is not trusted).

/** One entry of the sessions conversation: something the page sent, or a reply the bridge sent. */
export interface WebMessage {
  id: string;
  kind: 'user' | 'reply';
  at: string;
  /** The bridge's idempotency key (replies). */
  key?: string;
  /** What the user typed (kind `user`). */
  text?: string;
  /** The current content of a reply; absent while a stream has produced no final card yet. */
  reply?: Reply;
  /** The live state of a stream that has not finished. */
  live?: StreamState;
  streaming?: boolean;
  /** Buttons of a stream that has not finished (Stop); not persisted, a re-opened stream brings its own. */
  liveButtons?: CardButton[];
  /** The session it belongs to, when known (`ReplyTarget.sessionId`; a user text the page pinned). */
  sessionId?: string;
  /** A reply: the page's own message id (the uuid it sent) this answers. */
  replyTo?: string;
  /** A reply that is a file the agent sent (its kept copy). */
  file?: SentFile;
  /** A user message: the files the page attached. */
  files?: AttachedFile[];
}

/** A file the page attached to a message, as its history shows it. */
export interface AttachedFile {
  name: string;
  size: number;
  image: boolean;
}

/** What a page receives for one message: escaped HTML for replies, raw text for its own messages (set with textContent). */
export interface WebMessageView {
  id: string;
  kind: 'user' | 'reply';
  at: string;
  text?: string;
  html?: string;
  streaming: boolean;
  /** The session this message belongs to; absent for command replies and notices (the Activity panel). */
  sessionId?: string;
  /** A reply: the uuid of the page's message it answers (the page opens a new session from it). */
  replyTo?: string;
  /** A user message: the files it carried. */
  files?: AttachedFile[];
}

/** Where a message belongs (both optional, persisted with its creation record). */
export type Tags = { sessionId?: string; replyTo?: string };

export type LogRecord =
  | ({ op: 'user'; id: string; text: string; at: string; files?: AttachedFile[] } & Tags)
  | ({ op: 'send'; id: string; key: string; reply: Reply; at: string; file?: SentFile } & Tags)
  | ({ op: 'stream'; id: string; key: string; at: string } & Tags)
  | { op: 'update' | 'finish'; id: string; reply: Reply; at: string }
  | { op: 'session'; id: string; sessionId: string; at: string };

/** The tags present on `from`, strings only (a replayed line is not trusted further). */
export function tagsOf(from: Tags): Tags {
  return {
    ...(typeof from.sessionId === 'string' && from.sessionId ? { sessionId: from.sessionId } : {}),
    ...(typeof from.replyTo === 'string' && from.replyTo ? { replyTo: from.replyTo } : {}),
  };
}

/** A replayed sent file, when well-formed (its id is all the download route ever uses). */
export function fileOf(from: { file?: SentFile }): { file?: SentFile } {
  const f = from.file;
  const ok = f && typeof f.id === 'string' && SENT_FILE_ID.test(f.id) && typeof f.name === 'string';
  return ok ? { file: f } : {};
}

/** A replayed user message's attachments, when well-formed. */
export function filesOf(from: { files?: AttachedFile[] }): { files?: AttachedFile[] } {
  const ok = Array.isArray(from.files) && from.files.length > 0 && from.files.every((f) => typeof f?.name === 'string');
  return ok ? { files: from.files as AttachedFile[] } : {};
}

/** The one record that recreates `m` when the log is compacted. */
export function creationRecord(m: WebMessage): LogRecord {
  const tags = tagsOf(m);
  if (m.kind === 'user') return { op: 'user', id: m.id, text: m.text ?? '', at: m.at, ...tags, ...filesOf(m) };
  if (m.reply && !m.streaming)
    return { op: 'send', id: m.id, key: m.key ?? m.id, reply: m.reply, at: m.at, ...tags, ...fileOf(m) };
  return { op: 'stream', id: m.id, key: m.key ?? m.id, at: m.at, ...tags };
}
