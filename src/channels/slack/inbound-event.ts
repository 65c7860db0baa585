import type { InboundFile, InboundImage, InboundMessage, InboundVoice } from '../../bridge/inbound-message.js';

/** What one Slack message event means to the channel. */
export type EventDecision = { kind: 'message'; message: InboundMessage } | { kind: 'ignore'; reason: string };

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

/** A message as we address it: `<channel>:<ts>` (an update needs both). */
export function messageRef(channel: string, ts: string): string {
  return `${channel}:${ts}`;
}

export function parseMessageRef(ref: string): { channel: string; ts: string } | undefined {
  const m = /^([A-Z0-9]+):(\d+\.\d+)$/.exec(ref);
  return m ? { channel: m[1] ?? '', ts: m[2] ?? '' } : undefined;
}

/**
 * Where replies go: the DM channel, or `<channel>/<thread_ts>` for a message written inside a
 * thread, so its answer lands in that thread instead of at the top of the DM.
 */
export function chatAddress(channel: string, threadTs?: string): string {
  return threadTs ? `${channel}/${threadTs}` : channel;
}

export function parseChatAddress(chat: string): { channel: string; threadTs?: string } {
  const [channel = '', threadTs] = chat.split('/');
  return threadTs ? { channel, threadTs } : { channel };
}

/**
 * Slack's message text → plain text: `<url|label>` links as their label (with the URL when it
 * differs), `<url>` as the URL, then its three entities decoded. Mentions stay as Slack wrote them.
 */
export function slackTextToPlain(text: string): string {
  return text
    .replace(/<((?:https?:\/\/|mailto:)[^<>|]+)\|([^<>]*)>/g, (_, url: string, label: string) =>
      url.replace(/^mailto:/, '').endsWith(label) ? label : `${label} (${url})`,
    )
    .replace(/<((?:https?:\/\/|mailto:)[^<>|]+)>/g, (_, url: string) => url.replace(/^mailto:/, ''))
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

/**
 * A Slack audio clip (a file with `subtype: "slack_audio"`, webm or mp4, with a download URL) as
 * a voice message: keyed by its private URL like any file, `duration_ms` kept so a clip over
 * `voice.max_seconds` is refused unfetched, its name and announced size kept for the file it
 * becomes when it cannot be transcribed (docs/design.md#voice-in). Anything else: undefined.
 */
function clipVoice(f: Obj | undefined): InboundVoice | undefined {
  if (!f || f.subtype !== 'slack_audio') return undefined;
  const url = str(f.url_private_download) ?? str(f.url_private);
  if (!url) return undefined;
  const ms = f.duration_ms;
  const size = f.size;
  return {
    key: url,
    ...(typeof ms === 'number' && Number.isSafeInteger(ms) && ms >= 0 ? { durationMs: ms } : {}),
    clip: {
      name: str(f.name) ?? str(f.title) ?? 'audio clip',
      ...(typeof size === 'number' && Number.isSafeInteger(size) ? { size } : {}),
    },
  };
}

/**
 * One `message` event → an `InboundMessage`, or nothing: only direct messages (`channel_type`
 * "im") of people — channels and groups, the bot's own messages, other bots and every subtype
 * but `file_share` (edits, deletions, joins) are ignored. The id is `slack:<channel>:<ts>`: a
 * message's `ts` is its identity in the channel, the same on every re-send of the event
 * (`retry_attempt` 1–3 keeps `event_id` too, but a `ts` also survives an event that arrives
 * through another subscription). Shared images become `images` and other files `files` (keyed by
 * their private download URL, fetched with the bot token at processing time; a file's `size` is
 * what Slack announces); an audio clip as the first file is the message's `voice`; a message whose
 * files have no URL (still processing, or external) and no text is `unsupportedType: "file"`.
 */
export function convertEvent(event: unknown, botUserId: string, now: Date): EventDecision {
  if (!isObj(event) || event.type !== 'message') return { kind: 'ignore', reason: 'not a message' };
  if (event.channel_type !== 'im') return { kind: 'ignore', reason: 'not a direct message' };
  if (event.subtype !== undefined && event.subtype !== 'file_share')
    return { kind: 'ignore', reason: `subtype ${String(event.subtype)}` };
  const channel = str(event.channel);
  const ts = str(event.ts);
  const user = str(event.user);
  if (!channel || !ts || !user) return { kind: 'ignore', reason: 'incomplete' };
  if (event.bot_id !== undefined || user === botUserId) return { kind: 'ignore', reason: 'from a bot' };
  const files = Array.isArray(event.files) ? event.files.filter(isObj) : [];
  const voice = clipVoice(files[0]);
  const images: InboundImage[] = [];
  const other: InboundFile[] = [];
  for (const f of voice ? files.slice(1) : files) {
    const url = str(f.url_private_download) ?? str(f.url_private);
    if (!url) continue;
    if (String(f.mimetype ?? '').startsWith('image/')) images.push({ key: url });
    else
      other.push({
        key: url,
        name: str(f.name) ?? str(f.title) ?? str(f.id) ?? 'file',
        ...(typeof f.size === 'number' && Number.isSafeInteger(f.size) ? { size: f.size } : {}),
      });
  }
  const ref = messageRef(channel, ts);
  // A reply inside a thread carries the thread's first `ts`; a top-level message has none (or its own).
  const thread = str(event.thread_ts);
  const text = slackTextToPlain(typeof event.text === 'string' ? event.text : '');
  const message: InboundMessage = {
    id: `slack:${ref}`,
    channel: 'slack',
    platformMessageId: ref,
    userId: user,
    chatId: chatAddress(channel, thread !== ts ? thread : undefined),
    chatType: 'p2p',
    text,
    images,
    ...(other.length > 0 ? { files: other } : {}),
    ...(voice ? { voice } : {}),
    receivedAt: now.toISOString(),
  };
  if (text.trim() === '' && images.length === 0 && other.length === 0 && !voice) {
    if (files.length === 0) return { kind: 'ignore', reason: 'empty' };
    message.unsupportedType = 'file';
  }
  return { kind: 'message', message };
}
