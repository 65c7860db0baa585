import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { saveStream } from '../../bridge/inbound-files/save-stream.js';
import type { FileReply } from '../../bridge/reply-model.js';
import { makePrivateDir } from '../../core/private-dir.js';

/** A sent file's id: 32 lowercase hex digits (random, never a path). */
export const SENT_FILE_ID = /^[0-9a-f]{32}$/;

/** A file the agent sent, as the console keeps and shows it (no path: the id names the copy). */
export interface SentFile {
  id: string;
  name: string;
  size: number;
  mime: string;
  image: boolean;
  caption?: string;
}

/**
 * The copies of the files the agent sent to the console: `~/.cc-linker/web/sent/<id>` (folder
 * 0700, file 0600), copied at send time so a later edit or deletion of the original does not change
 * what was sent. A copy is whole or absent (`saveStream`); the source is opened without following a
 * symlink planted after the send policy checked it, and read at most `maxBytes`. The age cleanup
 * removes copies like attachments (`files.cleanup_max_age_hours`).
 */
export class SentFiles {
  constructor(
    readonly dir: string,
    private readonly maxBytes: number,
  ) {}

  /** Copies `file.path` under a new id. */
  async keep(file: FileReply): Promise<SentFile> {
    await makePrivateDir(this.dir);
    const id = randomBytes(16).toString('hex');
    const handle = await fs.open(file.path, constants.O_RDONLY | constants.O_NOFOLLOW);
    const stream = handle.createReadStream();
    const saved = await saveStream({ stream, dir: this.dir, maxBytes: this.maxBytes, name: () => id });
    return {
      id,
      name: file.name,
      size: saved.size,
      mime: file.mime,
      image: file.image,
      ...(file.caption ? { caption: file.caption } : {}),
    };
  }

  /** The copy named `id` as a stream with its size, or null when the id is malformed or the copy is gone. */
  async open(id: string): Promise<{ stream: Readable; size: number } | null> {
    if (!SENT_FILE_ID.test(id)) return null;
    let handle: fs.FileHandle;
    try {
      handle = await fs.open(path.join(this.dir, id), constants.O_RDONLY | constants.O_NOFOLLOW);
    } catch {
      return null;
    }
    const st = await handle.stat();
    if (!st.isFile()) {
      await handle.close();
      return null;
    }
    return { stream: handle.createReadStream(), size: st.size };
  }
}
