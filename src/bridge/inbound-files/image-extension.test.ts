import { describe, expect, it } from 'vitest';
import { imageExtension } from './image-extension.js';

describe('imageExtension', () => {
  it('prefers the content type, then the signature', () => {
    expect(imageExtension('image/webp; charset=binary', Buffer.alloc(0))).toBe('.webp');
    expect(imageExtension(undefined, Buffer.from('GIF89a'))).toBe('.gif');
    expect(imageExtension('application/octet-stream', Buffer.from([0x89, 0x50, 0x4e, 0x47]))).toBe('.png');
    expect(imageExtension(undefined, Buffer.from('????'))).toBe('.bin');
  });
});
