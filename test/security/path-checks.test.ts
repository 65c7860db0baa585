/**
 * Security review, check 4: path checks on every working-directory entry point a chat or the
 * console reaches — `/new <cwd>` (with and without a prompt), `/listDir` and its `browse_dir` /
 * `select_dir` buttons (forged ones too), `/switch` and the console's "continue" to a session
 * whose directory is outside, the console's directory picker and its new-session form. Hostile
 * inputs: symlink escapes, `..`, denied roots, a file, missing directories, a symlink loop, a
 * relative path, NUL, homoglyph and BiDi characters. The only allowed root is `~/Git`; `~`, `/`
 * and `~/Git/private` are denied. (`ccexec.cwd` comes from the config only — the model cannot name
 * a directory; hostile-corpus.test.ts checks that an extra `cwd` argument is refused.)
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bridgeMessages } from '../../src/bridge/bridge-messages.js';
import { isInside } from '../../src/core/path-inside.js';
import { OWNER, startLiveSystem, type LiveSystem } from './live-system.js';

const t = bridgeMessages('zh');
let sys: LiveSystem;
let git: string;
const OUTSIDE_SESSION = '0badd100-0000-4000-8000-000000000001';
const ESCAPE_SESSION = '0badd200-0000-4000-8000-000000000002';

/** Hostile directory inputs (absolute unless noted); each must be refused. `hidden`: a symlink's real target, never shown. */
function hostileDirs(): Array<{ name: string; dir: string; hidden?: string }> {
  const h = sys.home;
  return [
    { name: 'outside, existing', dir: sys.outside },
    { name: 'outside, missing', dir: path.join(sys.outside, 'nope') },
    { name: 'symlink escape', dir: path.join(git, 'escape'), hidden: sys.outside },
    { name: 'through a symlink escape', dir: path.join(git, 'escape', 'loot'), hidden: sys.outside },
    { name: 'symlink to the home directory', dir: path.join(git, 'alpha', 'up') },
    { name: 'symlink to ~/.ssh', dir: path.join(git, 'ssh-link'), hidden: '.ssh' },
    { name: '.. out of the root', dir: `${git}/../Downloads` },
    { name: '.. twice', dir: `${git}/alpha/../../.ssh` },
    { name: '~/..', dir: '~/..' },
    { name: 'the home directory (denied)', dir: '~' },
    { name: 'the home directory, absolute', dir: h },
    { name: '/', dir: '/' },
    { name: '/etc', dir: '/etc' },
    { name: 'a denied subtree', dir: path.join(git, 'private', 'inner') },
    { name: 'a denied root', dir: path.join(git, 'private') },
    { name: 'a file', dir: path.join(git, 'notes.txt') },
    { name: 'missing', dir: path.join(git, 'nope') },
    { name: 'a symlink loop', dir: path.join(git, 'loop-a') },
    { name: 'relative', dir: 'alpha' },
    { name: 'NUL byte', dir: `${git}/al\u0000pha` },
    { name: 'homoglyph root (Cyrillic і)', dir: path.join(h, 'Gіt', 'alpha') },
    { name: 'BiDi control', dir: `${git}/alpha\u202e` },
    { name: 'zero-width space', dir: `${git}/al\u200bpha` },
  ];
}

const realGit = () => fs.realpathSync(git);
const allowedPath = (p: string) => isInside(p, realGit()) && !isInside(p, path.join(realGit(), 'private'));

beforeAll(async () => {
  sys = await startLiveSystem({ web: true });
  git = path.join(sys.home, 'Git');
  fs.mkdirSync(path.join(git, '项目'));
  fs.writeFileSync(path.join(git, 'notes.txt'), 'not a directory');
  fs.symlinkSync(sys.outside, path.join(git, 'escape'));
  fs.symlinkSync('../..', path.join(git, 'alpha', 'up'));
  fs.symlinkSync(path.join(sys.home, '.ssh'), path.join(git, 'ssh-link'));
  fs.symlinkSync(path.join(git, 'beta'), path.join(git, 'link-beta'));
  fs.symlinkSync(path.join(git, 'loop-b'), path.join(git, 'loop-a'));
  fs.symlinkSync(path.join(git, 'loop-a'), path.join(git, 'loop-b'));
  await sys.addSession(OUTSIDE_SESSION, sys.outside);
  await sys.addSession(ESCAPE_SESSION, path.join(git, 'escape'));
});
afterAll(async () => sys?.close());

