import { constants as fsConstants } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { expandHome } from '../../core/expand-home.js';
import type { Language } from '../../core/i18n.js';
import { isInside } from '../../core/path-inside.js';
import { tildify } from '../../core/tildify.js';
import { checkWorkingDirectory, describeRoots } from '../commands/dir-safety.js';
import type { FileReply } from '../reply-model.js';
import { formatBytes } from '../../core/format-bytes.js';
import { fileMessages } from './file-messages.js';
import { sniffMime } from './sniff-mime.js';

/** Why a file was not sent. */
export type SendFileRefusalCode =
  | 'invalid'
  | 'not-found'
  | 'outside-session'
  | 'outside-allowed'
  | 'denied'
  | 'not-regular'
  | 'empty'
  | 'too-large'
  | 'unreadable';

export type SendFileCheck = { ok: true; file: FileReply } | { ok: false; code: SendFileRefusalCode; message: string };

/** The fence of one turn: its session's directory and attachments, the config's roots and limit. */
export interface SendFilePolicy {
  /** The session's working directory (relative paths resolve against it). */
  cwd: string;
  /** Directories of the files that came with the turn's message (downloaded attachments). */
  attachmentDirs: string[];
  allowedRoots: string[];
  deniedRoots: string[];
  home: string;
  /** `files.max_size_bytes`. */
  maxSizeBytes: number;
  lang: Language;
}

const SNIFF_BYTES = 64;

/**
 * Decides whether the agent may send `input` into the chat (docs/design.md#files-out):
 * 1. `~` expanded, relative paths resolved against the session's cwd, then `fs.realpath`: a `..`
 *    or a symlink is judged by where it really lands;
 * 2. the real path lies inside the real cwd or one of the turn's attachment directories;
 * 3. a file of the cwd also passes the directory fence of /new (`security.allowed_roots` /
 *    `denied_roots`, checked on its real parent directory); attachments are cc-linker's own copies;
 * 4. `lstat` says a regular file — a FIFO, socket, device or directory is refused without being
 *    opened; not empty, not over `maxSizeBytes` (a sparse file counts its apparent size);
 * 5. opened with `O_NONBLOCK | O_NOFOLLOW` and checked again through the descriptor (same inode,
 *    still regular), its first bytes read for the MIME type.
 * A missing path outside the session is reported as `outside-session`, not `not-found`, so the
 * check does not reveal what exists elsewhere.
 */
export async function checkSendFile(input: string, p: SendFilePolicy): Promise<SendFileCheck> {
  const t = fileMessages(p.lang);
  const raw = input.trim();
  const shownRaw = raw.slice(0, 200);
  if (!raw || raw.includes('\0')) return refuse('invalid', t('invalid', { path: shownRaw }));
  const cwd = await realOrResolved(expandHome(p.cwd, p.home));
  const resolved = path.resolve(cwd, expandHome(raw, p.home));
  const shown = tildify(resolved, p.home);
  const dirs = [cwd, ...(await Promise.all(p.attachmentDirs.map(realOrResolved)))];
  const outside = () => refuse('outside-session', t('outsideSession', { path: shown, cwd: tildify(cwd, p.home) }));

  let real: string;
  try {
    real = await fs.realpath(resolved);
  } catch (err) {
    if (!dirs.some((d) => isInside(resolved, d))) return outside();
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return refuse('not-found', t('notFound', { path: shown }));
    return refuse('unreadable', t('unreadable', { path: shown, reason: code ?? 'error' }));
  }
  if (!dirs.some((d) => isInside(real, d))) return outside();
  if (isInside(real, cwd)) {
    const fence = await checkWorkingDirectory(path.dirname(real), {
      allowedRoots: p.allowedRoots,
      deniedRoots: p.deniedRoots,
      home: p.home,
      lang: p.lang,
    });
    if (!fence.ok && fence.code === 'denied') return refuse('denied', t('denied', { path: shown }));
    if (!fence.ok) {
      const roots = describeRoots(p.allowedRoots, p.home, '*');
      return refuse('outside-allowed', t('outsideAllowed', { path: shown, roots }));
    }
  }

  const stat = await fs.lstat(real).catch((err: NodeJS.ErrnoException) => err);
  if (stat instanceof Error)
    return refuse('unreadable', t('unreadable', { path: shown, reason: stat.code ?? 'error' }));
  if (!stat.isFile()) return refuse('not-regular', t('notRegular', { path: shown }));
  if (stat.size === 0) return refuse('empty', t('empty', { path: shown }));
  if (stat.size > p.maxSizeBytes) return tooLarge(shown, stat.size, p);

  let head: Buffer;
  let size: number;
  try {
    const handle = await fs.open(real, fsConstants.O_RDONLY | fsConstants.O_NONBLOCK | fsConstants.O_NOFOLLOW);
    try {
      const again = await handle.stat();
      if (!again.isFile() || again.ino !== stat.ino || again.dev !== stat.dev)
        return refuse('not-regular', t('notRegular', { path: shown }));
      size = again.size;
      if (size === 0) return refuse('empty', t('empty', { path: shown }));
      if (size > p.maxSizeBytes) return tooLarge(shown, size, p);
      head = Buffer.alloc(Math.min(SNIFF_BYTES, size));
      await handle.read(head, 0, head.length, 0);
    } finally {
      await handle.close();
    }
  } catch (err) {
    return refuse(
      'unreadable',
      t('unreadable', { path: shown, reason: (err as NodeJS.ErrnoException).code ?? 'error' }),
    );
  }
  const name = path.basename(real);
  const { mime, image } = sniffMime(head, name);
  return { ok: true, file: { kind: 'file', path: real, name, mime, size, image } };
}

function tooLarge(shown: string, size: number, p: SendFilePolicy): SendFileCheck {
  const t = fileMessages(p.lang);
  return refuse(
    'too-large',
    t('tooLarge', { path: shown, size: formatBytes(size), limit: formatBytes(p.maxSizeBytes) }),
  );
}

async function realOrResolved(p: string): Promise<string> {
  try {
    return await fs.realpath(path.resolve(p));
  } catch {
    return path.resolve(p);
  }
}

function refuse(code: SendFileRefusalCode, message: string): SendFileCheck {
  return { ok: false, code, message };
}
