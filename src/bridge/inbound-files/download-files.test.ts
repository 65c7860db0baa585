import { mkdir, mkdtemp, readdir, readFile, rm, stat, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { InboundFile, InboundMessage } from '../inbound-message.js';
import { silentLogger } from '../../core/logger.js';
import { inboundMessage } from '../../../test/fakes/inbound-message.js';
import { downloadFiles, type DownloadFilesOptions, type FileSource } from './download-files.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'cc-linker-files-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const message = (files: InboundFile[], text = 'read this'): InboundMessage => inboundMessage({ text, files });

const PDF = Buffer.from('%PDF-1.7\nhello\n');

function options(download: FileSource, maxBytes = 1_000, enabled = true): DownloadFilesOptions {
  return {
    download,
    attachmentsDir: path.join(dir, 'attachments'),
    files: { enabled, max_size_bytes: maxBytes, cleanup_max_age_hours: 24, send_without_prompt: true },
    lang: 'en',
    logger: silentLogger,
  };
}

/** Serves `bytes` in chunks of 100 without announcing a length (the cap must hold while streaming). */
const chunked =
  (bytes: Buffer): FileSource =>
  async () => {
    const parts: Buffer[] = [];
    for (let i = 0; i < bytes.length; i += 100) parts.push(bytes.subarray(i, i + 100));
    return { stream: Readable.from(parts) };
  };

describe('downloadFiles', () => {
  it('keeps a file in the message folder, 0600 in 0700, with its size and sniffed type', async () => {
    const out = await downloadFiles(message([{ key: 'file_1', name: 'report.txt' }]), options(chunked(PDF)));

    const file = out.message.files?.[0];
    expect(out.notice).toBeUndefined();
    expect(file).toMatchObject({ key: 'file_1', name: 'report.txt', size: PDF.length, mime: 'application/pdf' });
    expect(file?.localPath).toBe(path.join(dir, 'attachments', 'om_1', 'report.txt'));
    expect(await readFile(file?.localPath ?? '')).toEqual(PDF);
    expect((await stat(file?.localPath ?? '')).mode & 0o777).toBe(0o600);
    expect((await stat(path.join(dir, 'attachments', 'om_1'))).mode & 0o777).toBe(0o700);
  });

  it('stops a stream that passes the limit, keeps nothing of it, and says so; the others still come', async () => {
    const big = Buffer.alloc(5_000, 0x61);
    let read = 0;
    const source: FileSource = async (_m, key) => {
      if (key === 'file_ok') return chunked(PDF)('', key);
      // An endless stream: only the cap ends it.
      const stream = new Readable({
        read() {
          read += 100;
          this.push(big.subarray(0, 100));
        },
      });
      return { stream };
    };
    const files = [
      { key: 'file_big', name: 'huge.bin' },
      { key: 'file_ok', name: 'ok.pdf' },
    ];
    const out = await downloadFiles(message(files), options(source));

    // Endless: only the cap ends it (what was read is the stream's read-ahead buffer, not the whole).
    expect(read).toBeLessThan(100_000);
    expect(out.message.files?.[0]).toEqual({
      key: 'file_big',
      name: 'huge.bin',
      error: 'larger than the 1000 B limit, not kept',
    });
    expect(out.message.files?.[1]?.localPath).toBeDefined();
    expect(out.notice).toBe(
      'The file “huge.bin” was not received: larger than the 1000 B limit, not kept\nThe rest of your message is processed as usual.',
    );
    expect(await readdir(path.join(dir, 'attachments', 'om_1'))).toEqual(['ok.pdf']);
  });

  it('refuses at once a file whose announced length is over the limit', async () => {
    const stream = Readable.from([PDF]);
    const out = await downloadFiles(
      message([{ key: 'f', name: 'a.pdf' }], ''),
      options(async () => ({ stream, contentLength: 10_000 })),
    );
    expect(out.message.files?.[0]?.error).toContain('limit');
    expect(out.notice).toBe('The file “a.pdf” was not received: larger than the 1000 B limit, not kept');
    expect(stream.destroyed).toBe(true);
  });

  it('keeps hostile names inside the message folder and numbers collisions', async () => {
    const names = ['../../etc/passwd', 'a/b', '\u0000', 'same.txt', 'same.txt'];
    const files = names.map((name, i) => ({ key: `f${i}`, name }));
    const out = await downloadFiles(message(files), options(chunked(PDF)));

    const folder = path.join(dir, 'attachments', 'om_1');
    const paths = (out.message.files ?? []).map((f) => f.localPath ?? '');
    expect(paths.map((p) => path.dirname(p))).toEqual(names.map(() => folder));
    expect(paths.map((p) => path.basename(p))).toEqual(['_.._etc_passwd', 'a_b', '_', 'same.txt', 'same (2).txt']);
    expect(await readdir(path.join(dir, 'attachments'))).toEqual(['om_1']);
  });

  it('refuses a message folder planted as a symlink to elsewhere', async () => {
    const outside = await mkdtemp(path.join(tmpdir(), 'cc-linker-outside-'));
    try {
      const o = options(chunked(PDF));
      await downloadFiles(message([]), o);
      await rm(o.attachmentsDir, { recursive: true, force: true });
      await mkdir(o.attachmentsDir, { mode: 0o700 });
      await symlink(outside, path.join(o.attachmentsDir, 'om_1'));
      const out = await downloadFiles(message([{ key: 'f', name: 'x.txt' }]), o);
      expect(out.message.files?.[0]?.localPath).toBeUndefined();
      expect(out.message.files?.[0]?.error).toBe('download error, please send it again');
      expect(await readdir(outside)).toEqual([]);
    } finally {
      await rm(outside, { recursive: true, force: true });
    }
  });

  it('with files off downloads nothing and says so; an already prepared file is left as it is', async () => {
    let calls = 0;
    const source: FileSource = async () => {
      calls += 1;
      return { stream: Readable.from([PDF]) };
    };
    const done = { key: 'f0', name: 'done.pdf', localPath: '/x/done.pdf', size: 1 };
    const out = await downloadFiles(message([done, { key: 'f1', name: 'b.pdf' }]), options(source, 1_000, false));
    expect(calls).toBe(0);
    expect(out.message.files).toEqual([
      done,
      { key: 'f1', name: 'b.pdf', error: 'file handling is off (files.enabled = false)' },
    ]);
  });
});
