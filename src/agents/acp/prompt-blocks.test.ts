import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MAX_IMAGE_BYTES, promptBlocks, sniffImageType } from './prompt-blocks.js';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cc-linker-blocks-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const file = (name: string, bytes: number[] | Buffer): string => {
  const p = path.join(dir, name);
  fs.writeFileSync(p, Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes));
  return p;
};

describe('sniffImageType', () => {
  it('knows PNG, JPEG, GIF and WebP by their bytes', () => {
    expect(sniffImageType(Buffer.from(PNG))).toBe('image/png');
    expect(sniffImageType(Buffer.from([0xff, 0xd8, 0xff, 0xe0]))).toBe('image/jpeg');
    expect(sniffImageType(Buffer.from('GIF89a'))).toBe('image/gif');
    expect(sniffImageType(Buffer.from('RIFF\0\0\0\0WEBPVP8 '))).toBe('image/webp');
  });
  it('anything else (or too short) is not an image', () => {
    expect(sniffImageType(Buffer.from('RIFF\0\0\0\0WAVE'))).toBeNull();
    expect(sniffImageType(Buffer.from('hello'))).toBeNull();
    expect(sniffImageType(Buffer.from([0x89]))).toBeNull();
    expect(sniffImageType(Buffer.alloc(0))).toBeNull();
  });
});

describe('promptBlocks', () => {
  it('text only when there are no images', () => {
    expect(promptBlocks('hi', [], true)).toEqual([{ type: 'text', text: 'hi' }]);
  });
  it('images inline as base64 with the sniffed type, whatever the file name says', () => {
    const jpegNamedPng = file('a.png', [0xff, 0xd8, 0xff, 0xdb]);
    expect(promptBlocks('look', [jpegNamedPng], true)).toEqual([
      { type: 'text', text: 'look' },
      { type: 'image', mimeType: 'image/jpeg', data: Buffer.from([0xff, 0xd8, 0xff, 0xdb]).toString('base64') },
    ]);
  });
  it('names the files the agent cannot take: no capability, not an image, missing, too big', () => {
    const png = file('a.png', PNG);
    expect(promptBlocks('look', [png], false)).toEqual([{ type: 'text', text: `look\n\n[Attached files: ${png}]` }]);
    const txt = file('notes.txt', [0x68, 0x69]);
    const missing = path.join(dir, 'gone.png');
    const big = file('big.png', Buffer.concat([Buffer.from(PNG), Buffer.alloc(MAX_IMAGE_BYTES)]));
    const blocks = promptBlocks('look', [png, txt, missing, big], true);
    expect(blocks[0]).toEqual({ type: 'text', text: `look\n\n[Attached files: ${txt}, ${missing}, ${big}]` });
    expect(blocks.slice(1)).toEqual([
      { type: 'image', mimeType: 'image/png', data: Buffer.from(PNG).toString('base64') },
    ]);
  });
});
