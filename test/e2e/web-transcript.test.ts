// A session's whole transcript in a real browser: GFM from the server's renderer, tool cards
// (Bash, Read, Edit diff), thinking behind its toggle, a pasted image from the image route, copy
// buttons, and scrolling up through 300+ messages to the first one. At 1280 and 390 px.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { upsertSession } from '../../src/sessions/registry/registry.js';
import { createRng, encodeCwd, writeSession } from '../fixtures/claude-tree.js';
import { FIRST_PROMPT, transcriptTurns } from '../fixtures/transcript-session.js';
import { HAS_CHROMIUM, startWebHarness, type WebHarness } from './web-harness.js';

const ID = '7d3e2a10-5b6c-4d7e-8f90-a1b2c3d4e5f6';
const FILLER = 160;
const TOTAL = 2 + FILLER * 2 + 3;

describe.skipIf(!HAS_CHROMIUM)('web console: a session transcript (chromium)', () => {
  let h: WebHarness;

  beforeAll(async () => {
    h = await startWebHarness();
    const cwd = path.join(h.bh.home, 'Git', 'alpha');
    const written = writeSession(
      h.bh.paths.claudeDir,
      { id: ID, cwd, start: new Date('2026-06-01T10:00:00Z'), turns: transcriptTurns(FILLER) },
      createRng(21),
    );
    await upsertSession(h.bh.paths, ID, {
      cwd,
      origin: 'cli',
      title: 'Transcript tour',
      project_name: 'alpha',
      jsonl_path: written.file,
      project_dir: encodeCwd(cwd),
      status: 'active',
      last_active: new Date().toISOString(),
      message_count: written.expect.messageCount,
      last_message_preview: 'summary',
    });
  }, 30_000);
  afterAll(() => h?.close());

  for (const phone of [false, true]) {
    it(`shows markdown, tool cards, thinking, the image, copy, and the whole history (${phone ? 390 : 1280} px)`, async () => {
      const { context, page } = await h.page({ phone });
      await context.grantPermissions(['clipboard-read', 'clipboard-write']);
      await page.click('#tab-sessions');
      await page.locator(`.session-row[data-id="${ID}"]`).click();
      const box = page.locator('#s-turns');
      await box.locator('.turn-text table').waitFor();
      expect(await box.locator('.turn-text table th').allTextContents()).toEqual(['file', 'status']);
      expect(await box.locator('.turn-text em').first().textContent()).toBe('summary');

      // Tool cards: collapsed, with `$ cmd`, a file chip and the edit's counts; opened, the diff rows.
      const bash = box.locator('details.tr-tool-bash');
      expect(await bash.getAttribute('open')).toBeNull();
      expect(await bash.locator('summary').textContent()).toBe('$ npm test');
      expect(await box.locator('details.tr-tool-read summary').textContent()).toBe('📄 /repo/src/a.ts');
      const edit = box.locator('details.tr-tool-edit');
      expect(await edit.locator('summary').textContent()).toBe('✏️ /repo/src/a.ts +1 −1');
      await bash.locator('summary').click();
      expect(await bash.locator('.tr-result').textContent()).toContain('Tests 42 passed');
      await edit.locator('summary').click();
      expect(await edit.locator('.tr-del').allTextContents()).toEqual(['-const a = 1;']);
      expect(await edit.locator('.tr-add').allTextContents()).toEqual(['+const a = 2;']);

      // Thinking: hidden until toggled.
      const thinking = box.locator('.tr-thinking').first();
      expect(await thinking.isVisible()).toBe(false);
      await page.click('.tr-thinking-toggle');
      expect(await thinking.isVisible()).toBe(true);
      expect(await thinking.textContent()).toContain('let me check the tests first');

      // The pasted image loads from the image route (img-src 'self').
      expect(await box.locator('img.tr-image').count()).toBe(1);
      await expect
        .poll(() =>
          page.evaluate(
            `(() => { const i = document.querySelector('#s-turns img.tr-image'); return i.complete ? i.naturalWidth : 0; })()`,
          ),
        )
        .toBeGreaterThan(0);

      // The copy button copies the code block.
      const pre = box.locator('.turn-text pre', { hasText: 'const answer' });
      await pre.locator('.tr-copy').click();
      await expect.poll(() => page.evaluate('navigator.clipboard.readText()')).toBe('const answer = 42;\n');

      if (phone) expect(await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth')).toBe(true);
      await edit.scrollIntoViewIfNeeded();
      await h.shot(page, phone ? 'transcript-390' : 'transcript-1280');

      // Scrolling up walks the whole history back to the first message, each message once.
      for (let i = 0; i < 40 && (await box.locator('.tr-start').count()) === 0; i += 1) {
        await page.evaluate(`document.getElementById('s-turns').scrollTo(0, 0)`);
        await page.waitForTimeout(150);
      }
      await box.locator('.tr-start').waitFor();
      const ns = await page.evaluate(
        `[...document.querySelectorAll('#s-turns .turn')].map((n) => Number(n.dataset.n))`,
      );
      expect(ns).toEqual(Array.from({ length: TOTAL }, (_, i) => i));
      expect(await box.locator('.turn').first().textContent()).toContain(FIRST_PROMPT);
    });
  }
});
