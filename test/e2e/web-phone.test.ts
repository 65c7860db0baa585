// The console on a phone (360, 390, 430 px) and as an installable app, in a real Chromium: no view
// scrolls sideways even with a long title, a long path and wide code; tap targets of 40 px; the
// list → session → back flow with the session at the top of the screen and its composer in view;
// side by side at 1280 px. Then the PWA: manifest, icons, the service worker controlling the page,
// Cache Storage holding the shell and never an API answer, and the login never hidden by the cache.
import fs from 'node:fs';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { upsertSession } from '../../src/sessions/registry/registry.js';
import { createRng, encodeCwd, writeSession } from '../fixtures/claude-tree.js';
import { HAS_CHROMIUM, SESSION_ID, startWebHarness, type WebHarness } from './web-harness.js';

const LONG_ID = '5d0e2f41-7a3b-4c6d-8e9f-0a1b2c3d4e5f';
const LONG_TITLE = 'AnUnbrokenSessionTitleThatNeverWraps'.repeat(6);
const LONG_DIR = 'a-directory-name-without-any-place-to-break-it'.repeat(3);
const WIDE_CODE = `\`\`\`\n${'const wide = "no line break here";'.repeat(12)}\n\`\`\``;
const WIDTHS = [360, 390, 430];

/** What a phone check measures on the current page. */
interface Fit {
  scrollWidth: number;
  innerWidth: number;
  /** Visible controls smaller than 40 × 40 px. */
  small: string[];
  topbarHeight: number;
  tabsOverflow: boolean;
  /** The elements reaching past the right edge (to say what widened the page). */
  wide: string[];
}

// Runs in the page (a string: the project's TypeScript has no DOM types). Lists the visible controls
// under 40 × 40 px, and the elements and runs of text reaching past the right edge (what widened the page).
const MEASURE = `(() => {
  const name = (e, right) => e.tagName.toLowerCase() + '#' + e.id + '.' + e.className + ' ' + Math.round(right);
  const wide = [];
  for (const e of document.querySelectorAll('body *')) {
    const right = e.getBoundingClientRect().right;
    if (right > innerWidth + 0.5) wide.push(name(e, right));
  }
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const range = document.createRange();
    range.selectNodeContents(n);
    const right = range.getBoundingClientRect().right;
    if (right > innerWidth + 0.5 && n.parentElement) wide.push('text in ' + name(n.parentElement, right));
  }
  const small = [];
  for (const e of document.querySelectorAll('button, select, input, textarea, summary, a[href], [role="tab"]')) {
    if (!e.checkVisibility() || e.closest('.sr-only')) continue;
    // A checkbox is tapped through its label.
    const target = (e.type === 'checkbox' || e.type === 'radio') && e.closest('label') ? e.closest('label') : e;
    const r = target.getBoundingClientRect();
    if (r.height < 40 || r.width < 40) small.push(name(e, r.right) + ' ' + Math.round(r.width) + 'x' + Math.round(r.height));
  }
  const tabs = document.querySelector('.tabs');
  return {
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth,
    small,
    topbarHeight: document.querySelector('.topbar')?.getBoundingClientRect().height ?? 0,
    tabsOverflow: tabs ? tabs.scrollWidth > tabs.clientWidth : false,
    wide: wide.slice(0, 8),
  };
})()`;

const measure = (page: Page): Promise<Fit> => page.evaluate(MEASURE) as Promise<Fit>;

/** The view fits the phone: nothing sideways, big enough targets, a one-line topbar. */
async function expectFits(page: Page, what: string): Promise<void> {
  const fit = await measure(page);
  expect(fit.scrollWidth, `${what}: page width (${fit.wide.join(', ')})`).toBeLessThanOrEqual(fit.innerWidth);
  expect(fit.small, `${what}: small tap targets`).toEqual([]);
  expect(fit.topbarHeight, `${what}: topbar on one line`).toBeLessThan(64);
  expect(fit.tabsOverflow, `${what}: tabs fit`).toBe(false);
}

/** The element's box relative to the viewport, and the viewport's height. */
const box = (page: Page, sel: string) =>
  page.evaluate(`(() => {
    const r = document.querySelector(${JSON.stringify(sel)}).getBoundingClientRect();
    return { top: r.top, bottom: r.bottom, left: r.left, right: r.right, innerHeight };
  })()`) as Promise<{ top: number; bottom: number; left: number; right: number; innerHeight: number }>;

/** The page's vertical scroll position. */
const scrollY = (page: Page) => page.evaluate('scrollY') as Promise<number>;

