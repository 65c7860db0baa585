import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkWorkingDirectory, type DirSafetyOptions } from './dir-safety.js';

let tmp: string;
let home: string;
let opts: DirSafetyOptions;

beforeAll(async () => {
  tmp = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'ccl-dirsafety-')));
  home = path.join(tmp, 'home');
  for (const d of [
    'Git/app/src',
    'Git/secret/inner',
    'Workspace',
    'Downloads/stuff',
    'Desktop',
    '.ssh',
    'outside-git',
  ]) {
    await fs.mkdir(path.join(home, d), { recursive: true });
  }
  await fs.mkdir(path.join(tmp, 'elsewhere'), { recursive: true });
  await fs.writeFile(path.join(home, 'Git/app/README.md'), 'x');
  await fs.symlink(path.join(home, '.ssh'), path.join(home, 'Git/escape')); // symlink leaving the allowed root
  await fs.symlink(path.join(tmp, 'elsewhere'), path.join(home, 'Git/far')); // symlink to outside home
  await fs.symlink(path.join(home, 'Git/app'), path.join(home, 'Git/app-link')); // symlink staying inside
  await fs.symlink(path.join(home, 'Git/app'), path.join(home, 'Workspace/app-via-ws'));
  await fs.symlink(path.join(home, 'Downloads/stuff'), path.join(home, 'Git/dl-link')); // into a denied root
  opts = {
    allowedRoots: ['~/Git', '~/Workspace'],
    deniedRoots: ['~', '/', '~/Downloads', '~/Desktop', '~/Git/secret'],
    home,
    lang: 'zh',
  };
});

afterAll(async () => {
  await fs.rm(tmp, { recursive: true, force: true });
});

