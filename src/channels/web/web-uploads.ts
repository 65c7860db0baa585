import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { sanitizeFileName } from '../../bridge/inbound-files/sanitize-file-name.js';
import { saveStream, TooLarge } from '../../bridge/inbound-files/save-stream.js';
import { sniffMime } from '../../bridge/inbound-files/sniff-mime.js';
import type { InboundFile, InboundImage } from '../../bridge/inbound-message.js';
import { isInside } from '../../core/path-inside.js';
import { makePrivateDir } from '../../core/private-dir.js';

/** An upload's id: 32 lowercase hex digits (random, never a path). */
export const UPLOAD_ID = /^[0-9a-f]{32}$/;
/** Most attachments one message carries. */
export const MAX_ATTACHMENTS = 10;
/** Uploads remembered but not yet sent; past it the oldest is forgotten (its file goes with the age cleanup). */
const MAX_PENDING = 200;

/** What the page learns about an upload. */
export interface UploadView {
  id: string;
  name: string;
  size: number;
  mime: string;
  image: boolean;
}

interface Upload extends UploadView {
  path: string;
  /** The page message (uuid) that took it; a retry of that same message may take it again. */
  usedBy?: string;
}

/** What a message gets from its attachment ids. */
export interface Attachments {
  images: InboundImage[];
  files: InboundFile[];
  /** Name and size of each, in order, for the page's history. */
  shown: Array<{ name: string; size: number; image: boolean }>;
}

/** The picture formats an agent is shown as images (`[用户发送了第1张图片: …]`); anything else is a file. */
const IMAGE_MIMES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);

/**
 * The console's uploads: each file the page sends is streamed into its own folder
 * `<attachmentsDir>/web-<id>/` (0700; the file 0600) under its sanitised name, at most
 * `maxBytes` (whole or absent: `TooLarge` leaves nothing), its type sniffed from its bytes. Only
 * ids this console created are known, each taken by one message (`take`); the ids live in memory,
 * so after a restart an unsent upload is unknown and its folder goes with the age cleanup.
 */
export class WebUploads {
  private readonly uploads = new Map<string, Upload>();

  constructor(private readonly o: { attachmentsDir: string; maxBytes: number }) {}

  /**
   * Stores one upload read from `body` (a request); throws `TooLarge` (nothing kept) or the file
   * system's error (nothing kept). The request itself is never destroyed here: reading stops and
   * the server answers before it drops the connection.
   */
  async save(body: Readable, name: string, contentLength?: number): Promise<UploadView> {
    if (contentLength !== undefined && contentLength > this.o.maxBytes) throw new TooLarge();
    const stream = Readable.from(body.iterator({ destroyOnReturn: false }));
    const id = randomBytes(16).toString('hex');
    await makePrivateDir(this.o.attachmentsDir);
    const root = await fs.realpath(this.o.attachmentsDir);
    const dir = path.join(root, `web-${id}`);
    await makePrivateDir(dir);
    try {
      const real = await fs.realpath(dir);
      if (!isInside(real, root) || real === root) throw new Error(`upload folder escapes ${root}: ${real}`);
      const saved = await saveStream({
        stream,
        dir: real,
        maxBytes: this.o.maxBytes,
        name: (_head, taken) => sanitizeFileName(name, taken),
        noReplace: true,
      });
      const mime = sniffMime(saved.head);
      const upload: Upload = {
        id,
        name: path.basename(saved.path),
        size: saved.size,
        mime,
        image: IMAGE_MIMES.has(mime),
        path: saved.path,
      };
      this.remember(upload);
      return view(upload);
    } catch (err) {
      await fs.rm(dir, { recursive: true, force: true });
      throw err;
    }
  }

  /**
   * The attachments of page message `uuid`: every id must be one this console stored, not taken by
   * another message, its file still there — else the id that is not (`{ unknown }`) and nothing is
   * taken. A retry of the same message (same uuid) takes its own ids again.
   */
  async take(ids: readonly string[], uuid: string): Promise<Attachments | { unknown: string }> {
    const found: Upload[] = [];
    for (const id of ids) {
      const u = UPLOAD_ID.test(id) ? this.uploads.get(id) : undefined;
      const there = u
        ? await fs.lstat(u.path).then(
            (st) => st.isFile(),
            () => false,
          )
        : false;
      if (!u || !there || (u.usedBy !== undefined && u.usedBy !== uuid)) return { unknown: id.slice(0, 40) };
      if (found.includes(u)) continue;
      found.push(u);
    }
    for (const u of found) u.usedBy = uuid;
    return {
      images: found.filter((u) => u.image).map((u) => ({ key: u.id, localPath: u.path })),
      files: found
        .filter((u) => !u.image)
        .map((u) => ({ key: u.id, name: u.name, localPath: u.path, size: u.size, mime: u.mime })),
      shown: found.map((u) => ({ name: u.name, size: u.size, image: u.image })),
    };
  }

  /** Gives back the ids `uuid` took (its message was not accepted): the page may send them again. */
  release(ids: readonly string[], uuid: string): void {
    for (const id of ids) {
      const u = this.uploads.get(id);
      if (u?.usedBy === uuid) delete u.usedBy;
    }
  }

  private remember(upload: Upload): void {
    this.uploads.set(upload.id, upload);
    if (this.uploads.size <= MAX_PENDING) return;
    for (const [id, u] of this.uploads) {
      if (this.uploads.size <= MAX_PENDING) break;
      if (u !== upload) this.uploads.delete(id);
    }
  }
}

function view(u: Upload): UploadView {
  return { id: u.id, name: u.name, size: u.size, mime: u.mime, image: u.image };
}
