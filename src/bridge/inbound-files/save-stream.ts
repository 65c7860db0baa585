import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { SNIFF_BYTES } from './sniff-mime.js';

/** The stream was (or announced itself) larger than the limit; nothing of it is kept. */
export class TooLarge extends Error {}

export interface SaveStreamOptions {
  stream: Readable;
  /** An existing private folder (0700) the file is written into. */
  dir: string;
  maxBytes: number;
  /** The size the server announced, if any: over the limit fails before reading a byte. */
  contentLength?: number;
  /**
   * The final name in `dir`, chosen once the first bytes are known (they decide the type); with
   * `noReplace`, asked again with the names found taken so far.
   */
  name: (head: Buffer, taken: ReadonlySet<string>) => string;
  /** Never replace an existing file: hard-link under a free name instead of renaming. */
  noReplace?: boolean;
}

export interface SavedStream {
  path: string;
  size: number;
  /** The first bytes (at most `SNIFF_BYTES`). */
  head: Buffer;
}

/**
 * Streams `stream` into `dir` through a hidden 0600 temporary file, aborting as soon as it passes
 * `maxBytes` (`TooLarge`); on any failure the temporary file is deleted, so a file is either whole
 * or absent, never half-kept. The final step is a rename (replaces, never follows a planted
 * symlink) or, with `noReplace`, a hard link under a name nobody has (numbered on a collision).
 */
export async function saveStream(o: SaveStreamOptions): Promise<SavedStream> {
  if (o.contentLength !== undefined && o.contentLength > o.maxBytes) {
    o.stream.destroy();
    throw new TooLarge();
  }
  const tmp = path.join(o.dir, `.${randomBytes(8).toString('hex')}.part`);
  const file = await fs.open(tmp, 'wx', 0o600);
  let size = 0;
  let head = Buffer.alloc(0);
  try {
    for await (const chunk of o.stream as AsyncIterable<Buffer | string>) {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      size += bytes.length;
      if (size > o.maxBytes) throw new TooLarge();
      if (head.length < SNIFF_BYTES) head = Buffer.concat([head, bytes.subarray(0, SNIFF_BYTES - head.length)]);
      await file.write(bytes);
    }
    await file.close();
    const target = o.noReplace ? await linkFree(tmp, o.dir, head, o.name) : path.join(o.dir, o.name(head, new Set()));
    if (o.noReplace) await fs.rm(tmp, { force: true });
    else await fs.rename(tmp, target);
    return { path: target, size, head };
  } catch (err) {
    o.stream.destroy();
    await file.close().catch(() => undefined);
    await fs.rm(tmp, { force: true });
    throw err;
  }
}

async function linkFree(
  tmp: string,
  dir: string,
  head: Buffer,
  pick: (head: Buffer, taken: ReadonlySet<string>) => string,
): Promise<string> {
  const taken = new Set<string>();
  for (;;) {
    const name = pick(head, taken);
    const target = path.join(dir, name);
    try {
      await fs.link(tmp, target);
      return target;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST' || taken.has(name)) throw err;
      taken.add(name);
    }
  }
}