describe('checkWorkingDirectory', () => {
  it('accepts a directory inside an allowed root and returns its real path', async () => {
    await expect(checkWorkingDirectory('~/Git/app', opts)).resolves.toEqual({
      ok: true,
      realPath: path.join(home, 'Git/app'),
    });
    await expect(checkWorkingDirectory(`  ${path.join(home, 'Git/app/src')}  `, opts)).resolves.toEqual({
      ok: true,
      realPath: path.join(home, 'Git/app/src'),
    });
  });

  it('accepts an allowed root itself', async () => {
    await expect(checkWorkingDirectory('~/Git', opts)).resolves.toMatchObject({
      ok: true,
      realPath: path.join(home, 'Git'),
    });
  });

  it('resolves a symlink that stays inside the allowed roots to its target', async () => {
    await expect(checkWorkingDirectory('~/Git/app-link', opts)).resolves.toEqual({
      ok: true,
      realPath: path.join(home, 'Git/app'),
    });
    await expect(checkWorkingDirectory('~/Workspace/app-via-ws', opts)).resolves.toEqual({
      ok: true,
      realPath: path.join(home, 'Git/app'),
    });
  });

  it('refuses a symlink escaping the allowed root, naming the allowed roots', async () => {
    const r = await checkWorkingDirectory('~/Git/escape', opts);
    expect(r).toMatchObject({ ok: false, code: 'outside-allowed' });
    expect(!r.ok && r.message).toContain('~/Git, ~/Workspace');
    await expect(checkWorkingDirectory('~/Git/far', opts)).resolves.toMatchObject({
      ok: false,
      code: 'outside-allowed',
    });
  });

  it('refuses .. escapes and accepts .. that stays inside', async () => {
    await expect(checkWorkingDirectory('~/Git/../.ssh', opts)).resolves.toMatchObject({
      ok: false,
      code: 'outside-allowed',
    });
    await expect(checkWorkingDirectory('~/Git/app/../../outside-git', opts)).resolves.toMatchObject({
      ok: false,
      code: 'outside-allowed',
    });
    await expect(checkWorkingDirectory('~/Git/app/src/..', opts)).resolves.toEqual({
      ok: true,
      realPath: path.join(home, 'Git/app'),
    });
  });

  it('refuses a file that is not a directory', async () => {
    const r = await checkWorkingDirectory('~/Git/app/README.md', opts);
    expect(r).toMatchObject({ ok: false, code: 'not-directory' });
    await expect(checkWorkingDirectory('~/Git/app/README.md/sub', opts)).resolves.toMatchObject({
      ok: false,
      code: 'not-directory',
    });
  });

  it('reports a missing directory inside the roots as not-found, outside them as outside-allowed', async () => {
    const r = await checkWorkingDirectory('~/Git/nope', opts);
    expect(r).toMatchObject({ ok: false, code: 'not-found' });
    expect(!r.ok && r.message).toContain('~/Git/nope');
    await expect(checkWorkingDirectory(path.join(tmp, 'no/such/dir'), opts)).resolves.toMatchObject({
      ok: false,
      code: 'outside-allowed',
    });
  });

  it('refuses a nested denied root and everything inside it', async () => {
    await expect(checkWorkingDirectory('~/Git/secret', opts)).resolves.toMatchObject({ ok: false, code: 'denied' });
    const r = await checkWorkingDirectory('~/Git/secret/inner', opts);
    expect(r).toMatchObject({ ok: false, code: 'denied' });
    expect(!r.ok && r.message).toContain('~/Git/secret');
  });

  it('refuses a symlink inside an allowed root that lands in a denied root', async () => {
    const r = await checkWorkingDirectory('~/Git/dl-link', { ...opts, allowedRoots: ['~/Git', '~/Downloads'] });
    expect(r).toMatchObject({ ok: false, code: 'denied' });
  });

  it('treats ~ and / as "not this directory itself", other denied roots as whole subtrees', async () => {
    const unrestricted = { ...opts, allowedRoots: [] };
    await expect(checkWorkingDirectory('~', unrestricted)).resolves.toMatchObject({ ok: false, code: 'denied' });
    await expect(checkWorkingDirectory('/', unrestricted)).resolves.toMatchObject({ ok: false, code: 'denied' });
    await expect(checkWorkingDirectory('~/outside-git', unrestricted)).resolves.toMatchObject({ ok: true });
    await expect(checkWorkingDirectory(path.join(tmp, 'elsewhere'), unrestricted)).resolves.toMatchObject({ ok: true });
    await expect(checkWorkingDirectory('~/Downloads/stuff', unrestricted)).resolves.toMatchObject({
      ok: false,
      code: 'denied',
    });
    await expect(checkWorkingDirectory('~/Desktop', unrestricted)).resolves.toMatchObject({
      ok: false,
      code: 'denied',
    });
  });

  it('treats a denied root that contains an allowed root as "itself only"', async () => {
    const o = { ...opts, allowedRoots: ['~/Git/app', '~/Workspace'], deniedRoots: ['~/Git'] };
    await expect(checkWorkingDirectory('~/Git/app/src', o)).resolves.toMatchObject({ ok: true });
    await expect(checkWorkingDirectory('~/Git', { ...o, allowedRoots: [] })).resolves.toMatchObject({
      ok: false,
      code: 'denied',
    });
    await expect(checkWorkingDirectory('~/Git/app', { ...o, allowedRoots: [] })).resolves.toMatchObject({
      ok: false,
      code: 'denied',
    });
  });

  it('denied wins when a denied root equals an allowed root', async () => {
    const o = { ...opts, allowedRoots: ['~/Git'], deniedRoots: ['~/Git'] };
    await expect(checkWorkingDirectory('~/Git/app', o)).resolves.toMatchObject({ ok: false, code: 'denied' });
  });

  it('refuses the home directory when only subfolders are allowed', async () => {
    await expect(checkWorkingDirectory('~', opts)).resolves.toMatchObject({ ok: false, code: 'outside-allowed' });
  });

  it('refuses empty, NUL and relative input; resolves relative input against a base', async () => {
    await expect(checkWorkingDirectory('   ', opts)).resolves.toMatchObject({ ok: false, code: 'invalid' });
    await expect(checkWorkingDirectory('a\0b', opts)).resolves.toMatchObject({ ok: false, code: 'invalid' });
    await expect(checkWorkingDirectory('Git/app', opts)).resolves.toMatchObject({ ok: false, code: 'invalid' });
    await expect(checkWorkingDirectory('app', { ...opts, base: path.join(home, 'Git') })).resolves.toEqual({
      ok: true,
      realPath: path.join(home, 'Git/app'),
    });
    await expect(checkWorkingDirectory('../.ssh', { ...opts, base: path.join(home, 'Git') })).resolves.toMatchObject({
      ok: false,
      code: 'outside-allowed',
    });
  });

  it('speaks English when asked', async () => {
    const r = await checkWorkingDirectory('~/Git/escape', { ...opts, lang: 'en' });
    expect(!r.ok && r.message).toMatch(
      /^The directory ~\/Git\/escape is outside the allowed directories.*Allowed directories: ~\/Git, ~\/Workspace$/,
    );
  });
});
