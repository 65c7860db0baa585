const SIGNATURES: Array<[ext: string, test: (b: Buffer) => boolean]> = [
  ['.png', (b) => b.subarray(0, 4).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47]))],
  ['.jpg', (b) => b.subarray(0, 3).equals(Buffer.from([0xff, 0xd8, 0xff]))],
  ['.gif', (b) => b.subarray(0, 4).toString('latin1') === 'GIF8'],
  ['.webp', (b) => b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP'],
  ['.bmp', (b) => b.subarray(0, 2).toString('latin1') === 'BM'],
];

const BY_TYPE: Readonly<Record<string, string>> = {
  'image/png': '.png',
  'image/jpeg': '.jpg',
  'image/jpg': '.jpg',
  'image/gif': '.gif',
  'image/webp': '.webp',
  'image/bmp': '.bmp',
  'image/heic': '.heic',
  'image/tiff': '.tiff',
};

/** File extension from the Content-Type, else from the first bytes, else `.bin`. */
export function imageExtension(contentType: string | undefined, head: Buffer): string {
  const type = contentType?.split(';')[0]?.trim().toLowerCase();
  const byType = type === undefined ? undefined : BY_TYPE[type];
  return byType ?? SIGNATURES.find(([, test]) => test(head))?.[0] ?? '.bin';
}
