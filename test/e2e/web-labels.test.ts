// The sessions page's labels in a real browser: a web-origin session says it came from the web
// console, corrupted / empty / untitled sessions come last under a line with their count, and
// `/list` typed in the console shows its entries numbered 1, 2, 3 (zh and en).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { upsertSession } from '../../src/sessions/registry/registry.js';
import { fakeSession } from '../fakes/fake-session-directory.js';
import { HAS_CHROMIUM, SESSION_ID, startWebHarness, type WebHarness } from './web-harness.js';

const WEB_ID = 'a1b2c3d4-0000-4000-8000-00000000000a';
const EMPTY_ID = 'a1b2c3d4-0000-4000-8000-00000000000b';

describe.skipIf(!HAS_CHROMIUM)('web console: session labels and order (chromium)', () => {
  let h: WebHarness;

  beforeAll(async () => {
    h = await startWebHarness();
    const now = Date.now();
    // The newest of all is empty: it still comes after the sessions with messages.
    await upsertSession(h.bh.paths, EMPTY_ID, {
      cwd: '/w/empty',
      origin: 'cli',
      title: null,
      status: 'active',
      jsonl_path: '/w/empty.jsonl',
      message_count: 0,
      last_active: new Date(now + 60_000).toISOString(),
    });
    await upsertSession(h.bh.paths, WEB_ID, {
      cwd: '/w/web',
      origin: 'web',
      feishu_user_id: 'web:owner',
      title: '网页里开的会话',
      status: 'active',
      jsonl_path: '/w/web.jsonl',
      message_count: 2,
      last_active: new Date(now - 60_000).toISOString(),
    });
    for (const [i, id] of ['b0000001', 'b0000002'].entries())
      h.bh.sessions.sessions.set(
        `${id}-0000-4000-8000-000000000000`,
        fakeSession(`${id}-0000-4000-8000-000000000000`, {
          title: `Bridge session ${i + 2}`,
          last_active: new Date(now - (i + 1) * 3_600_000).toISOString(),
        }),
      );
  }, 30_000);
  afterAll(() => h?.close());

  for (const [locale, webLabel, divider] of [
    ['zh-CN', '网页控制台', '以下 1 个会话为空、无标题或已损坏'],
    ['en-US', 'Web console', '1 empty, untitled or corrupted sessions below'],
  ] as const) {
    it(`labels a web-origin session and lists the empty one last under its count (${locale})`, async () => {
      const { page } = await h.page({ locale });
      await page.click('#tab-sessions');
      await page.locator(`.session-row[data-id="${EMPTY_ID}"]`).waitFor();
      const ids = await page
        .locator('#s-list .session-row')
        .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-id')));
      expect(ids).toEqual([SESSION_ID, WEB_ID, EMPTY_ID]);
      expect(await page.locator(`.session-row[data-id="${WEB_ID}"] .session-meta`).textContent()).toContain(webLabel);
      // The count line sits right before the first sparse row.
      const items = await page.locator('#s-list > li').evaluateAll((lis) => lis.map((li) => li.className));
      expect(items).toEqual(['', '', 'sparse-divider', '']);
      expect(await page.textContent('#s-list .sparse-divider')).toBe(divider);
      expect(await page.getAttribute(`.session-row[data-id="${EMPTY_ID}"]`, 'class')).toContain('sparse');
      await page.selectOption('#s-origin', 'web');
      await expect
        .poll(() => page.locator('#s-list .session-row').evaluateAll((r) => r.map((x) => x.getAttribute('data-id'))))
        .toEqual([WEB_ID]);
      await h.shot(page, `labels-sessions-${locale}`);
    });
  }

  it('numbers the entries of /list 1, 2, 3 — not 1, 1, 1', async () => {
    const { page } = await h.page();
    await page.click('#tab-sessions');
    // The composer is in a session's view; a command's reply belongs to no session: Activity.
    await page.locator(`.session-row[data-id="${SESSION_ID}"]`).click();
    await page.fill('#b-input', '/list');
    await page.press('#b-input', 'Enter');
    const card = page.locator('#b-log .card', { has: page.locator('ol') }).last();
    await card.waitFor();
    // `start` as the browser reads it (the attribute, or 1 without one).
    const lists = await card.locator('ol').evaluateAll((ols) => ols.map((o) => Number(o.getAttribute('start') ?? 1)));
    expect(lists).toEqual([1, 2, 3]);
    // Each entry's id and meta lines stay inside its numbered item.
    expect(await card.locator('ol').nth(1).locator('li').innerText()).toMatch(/Bridge session 3\s+ID: b0000002/);
    await h.shot(page, 'labels-list-numbers');
  });

  // Last: it stops the bridge.
  it('shows the graceful stop: a banner (zh and en), and the running card says it is stopping', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    h.bh.engine.onSend = async (req) => {
      if (req.prompt === 'long job') await gate;
    };
    const { page } = await h.page();
    const { page: en } = await h.page({ locale: 'en-US' });
    await page.click('#tab-sessions');
    await page.locator(`.session-row[data-id="${SESSION_ID}"]`).click();
    await page.click('#s-continue');
    await page.locator('#toast:not([hidden])').waitFor();
    await page.fill('#b-input', 'long job');
    await page.press('#b-input', 'Enter');
    await page.locator('#s-live .card-processing').waitFor();
    expect(await page.isHidden('#stopping')).toBe(true);
    const stopped = h.bh.bridge.stop(20_000);
    try {
      await page.locator('#stopping:not([hidden])').waitFor();
      expect(await page.textContent('#stopping')).toMatch(/^cc-linker 正在停止：.*最迟到 .+ 完成/);
      await en.locator('#stopping:not([hidden])').waitFor();
      expect(await en.textContent('#stopping')).toMatch(/^cc-linker is stopping: .*have until /);
      const card = page.locator('#s-live .card-stopping');
      await card.waitFor();
      expect(await card.locator('.card-title').textContent()).toBe('⏸ 停止中…');
      expect(await card.locator('.sec-stopping').textContent()).toContain('下次启动后继续');
      await h.shot(page, 'labels-stopping');
    } finally {
      release();
      await stopped;
    }
  });
});
