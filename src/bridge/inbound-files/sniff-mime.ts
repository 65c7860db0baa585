/** How many first bytes `sniffMime` looks at (enough to find an Office file's folder names). */
export const SNIFF_BYTES = 4096;

const OFFICE: Array<[folder: string, mime: string]> = [
  ['word/', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
  ['xl/', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
  ['ppt/', 'application/vnd.openxmlformats-officedocument.presentationml.presentation'],
];

function startsWith(head: Buffer, ...bytes: number[]): boolean {
  return head.length >= bytes.length && bytes.every((b, i) => head[i] === b);
}

/** UTF-8 text without control characters other than tab, line breaks, form feed and escape. */
function isText(head: Buffer): boolean {
  if (head.length === 0) return false;
  // A multi-byte character may be cut at the end of the sample: drop up to 3 trailing bytes of it.
  let end = head.length;
  for (let i = 0; i < 3 && end > 0 && (head[end - 1]! & 0xc0) === 0x80; i++) end--;
  if (end > 0 && head[end - 1]! >= 0xc0) end--;
  const sample = head.subarray(0, end);
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(sample);
    return !/[\u0000-\u0008\u000b\u000e-\u001a\u001c-\u001f\u007f]/.test(text);
  } catch {
    return false;
  }
}

/**
 * The MIME type of a file from its first bytes (at most `SNIFF_BYTES`), never from its name:
 * PDF, the Office formats (a zip whose first entries name `word/`, `xl/` or `ppt/`), zip, PNG,
 * JPEG, GIF, WebP, gzip, UTF-8 text, else `application/octet-stream`.
 *
 * @example sniffMime(Buffer.from('%PDF-1.7\n…')) // 'application/pdf'
 */
export function sniffMime(head: Buffer): string {
  if (head.subarray(0, 5).toString('latin1') === '%PDF-') return 'application/pdf';
  if (startsWith(head, 0x50, 0x4b, 0x03, 0x04)) {
    const names = head.subarray(0, SNIFF_BYTES).toString('latin1');
    return OFFICE.find(([folder]) => names.includes(folder))?.[1] ?? 'application/zip';
  }
  if (startsWith(head, 0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'image/png';
  if (startsWith(head, 0xff, 0xd8, 0xff)) return 'image/jpeg';
  if (head.subarray(0, 4).toString('latin1') === 'GIF8') return 'image/gif';
  if (head.subarray(0, 4).toString('latin1') === 'RIFF' && head.subarray(8, 12).toString('latin1') === 'WEBP')
    return 'image/webp';
  if (startsWith(head, 0x1f, 0x8b)) return 'application/gzip';
  if (isText(head.subarray(0, SNIFF_BYTES))) return 'text/plain; charset=utf-8';
  return 'application/octet-stream';
}
