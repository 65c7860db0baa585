import { constants, type ReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { isInside } from '../core/path-inside.js';

/**
 * The path policy a caller enforces (the console passes `checkWorkingDirectory`, the same
 * allowed/denied-roots check the directory picker uses): the real path of an allowed directory,
 * or a refusal with its message.
 */
export type DirCheck = (
  dir: string,
) => Promise<{ ok: true; realPath: string } | { ok: false; code: string; message: string }>;

/** Why a path was refused (the API turns each into a status and a zh/en message). */
export type BrowseRefusal = 'invalid' | 'not-found' | 'outside' | 'denied' | 'special' | 'git-internal';

/** A refusal of `browseFiles`/`openRawFile`; `message` is the policy's own text when it has one. */
export class BrowseError extends Error {
  constructor(
    readonly code: BrowseRefusal,
    message: string = code,
  ) {
    super(message);
    this.name = 'BrowseError';
  }
}

/** One entry of a listing. A symlink is shown as what it points to (`link: true`), never followed here. */
export interface BrowseEntry {
  name: string;
  kind: 'dir' | 'file' | 'other';
  link: boolean;
  size: number;
}

/** A directory, a text file, or a file offered as a download (binary, or over the text cap). */
export type BrowseResult =
  | { kind: 'dir'; path: string; entries: BrowseEntry[]; more: number }
  | { kind: 'text'; path: string; size: number; text: string }
  | { kind: 'download'; path: string; size: number; reason: 'binary' | 'large' };

/** Largest file returned as text; entries one listing shows; bytes sniffed for NULs. */
export const MAX_TEXT_BYTES = 256 * 1024;
export const MAX_ENTRIES = 1000;
const SNIFF_BYTES = 8000;
const collator = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });

/** The real, policy-checked path of `rel` inside the session's directory `root`, and what it is. */
interface Resolved {
  real: string;
  rel: string;
  stat: import('node:fs').Stats;
}

/**
 * Lists a directory or reads a text file at `rel` (a `/`-separated path, `''` for the top) inside
 * the session's directory, which must itself pass `check`. Every path is resolved through symlinks
 * before it is judged: it must stay inside the session's directory and pass `check` (a file: its
 * directory); `..` is refused outright, and so are FIFOs, devices and sockets (never opened).
 * `.git` is listed but not entered. A file over `MAX_TEXT_BYTES`, or with a NUL byte in its first
 * bytes, or not UTF-8, comes back as a download.
 *
 * @throws BrowseError
 */
export async function browseFiles(root: string, rel: string, check: DirCheck): Promise<BrowseResult> {
  const r = await resolveInside(root, rel, check);
  if (r.stat.isDirectory()) return listDir(r);
  if (r.stat.size > MAX_TEXT_BYTES) return { kind: 'download', path: r.rel, size: r.stat.size, reason: 'large' };
  const fh = await openChecked(r);
  try {
    const buf = Buffer.alloc(r.stat.size);
    const { bytesRead } = await fh.read(buf, 0, buf.length, 0);
    const bytes = buf.subarray(0, bytesRead);
    if (bytes.subarray(0, SNIFF_BYTES).includes(0))
      return { kind: 'download', path: r.rel, size: r.stat.size, reason: 'binary' };
    try {
      return {
        kind: 'text',
        path: r.rel,
        size: r.stat.size,
        text: new TextDecoder('utf-8', { fatal: true }).decode(bytes),
      };
    } catch {
      return { kind: 'download', path: r.rel, size: r.stat.size, reason: 'binary' };
    }
  } finally {
    await fh.close();
  }
}

/**
 * A regular file inside the session's directory, opened for download (same checks as
 * `browseFiles`); the caller pipes `stream` and it closes itself.
 *
 * @throws BrowseError
 */
export async function openRawFile(
  root: string,
  rel: string,
  check: DirCheck,
): Promise<{ name: string; size: number; stream: ReadStream }> {
  const r = await resolveInside(root, rel, check);
  if (!r.stat.isFile()) throw new BrowseError('special');
  const fh = await openChecked(r);
  return { name: path.basename(r.real), size: r.stat.size, stream: fh.createReadStream({ autoClose: true }) };
}

async function resolveInside(root: string, rel: string, check: DirCheck): Promise<Resolved> {
  if (rel.includes('\0') || rel.includes('\\') || rel.startsWith('/')) throw new BrowseError('invalid');
  const parts = rel.split('/').filter((p) => p !== '' && p !== '.');
  if (parts.includes('..')) throw new BrowseError('invalid');
  const top = await check(root);
  if (!top.ok) throw new BrowseError('denied', top.message);
  let real: string;
  try {
    real = await fs.realpath(path.join(top.realPath, ...parts));
  } catch {
    throw new BrowseError('not-found');
  }
  if (!isInside(real, top.realPath)) throw new BrowseError('outside');
  const inner = path.relative(top.realPath, real);
  if (inner.split(path.sep).includes('.git')) throw new BrowseError('git-internal');
  // After realpath the path names no symlink, so lstat describes the file itself without opening it.
  const stat = await fs.lstat(real).catch(() => null);
  if (!stat) throw new BrowseError('not-found');
  if (!stat.isDirectory() && !stat.isFile()) throw new BrowseError('special');
  const verdict = await check(stat.isDirectory() ? real : path.dirname(real));
  if (!verdict.ok) throw new BrowseError('denied', verdict.message);
  return { real, rel: inner.split(path.sep).join('/'), stat };
}

/** Opens without following a symlink or blocking on a FIFO, and checks it is still the file that was judged. */
async function openChecked(r: Resolved): Promise<fs.FileHandle> {
  let fh: fs.FileHandle;
  try {
    fh = await fs.open(r.real, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch {
    throw new BrowseError('not-found');
  }
  const now = await fh.stat();
  if (!now.isFile() || now.ino !== r.stat.ino || now.dev !== r.stat.dev) {
    await fh.close();
    throw new BrowseError('special');
  }
  return fh;
}

async function listDir(r: Resolved): Promise<BrowseResult> {
  const dirents = await fs.readdir(r.real, { withFileTypes: true });
  const entries: BrowseEntry[] = [];
  for (const d of dirents) {
    const full = path.join(r.real, d.name);
    const link = d.isSymbolicLink();
    const st = await (link ? fs.stat(full) : fs.lstat(full)).catch(() => null);
    const kind = st?.isDirectory() ? 'dir' : st?.isFile() ? 'file' : 'other';
    entries.push({ name: d.name, kind, link, size: kind === 'file' ? (st?.size ?? 0) : 0 });
  }
  entries.sort((a, b) => Number(b.kind === 'dir') - Number(a.kind === 'dir') || collator.compare(a.name, b.name));
  return {
    kind: 'dir',
    path: r.rel,
    entries: entries.slice(0, MAX_ENTRIES),
    more: Math.max(0, entries.length - MAX_ENTRIES),
  };
}
