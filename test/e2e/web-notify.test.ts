// Notifications in the console page, in a real browser: a `bridge.notify` event on the event
// stream puts a count in the title while the tab is hidden (cleared when it is shown) and raises a
// browser Notification only after the user allowed it with "Notify me" — never asked on load.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WEB_CHAT_ID, WEB_USER_ID } from '../../src/channels/web/web-channel.js';
import { HAS_CHROMIUM, startWebHarness, type WebHarness } from './web-harness.js';

// Runs before the page's scripts: a Notification that records what it is asked and shown (headless
// chromium has no notification UI), and a switch for the tab's visibility.
const INIT = `(() => {
  window.__notes = { requests: 0, shown: [] };
  class RecordingNotification {
    static permission = 'default';
    static async requestPermission() {
      window.__notes.requests += 1;
      RecordingNotification.permission = 'granted';
      return 'granted';
    }
    constructor(title, options) { window.__notes.shown.push({ title, body: options.body }); }
    close() {}
  }
  window.Notification = RecordingNotification;
  let hidden = false;
  Object.defineProperty(document, 'hidden', { get: () => hidden });
  Object.defineProperty(document, 'visibilityState', { get: () => (hidden ? 'hidden' : 'visible') });
  window.__setHidden = (h) => { hidden = h; document.dispatchEvent(new Event('visibilitychange')); };
})()`;

describe.skipIf(!HAS_CHROMIUM)('web console: notifications (chromium)', () => {
  let h: WebHarness;
  beforeAll(async () => {
    h = await startWebHarness({ lang: 'en' }); // the page's language is general.language's
  }, 30_000);
  afterAll(() => h?.close());

  it('title badge while hidden, cleared when shown; a Notification only after Notify me', async () => {
    const context = await h.browser.newContext({ locale: 'en-US', viewport: { width: 1280, height: 900 } });
    await context.addInitScript(INIT);
    const page = await context.newPage();
    page.setDefaultTimeout(10_000);
    await page.goto(h.web.url);
    await page.locator('#tool-badge[data-status]:not([data-status="unknown"])').waitFor();
    const target = { channel: 'web', userId: WEB_USER_ID, chatId: WEB_CHAT_ID };
    const notes = () => page.evaluate('window.__notes') as Promise<{ requests: number; shown: unknown[] }>;

    expect(await page.title()).toBe('cc-linker');
    expect(await page.locator('#notify-toggle').textContent()).toContain('Notify me');
    // Hidden, not allowed yet: the badge only, and nobody asked for permission.
    await page.evaluate('window.__setHidden(true)');
    await h.web.channel.notify(target, 'wm_card1', '✅ Done: refactor (3 min 12 s)', 'key-1');
    await expect.poll(() => page.title()).toBe('(1) cc-linker');
    expect(await notes()).toEqual({ requests: 0, shown: [] });
    await page.evaluate('window.__setHidden(false)');
    await expect.poll(() => page.title()).toBe('cc-linker');

    // The user turns notifications on beside the conversation's Send (a click: the only place permission is asked).
    await page.click('#tab-sessions');
    await page.click('#notify-toggle');
    await expect.poll(() => page.getAttribute('#notify-toggle', 'aria-pressed')).toBe('true');
    await page.evaluate('window.__setHidden(true)');
    await h.web.channel.notify(target, 'wm_card2', '⚠️ Waiting for your approval: Bash: npm test', 'key-2');
    await expect.poll(() => page.title()).toBe('(1) cc-linker');
    expect(await notes()).toEqual({
      requests: 1,
      shown: [{ title: 'cc-linker', body: '⚠️ Waiting for your approval: Bash: npm test' }],
    });
    await page.evaluate('window.__setHidden(false)');
    await expect.poll(() => page.title()).toBe('cc-linker');

    // Visible: a toast instead, no count.
    await h.web.channel.notify(target, 'wm_card3', '❌ Failed: build (2 min 0 s)', 'key-3');
    await expect.poll(() => page.textContent('#toast')).toBe('❌ Failed: build (2 min 0 s)');
    expect(await page.title()).toBe('cc-linker');
    expect((await notes()).shown).toHaveLength(1);
    await h.shot(page, 'notify-toggle-on');
    await context.close();
  });
});