/** Sends `text` as the owner and returns the one new reply. */
async function ask(text: string): Promise<string> {
  const n = sys.texts(OWNER).length;
  await sys.say(OWNER, text);
  await sys.feishu.waitFor(() => sys.texts(OWNER).length > n, 10_000);
  return sys.texts(OWNER)[n] as string;
}

describe('/new <cwd>', () => {
  it('refuses every hostile directory, with a refusal and no state change', async () => {
    const before = sys.mappingFile();
    for (const { name, dir, hidden } of hostileDirs()) {
      const reply = await ask(`/new ${dir}`);
      expect(reply, name).not.toContain('✅');
      expect(reply, name).toMatch(/目录|Directory|不是目录|请使用绝对路径/);
      if (hidden) expect(reply, name).not.toContain(hidden); // where a symlink really leads is never shown
    }
    expect(sys.mappingFile()).toBe(before);
  });

  it('never runs Claude in a hostile directory, even with a prompt', async () => {
    for (const { name, dir } of hostileDirs()) {
      const reply = await ask(`/new ${dir} -- touch pwned`);
      expect(reply, name).not.toMatch(/正在 .* 创建新会话/);
    }
    expect(sys.engine.requests).toEqual([]);
  });

  it('an outside path that exists and one that does not get the same answer (nothing is revealed)', async () => {
    const a = (await ask(`/new ${path.join(sys.outside, 'loot')}`)).replace(path.join(sys.outside, 'loot'), 'P');
    const b = (await ask(`/new ${path.join(sys.outside, 'no-such-dir')}`)).replace(
      path.join(sys.outside, 'no-such-dir'),
      'P',
    );
    expect(a).toBe(b);
  });

  it('accepts the allowed directories and records their real path (symlinks resolved, unicode kept)', async () => {
    for (const [input, real] of [
      [path.join(git, 'alpha'), path.join(realGit(), 'alpha')],
      ['~/Git/beta/', path.join(realGit(), 'beta')],
      [path.join(git, 'link-beta'), path.join(realGit(), 'beta')],
      [path.join(git, '项目'), path.join(realGit(), '项目')],
    ] as const) {
      expect(await ask(`/new ${input}`)).toContain('✅');
      expect(await sys.mapping(OWNER)).toMatchObject({ type: 'pending_new_session', cwd: real });
    }
    await ask(`/new ${path.join(git, 'link-beta')} -- hello`);
    await sys.waitForText(OWNER, /echo: hello/);
    expect(sys.engine.requests.map((r) => r.cwd)).toEqual([path.join(realGit(), 'beta')]);
  });
});

describe('/listDir and its buttons', () => {
  it('lists only directories that pass the check; every button path is inside the allowed root', async () => {
    await ask(`/new ${git}`);
    const n = sys.buttons().length;
    await ask('/listDir');
    const buttons = sys
      .buttons()
      .slice(n)
      .filter((b) => b.action.type === 'browse_dir' || b.action.type === 'select_dir');
    const targets = buttons.map((b) => (b.action as { path: string }).path);
    expect(targets).toContain(path.join(realGit(), 'alpha'));
    expect(targets).toContain(path.join(realGit(), 'beta')); // link-beta, as its real path
    for (const p of targets) expect(allowedPath(p), p).toBe(true);
    expect(
      targets.some((p) => p.includes('escape') || p.includes('ssh') || p.includes('loop') || p.includes('private')),
    ).toBe(false);
  });

  it('refuses hostile /listDir arguments, relative ones included', async () => {
    for (const dir of [sys.outside, path.join(git, 'escape'), '../..', '..', 'escape', 'private', '~', '/']) {
      const reply = await ask(`/listDir ${dir}`);
      expect(reply, dir).not.toContain(t('listDirTitle'));
    }
  });

  it('forged select_dir and browse_dir clicks with hostile paths change nothing and list nothing', async () => {
    const before = sys.mappingFile();
    for (const { name, dir } of hostileDirs()) {
      const select = await sys.click(OWNER, { type: 'select_dir', path: dir });
      expect(select.toast?.type, name).toBe('error');
      expect(select.card, name).toBeUndefined();
      if (name === 'relative') continue; // browse_dir takes a relative path from the current directory: below
      const browse = await sys.click(OWNER, { type: 'browse_dir', path: dir });
      expect(browse.toast?.type, name).toBe('error');
      expect(browse.card, name).toBeUndefined();
    }
    expect(sys.mappingFile()).toBe(before);
    // Relative browsing starts at the current directory (~/Git here) and is checked like the rest.
    const inside = await sys.click(OWNER, { type: 'browse_dir', path: 'alpha' });
    expect(JSON.stringify(inside.card)).toContain(path.join(realGit(), 'alpha'));
    for (const rel of ['..', '../..', 'escape', 'private', 'alpha/up', 'ssh-link'])
      expect((await sys.click(OWNER, { type: 'browse_dir', path: rel })).toast?.type, rel).toBe('error');
  });
});