describe.skipIf(!HAS_CHROMIUM)('web console on a phone, and as an installable app (chromium)', () => {
  let h: WebHarness;
  const contexts: BrowserContext[] = [];

  /** A logged-in page `width` px wide, phone-like (touch, DPR 2). */
  async function phone(width: number): Promise<Page> {
    const context = await h.browser.newContext({
      locale: 'zh-CN',
      viewport: { width, height: 800 },
      deviceScaleFactor: 2,
      isMobile: true,
      hasTouch: true,
    });
    contexts.push(context);
    const page = await context.newPage();
    page.setDefaultTimeout(10_000);
    await page.goto(h.web.url);
    await page.locator('#tool-badge[data-status]:not([data-status="unknown"])').waitFor();
    return page;
  }

  beforeAll(async () => {
    h = await startWebHarness();
    const cwd = path.join(h.bh.home, 'Git', LONG_DIR);
    fs.mkdirSync(cwd, { recursive: true });
    const written = writeSession(
      h.bh.paths.claudeDir,
      {
        id: LONG_ID,
        cwd,
        start: new Date('2026-05-02T10:00:00Z'),
        turns: [{ prompt: 'show me the wide code', answer: `Here:\n\n${WIDE_CODE}\n\nand \`${LONG_DIR}\`` }],
      },
      createRng(5),
    );
    await upsertSession(h.bh.paths, LONG_ID, {
      cwd,
      origin: 'cli',
      title: LONG_TITLE,
      project_name: LONG_DIR,
      jsonl_path: written.file,
      project_dir: encodeCwd(cwd),
      status: 'active',
      last_active: new Date().toISOString(),
      message_count: 2,
      last_message_preview: 'Here:',
    });
    // A wide reply in the session's live turns: the harness's session, whose fake engine echoes.
    const { page } = await h.page();
    await page.click('#tab-sessions');
    await page.locator(`.session-row[data-id="${SESSION_ID}"]`).click();
    await page.fill('#b-input', `${WIDE_CODE}\n${LONG_TITLE}`);
    await page.press('#b-input', 'Enter');
    await page.locator('#s-live .card-complete', { hasText: 'echo:' }).waitFor();
  }, 60_000);
  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => undefined);
    await h?.close();
  });

  for (const width of WIDTHS) {
    it(`fits ${width} px: every view, list → session → back`, async () => {
      const page = await phone(width);
      const shot = (name: string) => h.shot(page, `phone-${name}-${width}`);
      await expectFits(page, 'chat');
      await shot('chat');

      await page.click('#tab-sessions');
      const row = page.locator(`.session-row[data-id="${LONG_ID}"]`);
      await row.waitFor();
      expect(await page.locator('.col-detail').isVisible()).toBe(false); // only the list
      await expectFits(page, 'sessions list');
      await shot('list');

      // The new-session form with its directory picker showing the long directory.
      await page.click('#dir-roots');
      await page.locator('#dir-list .dir-enter', { hasText: '~/Git' }).click();
      await page.locator('#dir-list .dir-enter', { hasText: LONG_DIR }).waitFor();
      await expectFits(page, 'new-session form');
      await shot('new');

      // Tap a session scrolled far down: it opens at the top, the list gives way, the composer is in view.
      await row.scrollIntoViewIfNeeded();
      await page.evaluate('scrollTo(0, document.documentElement.scrollHeight)');
      const listScroll = await scrollY(page);
      expect(listScroll).toBeGreaterThan(0);
      await row.tap();
      await page.locator(`#view-sessions[data-open-session="${LONG_ID}"]`).waitFor();
      await page.locator('#s-turns pre').waitFor();
      expect(await scrollY(page)).toBe(0);
      expect(await page.locator('.col-list').isVisible()).toBe(false);
      const back = await box(page, '#s-back');
      expect(back.top).toBeGreaterThanOrEqual(0);
      expect(back.bottom).toBeLessThan(200);
      const title = await box(page, '#s-detail-title');
      expect(title.top).toBeLessThan(title.innerHeight);
      const composer = await box(page, '#b-form');
      expect(composer.top).toBeGreaterThanOrEqual(0);
      expect(composer.bottom).toBeLessThanOrEqual(composer.innerHeight);
      expect(await page.textContent('#s-detail-meta')).toContain(LONG_DIR);
      // A markdown table (the transcript renders GFM) scrolls inside its own box too.
      const cells = Array.from({ length: 12 }, (_, i) => `<td>column-${i}-with-long-content</td>`).join('');
      const table = `<div class="turn turn-text"><table><tr>${cells}</tr></table></div>`;
      await page.evaluate(
        `document.getElementById('s-turns').insertAdjacentHTML('beforeend', ${JSON.stringify(table)})`,
      );
      await expectFits(page, 'open session');
      await shot('session');
      // The composer stays reachable at the bottom of a long session too.
      await page.evaluate('scrollTo(0, document.documentElement.scrollHeight / 2)');
      const mid = await box(page, '#b-form');
      expect(mid.bottom).toBeLessThanOrEqual(mid.innerHeight);
      expect(mid.top).toBeGreaterThanOrEqual(0);

      await page.tap('#s-back');
      await expect.poll(() => page.getAttribute('#view-sessions', 'data-open-session')).toBeNull();
      expect(await page.locator('.col-detail').isVisible()).toBe(false);
      expect(await row.isVisible()).toBe(true);
      expect(await scrollY(page)).toBe(listScroll);

      await page.click('#tab-status');
      await page.locator('#status-body [data-channel="web"]').waitFor();
      await expectFits(page, 'status');
      await shot('status');

      await page.click('#lang-toggle'); // English labels are longer
      await expectFits(page, 'status (en)');

      // The login page, in a context without the login.
      const fresh = await h.browser.newContext({ viewport: { width, height: 800 }, isMobile: true, hasTouch: true });
      contexts.push(fresh);
      const login = await fresh.newPage();
      await login.goto(new URL('/', h.web.url).href);
      await login.locator('#token').waitFor();
      const fit = await measure(login);
      expect(fit.scrollWidth).toBeLessThanOrEqual(fit.innerWidth);
      expect(fit.small).toEqual([]);
      await h.shot(login, `phone-login-${width}`);
    }, 60_000);
  }

  it('shows the list and the open session side by side at 1280 px', async () => {
    const { page } = await h.page();
    await page.click('#tab-sessions');
    await page.locator(`.session-row[data-id="${LONG_ID}"]`).click();
    await page.locator('#s-turns pre').waitFor();
    const list = await box(page, '.col-list');
    const detail = await box(page, '.col-detail');
    expect(detail.left).toBeGreaterThanOrEqual(list.right);
    expect(Math.abs(detail.top - list.top)).toBeLessThan(4);
    // Both stay visible; the back button closes the session (its route goes back to `#/sessions`).
    expect(await page.locator('.col-list').isVisible()).toBe(true);
    expect(await page.locator('#s-back').isVisible()).toBe(true);
    const fit = await measure(page);
    expect(fit.scrollWidth, fit.wide.join(', ')).toBeLessThanOrEqual(fit.innerWidth);
    await h.shot(page, 'desktop-1280');
  });

  it('is installable: manifest and icons, a worker that controls the page and caches the shell only', async () => {
    const { context, page } = await h.page({ phone: true });
    const manifest = (await page.evaluate(`(async () => {
      const res = await fetch(document.querySelector('link[rel="manifest"]').href, { credentials: 'include' });
      return { type: res.headers.get('content-type'), body: await res.json() };
    })()`)) as { type: string; body: Record<string, unknown> };
    expect(manifest.type).toBe('application/manifest+json');
    expect(manifest.body).toMatchObject({ name: expect.any(String), short_name: 'cc-linker', start_url: '/' });
    expect(manifest.body.display).toBe('standalone');
    expect(manifest.body.theme_color).toMatch(/^#/);
    expect(manifest.body.background_color).toMatch(/^#/);
    const icons = manifest.body.icons as Array<{ src: string; sizes: string; purpose?: string }>;
    expect(icons.map((i) => i.sizes)).toEqual(expect.arrayContaining(['192x192', '512x512']));
    expect(icons.some((i) => i.purpose === 'maskable')).toBe(true);
    for (const icon of [...icons, { src: '/assets/icons/apple-touch-icon.png', sizes: '180x180' }]) {
      const size = await page.evaluate(`(async () => {
        const img = new Image();
        img.src = ${JSON.stringify(icon.src)};
        await img.decode();
        return img.naturalWidth + 'x' + img.naturalHeight;
      })()`);
      expect(size, icon.src).toBe(icon.sizes);
    }

    await page.evaluate('navigator.serviceWorker.ready.then(() => undefined)');
    await page.reload();
    await page.locator('#tool-badge[data-status]:not([data-status="unknown"])').waitFor();
    expect(await page.evaluate('navigator.serviceWorker.controller?.scriptURL')).toMatch(/\/assets\/sw\.js$/);
    // The page used the API (sessions, a session, the status) under the worker's control.
    await page.click('#tab-sessions');
    await page.locator(`.session-row[data-id="${LONG_ID}"]`).tap();
    await page.locator('#s-turns pre').waitFor();
    const cached = (): Promise<string[]> =>
      page.evaluate(`(async () => {
        const urls = [];
        for (const name of await caches.keys())
          for (const req of await (await caches.open(name)).keys()) urls.push(new URL(req.url).pathname);
        return urls;
      })()`) as Promise<string[]>;
    const urls = await cached();
    for (const shell of [
      '/',
      '/assets/app.js',
      '/assets/styles.css',
      '/assets/phone.css',
      '/assets/icons/icon-192.png',
    ])
      expect(urls, shell).toContain(shell);
    expect(urls.filter((u) => u.startsWith('/api/'))).toEqual([]);
    expect(await page.evaluate('caches.keys()')).toHaveLength(1);

    // No login, same worker and cache: the server's login page shows, never the cached shell.
    await context.clearCookies();
    await page.goto(new URL('/', h.web.url).href);
    await page.locator('#token').waitFor();
    expect(await page.locator('#tab-chat').count()).toBe(0);
    expect((await cached()).filter((u) => u.startsWith('/api/'))).toEqual([]);
  }, 60_000);
});
