import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
// eslint-disable-next-line no-restricted-imports -- the test judges paths with the policy the console really passes in
import { checkWorkingDirectory } from '../bridge/commands/dir-safety.js';
import { browseFiles, MAX_TEXT_BYTES, openRawFile, type DirCheck } from './browse-files.js';

let home: string;
let cwd: string;
let check: DirCheck;

beforeEach(() => {
  home = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'ws-browse-')));
  cwd = path.join(home, 'Git', 'app');
  fs.mkdirSync(path.join(cwd, 'src'), { recursive: true });
  fs.mkdirSync(path.join(cwd, '.git'), { recursive: true });
  fs.mkdirSync(path.join(cwd, 'secret'), { recursive: true });
  fs.mkdirSync(path.join(home, 'outside'), { recursive: true });
  fs.writeFileSync(path.join(cwd, 'src', 'main.ts'), 'export const x = 1;\n');
  fs.writeFileSync(path.join(cwd, '.env.example'), 'A=1\n');
  fs.writeFileSync(path.join(cwd, 'Zeta.md'), 'z\n');
  fs.writeFileSync(path.join(cwd, '.git', 'config'), '[core]\n');
  fs.writeFileSync(path.join(cwd, 'secret', 'key.txt'), 'k\n');
  fs.writeFileSync(path.join(home, 'outside', 'passwd'), 'root\n');
  // The policy the console passes: the picker's own check (allowed ~/Git, denied ~/Git/app/secret).
  check = (dir) =>
    checkWorkingDirectory(dir, {
      allowedRoots: [path.join(home, 'Git')],
      deniedRoots: [home, '/', path.join(cwd, 'secret')],
      home,
      lang: 'en',
    });
});
afterEach(() => fs.rmSync(home, { recursive: true, force: true }));

describe('browseFiles', () => {
  it('lists dirs first, hidden files shown, and reads a text file', async () => {
    const top = await browseFiles(cwd, '', check);
    expect(top.kind).toBe('dir');
    if (top.kind !== 'dir') return;
    expect(top.entries.map((e) => `${e.kind}:${e.name}`)).toEqual([
      'dir:.git',
      'dir:secret',
      'dir:src',
      'file:.env.example',
      'file:Zeta.md',
    ]);
    expect(await browseFiles(cwd, 'src/main.ts', check)).toEqual({
      kind: 'text',
      path: 'src/main.ts',
      size: 20,
      text: 'export const x = 1;\n',
    });
  });

  it('refuses .., a symlink out, .git contents, a denied root and a session outside the allowed roots', async () => {
    fs.symlinkSync(path.join(home, 'outside'), path.join(cwd, 'out'));
    fs.symlinkSync(path.join(home, 'outside', 'passwd'), path.join(cwd, 'passwd'));
    await expect(browseFiles(cwd, '../../outside/passwd', check)).rejects.toMatchObject({ code: 'invalid' });
    await expect(browseFiles(cwd, 'src/../../x', check)).rejects.toMatchObject({ code: 'invalid' });
    await expect(browseFiles(cwd, '/etc/passwd', check)).rejects.toMatchObject({ code: 'invalid' });
    await expect(browseFiles(cwd, 'out', check)).rejects.toMatchObject({ code: 'outside' });
    await expect(browseFiles(cwd, 'passwd', check)).rejects.toMatchObject({ code: 'outside' });
    await expect(openRawFile(cwd, 'passwd', check)).rejects.toMatchObject({ code: 'outside' });
    await expect(browseFiles(cwd, '.git', check)).rejects.toMatchObject({ code: 'git-internal' });
    await expect(browseFiles(cwd, '.git/config', check)).rejects.toMatchObject({ code: 'git-internal' });
    await expect(browseFiles(cwd, 'secret/key.txt', check)).rejects.toMatchObject({ code: 'denied' });
    await expect(browseFiles(path.join(home, 'outside'), '', check)).rejects.toMatchObject({ code: 'denied' });
  });

  it('follows a symlink that stays inside', async () => {
    fs.symlinkSync(path.join(cwd, 'src'), path.join(cwd, 'code'));
    const r = await browseFiles(cwd, 'code/main.ts', check);
    expect(r).toMatchObject({ kind: 'text', path: 'src/main.ts' });
  });

  it('refuses a FIFO without opening it', async () => {
    execFileSync('mkfifo', [path.join(cwd, 'pipe')]);
    // Opening a FIFO for reading without a writer would block: a refusal that returns proves it was not opened.
    await expect(browseFiles(cwd, 'pipe', check)).rejects.toMatchObject({ code: 'special' });
    await expect(openRawFile(cwd, 'pipe', check)).rejects.toMatchObject({ code: 'special' });
    const top = await browseFiles(cwd, '', check);
    expect(top.kind === 'dir' && top.entries.find((e) => e.name === 'pipe')?.kind).toBe('other');
  });

  it('offers a 2 GB sparse file, a binary file and a large text file as downloads', async () => {
    const big = path.join(cwd, 'big.bin');
    const fd = fs.openSync(big, 'w');
    fs.ftruncateSync(fd, 2 * 1024 ** 3);
    fs.closeSync(fd);
    expect(await browseFiles(cwd, 'big.bin', check)).toEqual({
      kind: 'download',
      path: 'big.bin',
      size: 2 * 1024 ** 3,
      reason: 'large',
    });
    fs.writeFileSync(path.join(cwd, 'img.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2]));
    expect(await browseFiles(cwd, 'img.png', check)).toMatchObject({ kind: 'download', reason: 'binary' });
    fs.writeFileSync(path.join(cwd, 'latin1.txt'), Buffer.from([0x63, 0x61, 0x66, 0xe9]));
    expect(await browseFiles(cwd, 'latin1.txt', check)).toMatchObject({ kind: 'download', reason: 'binary' });
    fs.writeFileSync(path.join(cwd, 'long.log'), 'x'.repeat(MAX_TEXT_BYTES + 1));
    expect(await browseFiles(cwd, 'long.log', check)).toMatchObject({ kind: 'download', reason: 'large' });
    const raw = await openRawFile(cwd, 'img.png', check);
    const chunks: Buffer[] = [];
    for await (const c of raw.stream) chunks.push(c as Buffer);
    expect(Buffer.concat(chunks)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2]));
    expect(raw).toMatchObject({ name: 'img.png', size: 7 });
  });
});
