/** Longest name kept, in UTF-8 bytes (file systems allow 255; room is left for ` (99)`). */
const MAX_NAME_BYTES = 200;

function cutToBytes(s: string, max: number): string {
  let out = '';
  for (const ch of s) {
    if (Buffer.byteLength(out + ch) > max) break;
    out += ch;
  }
  return out;
}

/**
 * A name the user sent made safe as ONE file name inside a folder of ours: path separators,
 * control characters and other characters file systems refuse become `_`, leading dots and
 * spaces go (no hidden files, no `..`), the length is capped at 200 UTF-8 bytes keeping a short
 * extension, and an empty result becomes `file`. `taken` (names already used in the folder) gives
 * a numbered name on a collision: `a.pdf`, `a (2).pdf`, …
 *
 * @example sanitizeFileName('../../etc/passwd') // '_.._etc_passwd'
 */
export function sanitizeFileName(name: string, taken: ReadonlySet<string> = new Set()): string {
  let clean = name
    .normalize('NFC')
    .replace(/[\u0000-\u001f\u007f/\\:*?"<>|]/g, '_')
    .replace(/^[.\s]+/, '')
    .replace(/[.\s]+$/, '');
  if (clean === '') clean = 'file';
  const dot = clean.lastIndexOf('.');
  const ext = dot > 0 && clean.length - dot <= 16 ? clean.slice(dot) : '';
  const stem = ext ? clean.slice(0, dot) : clean;
  const fit = (suffix: string): string =>
    `${cutToBytes(stem, MAX_NAME_BYTES - Buffer.byteLength(suffix + ext))}${suffix}${ext}`;
  let candidate = fit('');
  for (let n = 2; taken.has(candidate); n++) candidate = fit(` (${n})`);
  return candidate;
}

/** An id (a message id, a platform key) as part of a file or folder name: `[A-Za-z0-9_-]`, ≤ 100 characters. */
export function safeNamePart(id: string): string {
  return id.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 100);
}
