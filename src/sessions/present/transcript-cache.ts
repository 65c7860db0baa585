import type { SessionEntry } from '../registry/registry-schema.js';
import type { ExportedImage, ExportedMessage } from './export-session.js';
import { readSessionTranscript } from './export-session.js';
import { storedTranscriptFile, type StorageDirs } from './read-stored-transcript.js';

/** A parsed transcript (with tool details, thinking and images) and its images numbered in order. */
export interface CachedTranscript {
  messages: ExportedMessage[];
  /** Every pasted image of the session, numbered from 0 in transcript order. */
  images: ExportedImage[];
  /** The number of each message's first image in `images`. */
  imageStart: number[];
}

/**
 * Parsed transcripts, kept by (real path, size, mtime) so paging through a big session does not
 * parse its file on every request; a file that changed is parsed again. At most `max` files are
 * kept, the least recently used dropped first. Files are reached only through
 * `storedTranscriptFile` (inside the agent's own storage directory).
 *
 * @example
 *   const cache = new TranscriptCache(8);
 *   const t = await cache.read(id, entry, paths, {});
 */
export class TranscriptCache {
  private readonly entries = new Map<string, { key: string; value: CachedTranscript }>();
  /** Files actually parsed (not served from the cache), for tests and diagnostics. */
  parses = 0;

  constructor(private readonly max = 8) {}

  async read(
    id: string,
    entry: Pick<SessionEntry, 'agent' | 'jsonl_path'>,
    dirs: StorageDirs,
    opts: { maxLineBytes?: number; maxFileSize?: number },
  ): Promise<CachedTranscript | null> {
    const stored = await storedTranscriptFile(entry, dirs, opts.maxFileSize);
    if (!stored) return null;
    const key = `${stored.size}:${stored.mtimeMs}`;
    const hit = this.entries.get(stored.file);
    if (hit && hit.key === key) {
      this.entries.delete(stored.file);
      this.entries.set(stored.file, hit);
      return hit.value;
    }
    let messages: ExportedMessage[];
    try {
      messages = await readSessionTranscript(
        id,
        { agent: entry.agent, jsonl_path: stored.file },
        { thinking: true, detail: true, ...(opts.maxLineBytes ? { maxLineBytes: opts.maxLineBytes } : {}) },
      );
    } catch {
      return null;
    }
    this.parses += 1;
    const images: ExportedImage[] = [];
    const imageStart = messages.map((m) => {
      const start = images.length;
      images.push(...(m.images ?? []));
      return start;
    });
    const value = { messages, images, imageStart };
    this.entries.delete(stored.file);
    this.entries.set(stored.file, { key, value });
    while (this.entries.size > this.max) this.entries.delete(this.entries.keys().next().value as string);
    return value;
  }
}
