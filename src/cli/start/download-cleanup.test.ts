import { mkdir, mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../core/logger.js';
import { startDownloadCleanup } from './download-cleanup.js';

let root: string | undefined;
afterEach(async () => {
  if (root) await rm(root, { recursive: true, force: true });
});

const until = async (check: () => Promise<boolean>): Promise<void> => {
  for (let i = 0; i < 200 && !(await check()); i++) await new Promise((r) => setTimeout(r, 10));
};

describe('startDownloadCleanup', () => {
  it('ages out images and attachments at start, each by its own setting, with no channel running', async () => {
    root = await mkdtemp(path.join(tmpdir(), 'ccl-dl-cleanup-'));
    const imagesDir = path.join(root, 'images');
    const attachmentsDir = path.join(root, 'attachments');
    await mkdir(path.join(attachmentsDir, 'web-1'), { recursive: true });
    await mkdir(imagesDir);
    const hoursAgo = (h: number) => new Date(Date.now() - h * 3600_000);
    await writeFile(path.join(imagesDir, 'telegram-old.jpg'), 'x');
    await utimes(path.join(imagesDir, 'telegram-old.jpg'), hoursAgo(3), hoursAgo(3));
    await writeFile(path.join(imagesDir, 'new.png'), 'x');
    await writeFile(path.join(attachmentsDir, 'web-1', 'report.pdf'), 'x');
    await utimes(path.join(attachmentsDir, 'web-1', 'report.pdf'), hoursAgo(3), hoursAgo(3));
    const stop = startDownloadCleanup({
      paths: { imagesDir, attachmentsDir },
      // Images after 2 h, files after 5 h: the 3-hour-old image goes, the 3-hour-old file stays.
      config: {
        images: { enabled: true, max_size_bytes: 1, cleanup_max_age_hours: 2 },
        files: { enabled: true, max_size_bytes: 1, cleanup_max_age_hours: 5, send_without_prompt: true },
      },
      logger: createLogger({ level: 'error' }),
    });
    try {
      await until(async () => !(await readdir(imagesDir)).includes('telegram-old.jpg'));
      expect(await readdir(imagesDir)).toEqual(['new.png']);
      expect(await readdir(path.join(attachmentsDir, 'web-1'))).toEqual(['report.pdf']);
    } finally {
      stop();
    }
  });
});
