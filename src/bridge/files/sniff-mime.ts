/**
 * The MIME type of a file from its first bytes (at least 16), falling back to its extension for
 * the formats that have no magic number. `image` is true only for the picture formats a chat can
 * show inline (PNG, JPEG, GIF, WebP, BMP, TIFF, ICO): a file NAMED `.png` that is not one is sent
 * as a file, never as an image.
 *
 * @example sniffMime(Buffer.from('%PDF-1.7'), 'a.pdf') // { mime: 'application/pdf', image: false }
 */
export function sniffMime(head: Uint8Array, name: string): { mime: string; image: boolean } {
  const b = Buffer.from(head.buffer, head.byteOffset, head.byteLength);
  const starts = (bytes: number[], at = 0): boolean => bytes.every((v, i) => b[at + i] === v);
  const ascii = (text: string, at = 0): boolean => b.toString('latin1', at, at + text.length) === text;
  const image = (mime: string) => ({ mime, image: true });
  if (starts([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return image('image/png');
  if (starts([0xff, 0xd8, 0xff])) return image('image/jpeg');
  if (ascii('GIF87a') || ascii('GIF89a')) return image('image/gif');
  if (ascii('RIFF') && ascii('WEBP', 8)) return image('image/webp');
  if (ascii('BM') && b.length >= 14) return image('image/bmp');
  if (starts([0x49, 0x49, 0x2a, 0x00]) || starts([0x4d, 0x4d, 0x00, 0x2a])) return image('image/tiff');
  if (starts([0x00, 0x00, 0x01, 0x00])) return image('image/x-icon');
  const ext = name.toLowerCase().split('.').pop() ?? '';
  const file = (mime: string) => ({ mime, image: false });
  if (ascii('%PDF-')) return file('application/pdf');
  if (ascii('OggS')) return file(ext === 'opus' ? 'audio/opus' : 'audio/ogg');
  if (ascii('ftyp', 4)) return file('video/mp4');
  if (starts([0x50, 0x4b, 0x03, 0x04])) return file(OFFICE_ZIP[ext] ?? 'application/zip');
  if (starts([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]))
    return file(OFFICE_OLE[ext] ?? 'application/x-ole-storage');
  return file(TEXT_EXT.has(ext) ? 'text/plain' : 'application/octet-stream');
}

const OFFICE_ZIP: Record<string, string> = {
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
};
const OFFICE_OLE: Record<string, string> = {
  doc: 'application/msword',
  xls: 'application/vnd.ms-excel',
  ppt: 'application/vnd.ms-powerpoint',
};
const TEXT_EXT = new Set([
  'txt',
  'md',
  'csv',
  'log',
  'json',
  'yaml',
  'yml',
  'toml',
  'ts',
  'js',
  'py',
  'sh',
  'html',
  'css',
]);
