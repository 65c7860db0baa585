import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeAll, writeAllSync, type WritableHandle } from './write-all.js';

/** Texts whose UTF-8 differs from their UTF-16 length in every way: ASCII, CJK (3 bytes), an emoji (a surrogate pair, 4 bytes). */
const TEXTS = [
  '',
  '{"a":1}\n',
  '为什么 README 没有更新？',
  'emoji 🎉 at the end 🎉',
  `${'{"title":"标题 🎉","n":1}\n'.repeat(80_000)}`,
];

describe('writeAll / writeAllSync', () => {
  let tmp: string;
  beforeEach(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cc-store-wa-'));
  });
  afterEach(() => {
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('writes exactly the UTF-8 bytes of a string, or the bytes given (a 2 MB text included)', async () => {
    for (const [i, text] of TEXTS.entries()) {
      for (const data of [text, Buffer.from(text)]) {
        const file = path.join(tmp, `a${i}`);
        const handle = await fs.promises.open(file, 'w');
        await writeAll(handle, data);
        await handle.close();
        expect(fs.readFileSync(file).equals(Buffer.from(text))).toBe(true);
        const fd = fs.openSync(`${file}.sync`, 'w');
        writeAllSync(fd, data);
        fs.closeSync(fd);
        expect(fs.readFileSync(`${file}.sync`).equals(Buffer.from(text))).toBe(true);
      }
    }
  });

  it('finishes a short write from the bytes, even when the kernel stopped inside a character', async () => {
    const text = 'ab为c🎉d';
    for (const taken of [0, 1, 3, 4, 7, 9]) {
      // a handle whose kernel takes only `taken` bytes of the first write
      const got: Buffer[] = [];
      const handle: WritableHandle = {
        write: (async (s: string) => {
          got.push(Buffer.from(s).subarray(0, taken));
          return { bytesWritten: taken, buffer: s };
        }) as unknown as WritableHandle['write'],
        writeFile: (async (rest: Uint8Array) => {
          got.push(Buffer.from(rest));
        }) as unknown as WritableHandle['writeFile'],
      };
      await writeAll(handle, text);
      expect(Buffer.concat(got).toString('utf8'), `taken ${taken}`).toBe(text);

      const file = path.join(tmp, `short${taken}`);
      const fd = fs.openSync(file, 'w');
      writeAllSync(fd, text, ((f: number, s: string) =>
        fs.writeSync(f, Buffer.from(s).subarray(0, taken))) as typeof fs.writeSync);
      fs.closeSync(fd);
      expect(fs.readFileSync(file, 'utf8'), `sync, taken ${taken}`).toBe(text);
    }
  });
});