describe('sessions whose directory is outside', () => {
  it('/switch and the switch button refuse them', async () => {
    for (const id of [OUTSIDE_SESSION, ESCAPE_SESSION]) {
      const before = sys.mappingFile();
      expect(await ask(`/switch ${id.slice(0, 13)}`)).toContain(
        t('switchDirRefused', { id: id.slice(0, 8), reason: '' })
          .trim()
          .slice(0, 6),
      );
      expect((await sys.click(OWNER, { type: 'switch', sessionId: id })).toast?.type).toBe('error');
      expect(sys.mappingFile()).toBe(before);
    }
  });

  it("the console's continue refuses them", async () => {
    for (const id of [OUTSIDE_SESSION, ESCAPE_SESSION]) {
      const r = await fetch(`${sys.base}/api/sessions/${id}/continue`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${sys.token}` },
      });
      expect(((await r.json()) as { toast: { type: string } }).toast.type).toBe('error');
    }
    expect(await sys.mapping('web:owner')).toBeNull();
  });
});

describe('web console directory picker and new-session form', () => {
  const get = async (url: string) =>
    (await (await fetch(`${sys.base}${url}`, { headers: { Authorization: `Bearer ${sys.token}` } })).json()) as {
      entries: Array<{ path: string }>;
      error?: string;
      path: string | null;
      parent: string | null;
    };

  it('lists only allowed directories', async () => {
    expect((await get('/api/dirs')).entries.map((e) => e.path)).toEqual([realGit()]);
    const listing = await get(`/api/dirs?path=${encodeURIComponent(git)}`);
    expect(listing.entries.length).toBeGreaterThanOrEqual(3);
    for (const e of listing.entries) expect(allowedPath(e.path), e.path).toBe(true);
    expect(listing.parent).toBeNull(); // ~ is denied: no way up
  });

  it('refuses every hostile directory in the picker', async () => {
    for (const { name, dir } of hostileDirs()) {
      const listing = await get(`/api/dirs?path=${encodeURIComponent(dir)}`);
      expect(listing.entries, name).toEqual([]);
      expect(listing.error, name).toBeTruthy();
    }
  });

  it('refuses every hostile directory in the new-session form (400) and runs nothing', async () => {
    const runs = sys.engine.requests.length;
    for (const { name, dir } of hostileDirs()) {
      const r = await fetch(`${sys.base}/api/sessions/new`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${sys.token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ id: crypto.randomUUID(), dir, prompt: 'touch pwned' }),
      });
      expect(r.status, name).toBe(400);
    }
    // A directory that hides the /new separator in its name cannot smuggle a prompt either.
    fs.mkdirSync(path.join(git, 'x -- rm'), { recursive: true });
    const sneaky = await fetch(`${sys.base}/api/sessions/new`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${sys.token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ id: crypto.randomUUID(), dir: path.join(git, 'x -- rm') }),
    });
    expect(sneaky.status).toBe(400);
    await new Promise((r) => setTimeout(r, 300));
    expect(sys.engine.requests.length).toBe(runs);
    expect(await sys.mapping('web:owner')).toBeNull();
  });
});
