import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeFileAtomic, writeFileAtomicSync } from './atomic-write.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '../..');
const modeOf = (p: string) => fs.statSync(p).mode & 0o777;

describe('writeFileAtomic', () => {
  let tmp: string;
  beforeEach(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cc-store-aw-'));
  });
  afterEach(() => {
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('writes 0600 by default, creates a missing parent 0700, and replaces old content', async () => {
    const file = path.join(tmp, 'home', 'runtime', 'state.json');
    await writeFileAtomic(file, '{"a":1}');
    expect(fs.readFileSync(file, 'utf8')).toBe('{"a":1}');
    expect(modeOf(file)).toBe(0o600);
    expect(modeOf(path.dirname(file))).toBe(0o700);
    expect(modeOf(path.join(tmp, 'home'))).toBe(0o700);
    await writeFileAtomic(file, new TextEncoder().encode('{"a":2}'));
    expect(fs.readFileSync(file, 'utf8')).toBe('{"a":2}');
    expect(fs.readdirSync(path.dirname(file))).toEqual(['state.json']);
  });

  it('writes strings as UTF-8 exactly as Buffer.from does (CJK, emoji, lone surrogates, empty, large)', async () => {
    const texts = [
      '',
      'ascii',
      '为什么 完成。',
      '😀 𝒳',
      'lone \ud800 and \udc00 halves',
      `${'项目'.repeat(300_000)}end`,
    ];
    for (const [i, text] of texts.entries()) {
      const a = path.join(tmp, `a${i}.txt`);
      const b = path.join(tmp, `b${i}.txt`);
      await writeFileAtomic(a, text);
      writeFileAtomicSync(b, text);
      expect(fs.readFileSync(a).equals(Buffer.from(text))).toBe(true);
      expect(fs.readFileSync(b).equals(Buffer.from(text))).toBe(true);
    }
  });

  it('turns a loose existing file into 0600 and honours an explicit mode, whatever the umask', async () => {
    const file = path.join(tmp, 'f');
    fs.writeFileSync(file, 'old', { mode: 0o644 });
    await writeFileAtomic(file, 'new');
    expect(modeOf(file)).toBe(0o600);
    const old = process.umask(0o077);
    try {
      await writeFileAtomic(file, 'exec', { mode: 0o750 });
    } finally {
      process.umask(old);
    }
    expect(modeOf(file)).toBe(0o750);
  });

  it('does not touch the mode of an existing parent directory', async () => {
    fs.chmodSync(tmp, 0o755);
    await writeFileAtomic(path.join(tmp, 'out.md'), 'x');
    expect(modeOf(tmp)).toBe(0o755);
  });

  it('fails with STORE_IO naming the target and leaves no temp file behind', async () => {
    const target = path.join(tmp, 'is-a-dir');
    fs.mkdirSync(path.join(target, 'child'), { recursive: true });
    await expect(writeFileAtomic(target, 'x')).rejects.toMatchObject({ code: 'STORE_IO', params: { file: target } });
    expect(() => writeFileAtomicSync(target, 'x')).toThrow(expect.objectContaining({ code: 'STORE_IO' }));
    expect(fs.readdirSync(tmp)).toEqual(['is-a-dir']);
  });

  it('sync variant: same modes and content', () => {
    const file = path.join(tmp, 'new-dir', 'x.json');
    writeFileAtomicSync(file, '[1]');
    writeFileAtomicSync(file, '[2]');
    expect(fs.readFileSync(file, 'utf8')).toBe('[2]');
    expect(modeOf(file)).toBe(0o600);
    expect(modeOf(path.dirname(file))).toBe(0o700);
    expect(fs.readdirSync(path.dirname(file))).toEqual(['x.json']);
  });

  it('readers during a rewrite loop, and the file left by a SIGKILL mid-loop, always see whole JSON', async () => {
    const target = path.join(tmp, 'registry.json');
    const script = path.join(tmp, 'writer.mjs');
    fs.writeFileSync(
      script,
      `import { writeFileAtomic } from ${JSON.stringify(pathToFileURL(path.join(here, 'atomic-write.ts')).href)};
const pad = 'x'.repeat(1024 * 1024);
for (let i = 1; ; i++) {
  await writeFileAtomic(process.argv[2], JSON.stringify({ i, pad, tail: i }));
  if (i === 2) process.stdout.write('ready\\n');
}
`,
    );
    let lastSeen = 0;
    for (const delayMs of [0, 7, 23]) {
      const child = spawn(process.execPath, ['--import', 'tsx', script, target], {
        cwd: repoRoot,
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      const exited = new Promise<NodeJS.Signals | null>((resolve) =>
        child.on('exit', (_code, signal) => resolve(signal)),
      );
      try {
        await new Promise<void>((resolve, reject) => {
          child.stdout.on('data', (b: Buffer) => b.toString().includes('ready') && resolve());
          child.on('exit', () => reject(new Error('writer exited before it was ready')));
        });
        // An in-place writer fails this almost every time: readers catch the truncated file.
        for (let n = 0; n < 25; n += 1) {
          const seen = JSON.parse(await fs.promises.readFile(target, 'utf8')) as { i: number; tail: number };
          expect(seen.tail).toBe(seen.i);
        }
        await new Promise((r) => setTimeout(r, delayMs));
      } finally {
        child.kill('SIGKILL');
      }
      expect(await exited).toBe('SIGKILL');
      const parsed = JSON.parse(fs.readFileSync(target, 'utf8')) as { i: number; tail: number; pad: string };
      expect(parsed.tail).toBe(parsed.i);
      expect(parsed.pad.length).toBe(1024 * 1024);
      expect(parsed.i).toBeGreaterThanOrEqual(2);
      expect(modeOf(target)).toBe(0o600);
      lastSeen = parsed.i;
    }
    expect(lastSeen).toBeGreaterThan(0);
  });
});
