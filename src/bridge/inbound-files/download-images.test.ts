import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { InboundMessage } from '../inbound-message.js';
import { silentLogger } from '../../core/logger.js';
import { inboundMessage } from '../../../test/fakes/inbound-message.js';
import { downloadImages, type DownloadImagesOptions } from './download-images.js';
import { safeNamePart } from './sanitize-file-name.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'cc-linker-images-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const message = (keys: string[], text = 'look'): InboundMessage =>
  inboundMessage({ text, images: keys.map((key) => ({ key })) });

function options(
  open: DownloadImagesOptions['open'],
  over: Partial<DownloadImagesOptions['images']> = {},
  extra: Partial<DownloadImagesOptions> = {},
): DownloadImagesOptions {
  return {
    open,
    ...extra,
    imagesDir: path.join(dir, 'images'),
    images: { enabled: true, max_size_bytes: 1_000, cleanup_max_age_hours: 24, ...over },
    lang: 'en',
    logger: silentLogger,
  };
}

describe('downloadImages', () => {
  it('stops reading an oversized stream early and leaves no file behind', async () => {
    let pulled = 0;
    const endless = new Readable({
      read() {
        pulled += 1;
        this.push(Buffer.alloc(400, 1));
      },
    });
    const out = await downloadImages(
      message(['img_big']),
      options(async () => ({ stream: endless })),
    );
    expect(out.images).toEqual([{ key: 'img_big' }]);
    expect(out.text).toBe('look\n[Image 1 could not be downloaded: larger than the 1000 B limit]');
    expect(pulled).toBeLessThan(100); // one read-ahead buffer (16 KB), not the endless stream
    expect(endless.destroyed).toBe(true);
    expect(await readdir(path.join(dir, 'images'))).toEqual([]);
  });

  it('refuses by Content-Length before reading a byte', async () => {
    const stream = Readable.from([Buffer.alloc(10)]);
    const out = await downloadImages(
      message(['img_big']),
      options(async () => ({ stream, contentLength: 5_000 })),
    );
    expect(out.images[0]?.localPath).toBeUndefined();
    expect(stream.destroyed).toBe(true);
  });

  it('keeps going after one failure; names files by the channel, or as the channel asks', async () => {
    const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3]);
    const open = async (key: string) => {
      if (key === 'img_bad') throw new Error('HTTP 400');
      return { stream: Readable.from([jpeg]), contentType: 'application/octet-stream' };
    };
    const out = await downloadImages(
      message(['img_bad', 'img/../ok'], ''),
      options(open, {}, { baseName: (key) => `om_1_${safeNamePart(key)}` }),
    );
    expect(out.images[0]).toEqual({ key: 'img_bad' });
    expect(path.basename(out.images[1]?.localPath ?? '')).toBe('om_1_img____ok.jpg');
    expect(out.text).toBe('[Image 1 could not be downloaded: download error]');
    const plain = await downloadImages(message(['img_2']), options(open));
    expect(path.basename(plain.images[0]?.localPath ?? '')).toMatch(/^feishu-\d+-[0-9a-f]{12}\.jpg$/);
  });

  it('with requireImageBytes, keeps nothing that is not an image by its bytes, whatever the server said', async () => {
    const out = await downloadImages(
      message(['f_1']),
      options(
        async () => ({ stream: Readable.from([Buffer.from('%PDF-1.7')]), contentType: 'image/png' }),
        {},
        {
          requireImageBytes: true,
        },
      ),
    );
    expect(out.images).toEqual([{ key: 'f_1' }]);
    expect(out.text).toBe('look\n[Image 1 could not be downloaded: download error]');
    expect(await readdir(path.join(dir, 'images'))).toEqual([]);
  });

  it('downloads nothing when images are disabled, and says so', async () => {
    let called = false;
    const out = await downloadImages(
      message(['img_1']),
      options(
        async () => {
          called = true;
          return { stream: Readable.from([]) };
        },
        { enabled: false },
      ),
    );
    expect(called).toBe(false);
    expect(out.text).toContain('image handling is off');
  });
});
