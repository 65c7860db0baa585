import fs from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { InboundFile, InboundMessage } from '../inbound-message.js';
import { isAppError } from '../../core/app-error.js';
import type { Config } from '../../core/config-schema.js';
import type { Language } from '../../core/i18n.js';
import type { Logger } from '../../core/logger.js';
import { isInside } from '../../core/path-inside.js';
import { makePrivateDir } from '../../core/private-dir.js';
import { formatBytes } from '../../core/format-bytes.js';
import { inboundFilesMessages } from './inbound-files-messages.js';
import { safeNamePart, sanitizeFileName } from './sanitize-file-name.js';
import { saveStream, TooLarge } from './save-stream.js';
import { sniffMime } from './sniff-mime.js';

/**
 * Opens the bytes of file `key` of message `messageId` (the platform message id), with the
 * length when the platform announces one. A file the platform already knows to be larger than
 * the limit may throw `TooLarge` before any byte is read.
 */
export type FileSource = (messageId: string, key: string) => Promise<{ stream: Readable; contentLength?: number }>;

export interface DownloadFilesOptions {
  download: FileSource;
  /** `~/.cc-linker/attachments` (created 0700); each message gets a 0700 folder of its own. */
  attachmentsDir: string;
  files: Config['files'];
  lang: Language;
  logger: Logger;
}

/** What `downloadFiles` gives back: the message with its files prepared, and a notice for the user. */
export interface DownloadedFiles {
  message: InboundMessage;
  /** One line per file that could not be kept (zh/en), or undefined when all were kept. */
  notice?: string;
}

/**
 * The message's own folder, `<attachmentsDir>/<message id>` (0700), checked with realpath to lie
 * inside the attachments folder (a symlink planted in its place is refused).
 */
async function messageFolder(root: string, messageId: string): Promise<string> {
  await makePrivateDir(root);
  const realRoot = await fs.realpath(root);
  const dir = path.join(realRoot, safeNamePart(messageId) || 'message');
  await makePrivateDir(dir);
  const real = await fs.realpath(dir);
  if (real === realRoot || !isInside(real, realRoot)) throw new Error(`attachment folder escapes ${realRoot}: ${real}`);
  return real;
}

async function downloadOne(
  o: DownloadFilesOptions,
  dir: string,
  messageId: string,
  file: InboundFile,
): Promise<InboundFile> {
  const { stream, contentLength } = await o.download(messageId, file.key);
  const saved = await saveStream({
    stream,
    dir,
    maxBytes: o.files.max_size_bytes,
    ...(contentLength === undefined ? {} : { contentLength }),
    name: (_head, taken) => sanitizeFileName(file.name, taken),
    noReplace: true,
  });
  const real = await fs.realpath(saved.path);
  if (path.dirname(real) !== dir) {
    await fs.rm(saved.path, { force: true });
    throw new Error(`attachment escapes ${dir}: ${real}`);
  }
  return { ...file, localPath: real, size: saved.size, mime: sniffMime(saved.head) };
}

/**
 * `Channel.prepare` for files: downloads each file of `message` not yet prepared into the
 * message's own folder under `attachmentsDir` (at most `files.max_size_bytes` each, streamed, a
 * too-large file deleted), under its sanitised name, with its MIME type sniffed from its bytes.
 * A file that cannot be kept (too large, failed, files off) keeps no `localPath` but an `error`,
 * and one line of the returned `notice` names it; the rest of the message still runs. Never throws.
 */
export async function downloadFiles(message: InboundMessage, o: DownloadFilesOptions): Promise<DownloadedFiles> {
  const pending = message.files ?? [];
  if (pending.length === 0) return { message };
  const t = inboundFilesMessages(o.lang);
  const lines: string[] = [];
  const files: InboundFile[] = [];
  let dir: string | undefined;
  for (const file of pending) {
    if (file.localPath || file.error) {
      files.push(file);
      continue;
    }
    let error: string;
    if (!o.files.enabled) {
      error = t('fileDisabled');
    } else {
      try {
        dir ??= await messageFolder(o.attachmentsDir, message.platformMessageId);
        files.push(await downloadOne(o, dir, message.platformMessageId, file));
        continue;
      } catch (err) {
        if (err instanceof TooLarge) {
          error = t('fileTooLarge', { size: formatBytes(o.files.max_size_bytes) });
        } else if (isAppError(err) && err.code !== 'INTERNAL') {
          // The platform's own reason (e.g. a file it will not hand to bots), already worded for the user.
          error = err.localize(o.lang);
        } else {
          error = t('fileDownloadError');
          o.logger.warn('file download failed', { messageId: message.id, key: file.key, err });
        }
      }
    }
    files.push({ ...file, error });
    lines.push(t('fileFailed', { name: file.name, reason: error }));
  }
  const rest = message.text.trim() !== '' || message.images.length > 0 || files.some((f) => f.localPath);
  if (lines.length > 0 && rest) lines.push(t('fileRestRuns'));
  return { message: { ...message, files }, ...(lines.length > 0 ? { notice: lines.join('\n') } : {}) };
}
