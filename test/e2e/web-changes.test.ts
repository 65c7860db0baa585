// The session detail's Changes and Files tabs in a real browser: a registry session whose directory
// is a real git repository with an Edit in its transcript, read through the console's API.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRng, encodeCwd, writeSession } from '../fixtures/claude-tree.js';
import { upsertSession } from '../../src/sessions/registry/registry.js';
import { HAS_CHROMIUM, startWebHarness, type WebHarness } from './web-harness.js';

const ID = '3b9c1d2e-4f5a-4b6c-8d7e-9f0a1b2c3d4e';

describe.skipIf(!HAS_CHROMIUM)('web console: changes and files of a session (chromium)', () => {
  let h: WebHarness;

  beforeAll(async () => {
    h = await startWebHarness();
    const cwd = path.join(h.bh.home, 'Git', 'gamma');
    fs.mkdirSync(path.join(cwd, 'src'), { recursive: true });
    const git = (...a: string[]) => execFileSync('git', a, { cwd, env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1' } });
    git('init', '-q', '-b', 'feature/tabs');
    git('config', 'user.email', 't@example.com');
    git('config', 'user.name', 't');
    fs.writeFileSync(path.join(cwd, 'src', 'app.ts'), 'export const greeting = "hello";\nexport const n = 1;\n');
    fs.writeFileSync(path.join(cwd, 'logo.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 1]));
    git('add', '.');
    git('commit', '-q', '-m', 'init');
    fs.writeFileSync(path.join(cwd, 'src', 'app.ts'), 'export const greeting = "你好";\nexport const n = 1;\n');
    const written = writeSession(
      h.bh.paths.claudeDir,
      {
        id: ID,
        cwd,
        start: new Date('2026-11-20T09:00:00Z'),
        turns: [
          {
            prompt: 'translate the greeting',
            answer: 'Done: the greeting is Chinese now.',
            tools: [
              {
                name: 'Edit',
                input: {
                  file_path: path.join(cwd, 'src', 'app.ts'),
                  old_string: 'export const greeting = "hello";',
                  new_string: 'export const greeting = "你好";',
                },
                output: 'The file has been updated.',
              },
            ],
          },
        ],
      },
      createRng(11),
    );
    await upsertSession(h.bh.paths, ID, {
      cwd,
      origin: 'cli',
      title: '翻译问候语',
      project_name: 'gamma',
      jsonl_path: written.file,
      project_dir: encodeCwd(cwd),
      status: 'active',
      last_active: new Date().toISOString(),
      message_count: 2,
      last_message_preview: 'Done',
    });
  }, 30_000);
  afterAll(() => h?.close());

  for (const phone of [false, true]) {
    const width = phone ? 390 : 1280;
    it(`shows the changed file with a coloured diff and the branch, and browses the files (${width} px)`, async () => {
      const { page } = await h.page({ phone });
      await page.click('#tab-sessions');
      await page.locator(`.session-row[data-id="${ID}"]`).click();
      await page.locator('#s-turns .turn-assistant', { hasText: 'Done: the greeting' }).waitFor();
      // The tabs are labelled in the page's language from the first load (their views load later).
      expect(await page.locator('#s-tabs [data-ws-tab]').allTextContents()).toEqual(['对话', '改动', '文件']);
      await page.locator('#s-tabs [data-ws-tab="changes"]').click();
      await page.locator('#s-changes .ws-git').waitFor();
      expect(await page.isHidden('#s-turns')).toBe(true);
      expect(await page.textContent('#s-changes .ws-branch')).toBe('feature/tabs');
      const file = page.locator('#s-changes .ws-file[data-path="src/app.ts"]');
      expect(await file.getAttribute('data-source')).toBe('git');
      expect(await file.locator('.diff-add').isVisible()).toBe(false);
      await file.locator('summary').click();
      const add = file.locator('.diff-add', { hasText: '你好' });
      const del = file.locator('.diff-del', { hasText: 'hello' });
      await add.waitFor();
      const bg = (sel: string) =>
        page.evaluate(`getComputedStyle(document.querySelector('${sel}')).backgroundColor`) as Promise<string>;
      const colours = { add: await bg('#s-changes .diff-add'), del: await bg('#s-changes .diff-del') };
      // Green-ish and red-ish backgrounds: the diff is coloured, not plain text.
      const rgb = (s: string) => s.match(/\d+/g)!.map(Number);
      const [ar, ag] = rgb(colours.add);
      const [dr, dg] = rgb(colours.del);
      expect(ag!).toBeGreaterThan(ar!);
      expect(dr!).toBeGreaterThan(dg!);
      expect(await del.isVisible()).toBe(true);
      expect(await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth')).toBe(true);
      await h.shot(page, phone ? 'changes-390' : 'changes-1280');

      await page.locator('#s-tabs [data-ws-tab="files"]').click();
      await page.locator('#s-files .ws-entry[data-name="src"] button').click();
      await page.locator('#s-files .ws-entry[data-name="app.ts"] button').click();
      await expect.poll(() => page.textContent('#s-files pre.ws-text')).toContain('你好');
      expect(await page.locator('#s-files .ws-crumbs button').allTextContents()).toEqual(['会话目录', 'src', 'app.ts']);
      await page.locator('#s-files .ws-crumbs button', { hasText: '会话目录' }).click();
      await page.locator('#s-files .ws-entry[data-name="logo.png"] button').click();
      const link = page.locator('#s-files a.ws-download');
      await link.waitFor();
      const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
      expect(download.suggestedFilename()).toBe('logo.png');
      expect(fs.readFileSync((await download.path()) as string)).toEqual(
        Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 1]),
      );
      if (phone) {
        await page.locator('#s-files .ws-crumbs button', { hasText: '会话目录' }).click();
        await page.locator('#s-files .ws-entry[data-name="src"]').waitFor();
        expect(await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth')).toBe(true);
        await h.shot(page, 'files-390');
      }
      await page.locator('#s-tabs [data-ws-tab="turns"]').click();
      expect(await page.isVisible('#s-turns')).toBe(true);
    }, 60_000);
  }
});
