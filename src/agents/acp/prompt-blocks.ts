import fs from 'node:fs';

/** Largest image sent inline (base64 grows it by a third); a bigger one is named by path instead. */
export const MAX_IMAGE_BYTES = 10 * 1024 * 1024;

/** An ACP prompt content block we send: text or an inline image. */
export type PromptBlock = { type: 'text'; text: string } | { type: 'image'; data: string; mimeType: string };

/**
 * The image type from the file's first bytes (PNG, JPEG, GIF, WebP), or null. The bytes decide,
 * not the file name: a channel may save a JPEG as `.png`.
 */
export function sniffImageType(bytes: Uint8Array): string | null {
  const starts = (...sig: number[]): boolean => sig.every((b, i) => bytes[i] === b);
  if (starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'image/png';
  if (starts(0xff, 0xd8, 0xff)) return 'image/jpeg';
  if (starts(0x47, 0x49, 0x46, 0x38)) return 'image/gif';
  if (starts(0x52, 0x49, 0x46, 0x46) && bytes.length >= 12) {
    const tag = String.fromCharCode(...bytes.subarray(8, 12));
    if (tag === 'WEBP') return 'image/webp';
  }
  return null;
}

/**
 * The `session/prompt` content: the text, then one image block per readable image when the agent
 * accepts images (`promptCapabilities.image`). Images the agent cannot take (no capability, an
 * unknown type, unreadable, larger than `MAX_IMAGE_BYTES`) are named by path at the end of the
 * text instead, so the agent can still open them with its own tools.
 *
 * @example promptBlocks('what is this?', ['/tmp/a.png'], true) // [{type:'text',…}, {type:'image', mimeType:'image/png', data:'iVBOR…'}]
 */
export function promptBlocks(text: string, imagePaths: readonly string[], acceptsImages: boolean): PromptBlock[] {
  const images: PromptBlock[] = [];
  const named: string[] = [];
  for (const file of imagePaths) {
    if (!acceptsImages) {
      named.push(file);
      continue;
    }
    let bytes: Buffer;
    try {
      if (fs.statSync(file).size > MAX_IMAGE_BYTES) {
        named.push(file);
        continue;
      }
      bytes = fs.readFileSync(file);
    } catch {
      named.push(file);
      continue;
    }
    const mimeType = sniffImageType(bytes);
    if (!mimeType) {
      named.push(file);
      continue;
    }
    images.push({ type: 'image', data: bytes.toString('base64'), mimeType });
  }
  const note = named.length > 0 ? `\n\n[Attached files: ${named.join(', ')}]` : '';
  return [{ type: 'text', text: `${text}${note}` }, ...images];
}
