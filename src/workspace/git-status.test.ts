import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { gitStatus, parsePorcelainV2 } from './git-status.js';
import { gitEnv, runGit } from './run-git.js';

const dirs: string[] = [];
function tmp(): string {
  const d = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'ws-git-')));
  dirs.push(d);
  return d;
}
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

const git = (dir: string, ...args: string[]) =>
  execFileSync('git', args, { cwd: dir, env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1' } }).toString();

/** A repository with one commit of `a.txt`, `b.txt`, `old.txt`. */
function repo(): string {
  const dir = tmp();
  git(dir, 'init', '-q', '-b', 'main');
  git(dir, 'config', 'user.email', 't@example.com');
  git(dir, 'config', 'user.name', 't');
  for (const f of ['a.txt', 'b.txt', 'old.txt']) fs.writeFileSync(path.join(dir, f), `${f}\n`);
  git(dir, 'add', '.');
  git(dir, 'commit', '-q', '-m', 'init');
  return dir;
}

describe('gitStatus', () => {
  it('reports the branch, modified, untracked and renamed files', async () => {
    const dir = repo();
    fs.appendFileSync(path.join(dir, 'a.txt'), 'more\n');
    fs.writeFileSync(path.join(dir, 'new file.txt'), 'n\n');
    git(dir, 'mv', 'old.txt', 'renamed.txt');
    const s = await gitStatus(dir);
    expect(s).toMatchObject({ root: dir, branch: 'main', detached: false, upstream: null, ahead: 0, behind: 0 });
    const byPath = Object.fromEntries(s!.files.map((f) => [f.path, f]));
    expect(byPath['a.txt']).toMatchObject({ change: 'modified', staged: false, unstaged: true });
    expect(byPath['new file.txt']).toMatchObject({ change: 'untracked' });
    expect(byPath['renamed.txt']).toMatchObject({ change: 'renamed', from: 'old.txt', staged: true });
    expect(byPath['b.txt']).toBeUndefined();
  });

  it('lists only the files inside the directory asked about (a sub-folder of the repository)', async () => {
    const dir = repo();
    fs.mkdirSync(path.join(dir, 'app'));
    fs.writeFileSync(path.join(dir, 'app', 'main.ts'), 'x\n');
    git(dir, 'add', '.');
    git(dir, 'commit', '-q', '-m', 'app');
    fs.appendFileSync(path.join(dir, 'app', 'main.ts'), 'y\n');
    fs.writeFileSync(path.join(dir, 'app', 'new.ts'), 'n\n');
    fs.appendFileSync(path.join(dir, 'a.txt'), 'outside\n');
    fs.writeFileSync(path.join(dir, 'outside.txt'), 'o\n');
    const s = await gitStatus(path.join(dir, 'app'));
    expect(s?.root).toBe(dir);
    expect(s?.files.map((f) => f.path).sort()).toEqual(['app/main.ts', 'app/new.ts']);
    expect((await gitStatus(dir))?.files.map((f) => f.path).sort()).toEqual([
      'a.txt',
      'app/main.ts',
      'app/new.ts',
      'outside.txt',
    ]);
  });

  it('says detached HEAD, and ahead/behind against an upstream', async () => {
    const dir = repo();
    const clone = tmp();
    git(clone, 'clone', '-q', dir, '.');
    git(clone, 'config', 'user.email', 't@example.com');
    git(clone, 'config', 'user.name', 't');
    fs.writeFileSync(path.join(clone, 'c.txt'), 'c\n');
    git(clone, 'add', '.');
    git(clone, 'commit', '-q', '-m', 'c');
    expect(await gitStatus(clone)).toMatchObject({ branch: 'main', upstream: 'origin/main', ahead: 1, behind: 0 });
    git(dir, 'checkout', '-q', '--detach');
    expect(await gitStatus(dir)).toMatchObject({ branch: null, detached: true });
  });

  it('is null outside a work tree and when git is missing', async () => {
    expect(await gitStatus(tmp())).toBeNull();
    expect(await gitStatus(repo(), { git: '/nonexistent/git' })).toBeNull();
  });

  it('runs nothing the repository config names: fsmonitor, filters, pager', async () => {
    const dir = repo();
    const marker = path.join(tmp(), 'marker');
    const script = path.join(tmp(), 'evil.sh');
    fs.writeFileSync(script, `#!/bin/sh\ntouch ${marker}\ncat\n`, { mode: 0o755 });
    git(dir, 'config', 'core.fsmonitor', script);
    git(dir, 'config', 'core.pager', script);
    git(dir, 'config', 'filter.evil.clean', script);
    git(dir, 'config', 'filter.evil.process', script);
    fs.writeFileSync(path.join(dir, '.gitattributes'), '* filter=evil\n');
    fs.appendFileSync(path.join(dir, 'a.txt'), 'changed\n');
    // The same config does run the script when git is run plainly: the test can fail.
    git(dir, 'status');
    expect(fs.existsSync(marker)).toBe(true);
    fs.rmSync(marker);
    const s = await gitStatus(dir);
    expect(s?.files.some((f) => f.path === 'a.txt')).toBe(true);
    const diff = await runGit(dir, ['diff', '--no-ext-diff', '--no-textconv', 'HEAD', '--', 'a.txt']);
    expect(diff?.stdout).toContain('+changed');
    expect(fs.existsSync(marker)).toBe(false);
  });

  it('keeps cc-linker settings and the SSH agent out of git’s environment', () => {
    const env = gitEnv({ PATH: '/bin', HOME: '/h', CC_LINKER_WEB_TOKEN: 'x', SSH_AUTH_SOCK: '/s', GITHUB_TOKEN: 'y' });
    expect(env).toMatchObject({ PATH: '/bin', HOME: '/h', GIT_CONFIG_NOSYSTEM: '1', GIT_OPTIONAL_LOCKS: '0' });
    expect(Object.keys(env)).not.toContain('CC_LINKER_WEB_TOKEN');
    expect(Object.keys(env)).not.toContain('SSH_AUTH_SOCK');
    expect(Object.keys(env)).not.toContain('GITHUB_TOKEN');
  });
});

describe('parsePorcelainV2', () => {
  it('reads a conflict, a copy and an initial branch', () => {
    const text = [
      '# branch.oid (initial)',
      '# branch.head dev',
      'u UU N... 100644 100644 100644 100644 1 2 3 x y.txt',
      '2 C. N... 100644 100644 100644 1 2 C90 dst.txt',
      'src.txt',
      '',
    ].join('\0');
    expect(parsePorcelainV2(text, '/r')).toMatchObject({
      head: null,
      branch: 'dev',
      files: [
        { path: 'x y.txt', change: 'conflicted' },
        { path: 'dst.txt', from: 'src.txt', change: 'copied' },
      ],
    });
  });
});
