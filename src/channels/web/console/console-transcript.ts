import type { StorageDirs } from '../../../sessions/present/read-stored-transcript.js';
import { toolCard, type ToolCard } from '../../../sessions/present/tool-cards.js';
import type { TranscriptCache } from '../../../sessions/present/transcript-cache.js';
import { transcriptPage } from '../../../sessions/present/transcript-page.js';
import type { SessionEntry } from '../../../sessions/registry/registry-schema.js';

/** One message of the transcript view (its text still markdown; the API renders it). */
export interface TranscriptItem {
  /** The message's number in the session, from 0. */
  n: number;
  role: 'user' | 'assistant';
  timestamp: string | null;
  text: string;
  thinking: string[];
  /** Numbers of its pasted images (`GET /api/sessions/:id/transcript/images/<n>`). */
  images: number[];
  tools: ToolCard[];
}

/** A page of the transcript view: oldest first; `before` is the cursor of the earlier page (null at the start). */
export interface TranscriptView {
  items: TranscriptItem[];
  before: string | null;
  total: number;
}

/** An image ready to send: its bytes and the type its bytes say it is. */
export interface TranscriptImage {
  data: Buffer;
  type: string;
}

type Read = {
  cache: TranscriptCache;
  id: string;
  entry: Pick<SessionEntry, 'agent' | 'jsonl_path'>;
  dirs: StorageDirs;
  opts: { maxLineBytes?: number; maxFileSize?: number };
};

/**
 * One page of a session's transcript as the console shows it: tool calls as cards, thinking,
 * image numbers. Null when the file may not or cannot be read; `bad-cursor` for a cursor out of range.
 */
export async function transcriptView(
  r: Read,
  before: string | null,
  limit: number,
): Promise<TranscriptView | 'bad-cursor' | null> {
  const t = await r.cache.read(r.id, r.entry, r.dirs, r.opts);
  if (!t) return null;
  const page = transcriptPage(t.messages, before, limit);
  if (!page) return 'bad-cursor';
  return {
    items: page.items.map((m, i) => {
      const n = page.start + i;
      const first = t.imageStart[n] ?? 0;
      return {
        n,
        role: m.role,
        timestamp: m.timestamp,
        text: m.text,
        thinking: m.thinking ?? [],
        images: (m.images ?? []).map((_, k) => first + k),
        tools: (m.tools ?? []).map(toolCard),
      };
    }),
    before: page.before,
    total: page.total,
  };
}

/** Image `n` of a session, only when its bytes are PNG, JPEG, GIF or WebP (never SVG or HTML). */
export async function transcriptImage(r: Read, n: number): Promise<TranscriptImage | null> {
  const image = (await r.cache.read(r.id, r.entry, r.dirs, r.opts))?.images[n];
  if (!image) return null;
  const data = Buffer.from(image.data, 'base64');
  const type = sniffImageType(data);
  return type ? { data, type } : null;
}

/** The image type the first bytes say, whatever the file claims; null for anything else. */
export function sniffImageType(b: Buffer): string | null {
  if (b.length >= 8 && b.readUInt32BE(0) === 0x89504e47 && b.readUInt32BE(4) === 0x0d0a1a0a) return 'image/png';
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'image/jpeg';
  if (b.length >= 6 && /^GIF8[79]a$/.test(b.toString('latin1', 0, 6))) return 'image/gif';
  if (b.length >= 12 && b.toString('latin1', 0, 4) === 'RIFF' && b.toString('latin1', 8, 12) === 'WEBP')
    return 'image/webp';
  return null;
}
