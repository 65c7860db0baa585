import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createRng, encodeCwd, writeSession } from '../../../test/fixtures/claude-tree.js';
import {
  loginCookie,
  rawRequest as request,
  startTestConsole,
  stopTestConsole,
  type TestConsole,
} from '../../../test/helpers/web-console-kit.js';
import { upsertSession } from '../../sessions/registry/registry.js';

const ID = '6d1f2c3b-4a5e-4f60-8a7b-9c0d1e2f3a4b';
const OUTSIDE_ID = '7e2f3d4c-5b6f-4a71-9b8c-0d1e2f3a4b5c';

// The changes and files API over a real registry, a real transcript with an Edit and a real git repository.
describe('web console: a session’s changes and files', () => {
  let t: TestConsole;
  let cookie: string;
  let cwd: string;
  const get = async (p: string) => request(t.web.port, p, { headers: { Cookie: cookie, 'X-Console-Lang': 'en' } });

  beforeEach(async () => {
    t = await startTestConsole();
    cookie = await loginCookie(t.web.port, t.token);
    cwd = path.join(t.dir, 'Git', 'app');
    fs.mkdirSync(path.join(cwd, 'docs'), { recursive: true });
    const git = (...a: string[]) => execFileSync('git', a, { cwd, env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1' } });
    git('init', '-q', '-b', 'main');
    git('config', 'user.email', 't@example.com');
    git('config', 'user.name', 't');
    fs.writeFileSync(path.join(cwd, 'README.md'), '# App\nold line\n');
    fs.writeFileSync(path.join(cwd, 'docs', 'guide.md'), 'guide\n');
    fs.writeFileSync(path.join(cwd, 'logo.bin'), Buffer.from([1, 0, 2, 0]));
    git('add', '.');
    git('commit', '-q', '-m', 'init');
    fs.writeFileSync(path.join(cwd, 'README.md'), '# App\nnew line\n');
    for (const [id, dir] of [
      [ID, cwd],
      [OUTSIDE_ID, t.dir],
    ] as const) {
      const written = writeSession(
        t.paths.claudeDir,
        {
          id,
          cwd: dir,
          start: new Date('2026-11-01T10:00:00Z'),
          turns: [
            {
              prompt: 'update the readme\nplease',
              answer: 'done',
              tools: [
                {
                  name: 'Edit',
                  input: { file_path: path.join(dir, 'README.md'), old_string: 'old line', new_string: 'new line' },
                  output: 'The file has been updated.',
                },
              ],
            },
          ],
        },
        createRng(5),
      );
      await upsertSession(t.paths, id, {
        cwd: dir,
        origin: 'cli',
        title: 'readme',
        project_name: 'app',
        jsonl_path: written.file,
        project_dir: encodeCwd(dir),
        status: 'active',
        last_active: new Date().toISOString(),
        message_count: 2,
        last_message_preview: 'done',
      });
    }
  });
  afterEach(async () => stopTestConsole(t));

  it('answers the git state and, per turn, the changed file with the working tree’s diff', async () => {
    const r = await get(`/api/sessions/${ID}/changes`);
    expect(r.status).toBe(200);
    const body = JSON.parse(r.body);
    expect(body.git).toMatchObject({
      branch: 'main',
      upstream: null,
      files: [{ path: 'README.md', change: 'modified' }],
    });
    expect(body.turns).toHaveLength(1);
    expect(body.turns[0]).toMatchObject({ index: 0, prompt: 'update the readme' });
    expect(body.turns[0].files).toMatchObject([{ path: 'README.md', change: 'edit', source: 'git' }]);
    expect(body.turns[0].files[0].diff).toMatch(/-old line\n\+new line/);
  });

  it('outside the allowed roots: no git, the transcript’s patch, and no browsing', async () => {
    const body = JSON.parse((await get(`/api/sessions/${OUTSIDE_ID}/changes`)).body);
    expect(body.git).toBeNull();
    expect(body.turns[0].files).toMatchObject([{ path: 'README.md', source: 'transcript' }]);
    const r = await get(`/api/sessions/${OUTSIDE_ID}/files`);
    expect(r.status).toBe(403);
    expect(JSON.parse(r.body).error).toMatch(/may not be browsed/);
  });

  it('lists, reads a text file, downloads a binary one, and refuses .. and unknown sessions', async () => {
    const top = JSON.parse((await get(`/api/sessions/${ID}/files`)).body);
    expect(top.kind).toBe('dir');
    expect(top.entries.map((e: { name: string }) => e.name)).toEqual(['.git', 'docs', 'logo.bin', 'README.md']);
    const text = JSON.parse((await get(`/api/sessions/${ID}/files?path=docs/guide.md`)).body);
    expect(text).toEqual({ kind: 'text', path: 'docs/guide.md', size: 6, text: 'guide\n' });
    const bin = JSON.parse((await get(`/api/sessions/${ID}/files?path=logo.bin`)).body);
    expect(bin).toMatchObject({ kind: 'download', reason: 'binary' });
    const raw = await get(`/api/sessions/${ID}/files/raw?path=logo.bin`);
    expect(raw.status).toBe(200);
    expect(raw.headers['content-type']).toBe('application/octet-stream');
    expect(raw.headers['content-disposition']).toMatch(/^attachment; filename="logo.bin"/);
    expect(raw.headers['x-content-type-options']).toBe('nosniff');
    expect(raw.headers['content-length']).toBe('4');
    const up = await get(`/api/sessions/${ID}/files?path=${encodeURIComponent('../../x')}`);
    expect(up.status).toBe(400);
    expect(JSON.parse(up.body).error).toMatch(/Invalid path/);
    expect((await get(`/api/sessions/${ID}/files/raw?path=.git/config`)).status).toBe(403);
    expect((await get(`/api/sessions/00000000-0000-4000-8000-000000000000/changes`)).status).toBe(404);
    const zh = await request(t.web.port, `/api/sessions/${ID}/files?path=nope`, { headers: { Cookie: cookie } });
    expect(zh.status).toBe(404);
  });
});
