// The session navigation in a real browser: 602 sessions reachable by scrolling, grouping by
// project, deep links `#/sessions/<id>` with Back, and a composer aimed at one session — with the
// mapping on B, a message sent from A's view runs in A and its reply streams into A's view only.
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeSession } from '../fakes/fake-session-directory.js';
import { addManySessions, manyId } from '../fixtures/many-sessions.js';
import { WEB_USER_ID } from '../../src/channels/web/web-channel.js';
import { HAS_CHROMIUM, SESSION_ID, startWebHarness, type WebHarness } from './web-harness.js';

const A = SESSION_ID;
const B = manyId(1);

describe.skipIf(!HAS_CHROMIUM)('web console: session navigation (chromium)', () => {
  let h: WebHarness;
  let alpha: string;

  beforeAll(async () => {
    h = await startWebHarness();
    alpha = path.join(h.bh.home, 'Git', 'alpha');
    await addManySessions(h.bh.paths, path.join(h.bh.home, 'Git'), 601, { projects: 3 });
    h.bh.sessions.sessions.set(B, fakeSession(B, { cwd: alpha, title: 'Session 0001' }));
  }, 30_000);
  afterAll(() => h?.close());

  const origin = () => new URL(h.web.url).origin;

  /** Scrolls the list's sentinel into view until the last session is there. */
  async function scrollToEnd(page: Page): Promise<void> {
    const last = page.locator('#s-list .session-row', { hasText: 'Session 0601' });
    for (let i = 0; i < 20 && (await last.count()) === 0; i += 1) {
      const sentinel = page.locator('#s-list .list-sentinel');
      if ((await sentinel.count()) > 0) await sentinel.scrollIntoViewIfNeeded();
      await page.waitForTimeout(150);
    }
    await last.waitFor();
  }

  for (const phone of [false, true]) {
    const size = phone ? 390 : 1280;
    it(`reaches every session, groups, deep-links and sends only to the open session (${size} px)`, async () => {
      const { page } = await h.page({ phone });
      await page.click('#tab-sessions');
      await expect.poll(() => page.textContent('#s-count')).toBe('602 个会话');
      expect(await page.locator('#s-list .session-row').count()).toBe(100);
      await scrollToEnd(page);
      expect(await page.locator('#s-list .session-row').count()).toBe(602);
      await h.shot(page, `nav-list-end-${size}`);

      // Group by project, remembered across a reload.
      await page.locator('#s-list .session-row').first().scrollIntoViewIfNeeded();
      await page.check('#s-group');
      await page.locator('.project-group').first().waitFor();
      expect(await page.locator('.project-group').count()).toBe(4);
      await page.reload();
      await page.click('#tab-sessions');
      await page.locator('.project-group').first().waitFor();
      expect(await page.isChecked('#s-group')).toBe(true);
      const group = page.locator('.project-group[data-project="proj-1"]');
      await group.locator('summary').click();
      await group.locator('.session-row').first().waitFor();
      expect(await group.locator('.session-row').count()).toBe(100);
      await h.shot(page, `nav-grouped-${size}`);
      await page.uncheck('#s-group');
      await page.locator('#s-list > li > .session-row').first().waitFor();

      // A deep link opens the session directly; its composer names the target.
      await page.goto(`${origin()}/#/sessions/${A}`);
      await expect.poll(() => page.textContent('#s-detail-title')).toContain('梳理 README');
      expect(await page.getAttribute('#view-sessions', 'data-open-session')).toBe(A);
      const target = (await page.textContent('#s-target')) ?? '';
      expect(target).toContain('梳理 README');
      expect(target).toContain('~/Git/alpha');
      expect(target).toContain('Claude Code');
      await h.shot(page, `nav-deep-link-${size}`);

      // With the mapping on B, a message from A's view runs in A and streams into A's view.
      await h.bh.mapping.setSession(WEB_USER_ID, { sessionUuid: B, cwd: alpha });
      const text = `hello A at ${size}`;
      await page.fill('#b-input', text);
      await page.press('#b-input', 'Enter');
      await page.locator('#s-live .card-complete', { hasText: `echo: ${text}` }).waitFor();
      expect(h.bh.engine.requests.at(-1)).toMatchObject({ prompt: text, sessionId: A });
      expect(await page.locator('#b-log', { hasText: text }).count()).toBe(0);
      await h.shot(page, `nav-sent-to-a-${size}`);

      // The back button returns to the list; a row opens B (pushed), Back returns to the list.
      await page.click('#s-back');
      await expect.poll(() => page.evaluate('location.hash')).toBe('#/sessions');
      expect(await page.getAttribute('#view-sessions', 'data-open-session')).toBeNull();
      await page.locator(`#s-list .session-row[data-id="${B}"]`).click();
      await expect.poll(() => page.getAttribute('#view-sessions', 'data-open-session')).toBe(B);
      expect(await page.evaluate('location.hash')).toBe(`#/sessions/${B}`);
      expect(await page.locator('#s-live', { hasText: text }).count()).toBe(0);
      await page.goBack();
      await expect.poll(() => page.getAttribute('#view-sessions', 'data-open-session')).toBeNull();
      expect(await page.evaluate('location.hash')).toBe('#/sessions');

      // An unknown id says so.
      const unknown = manyId(9999);
      await page.goto(`${origin()}/#/sessions/${unknown}`);
      await page.locator('#s-missing:not([hidden])').waitFor();
      expect(await page.textContent('#s-missing')).toContain(unknown);
      await h.shot(page, `nav-unknown-${size}`);
    }, 60_000);
  }
});
