// The sessions pages in a real browser: the real bridge (spool, dispatcher, pending prompts) with a
// fake Claude engine that asks for permission, the real registry, the console as a bridge channel.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HAS_CHROMIUM, SESSION_ID, startWebHarness, type WebHarness } from './web-harness.js';

describe.skipIf(!HAS_CHROMIUM)('web console: sessions pages (chromium)', () => {
  let h: WebHarness;

  beforeAll(async () => {
    h = await startWebHarness();
    h.bh.engine.onSend = async (req, opts) => {
      if (!req.prompt.startsWith('run the tests')) return;
      const decision = await opts.permissions?.requestPermission(
        {
          id: 'toolu_web_1',
          toolName: 'Bash',
          summary: 'npm test',
          input: { command: 'npm test' },
          suggestions: ['Bash(npm test:*)'],
        },
        opts.signal ?? new AbortController().signal,
      );
      return { text: decision?.behavior === 'allow' ? 'tests passed ✅ **42** green' : 'not allowed' };
    };
  }, 30_000);
  afterAll(() => h?.close());

  it('continues a registry session through the bridge and approves a permission prompt', async () => {
    const { page } = await h.page();
    await page.click('#tab-sessions');
    const row = page.locator(`.session-row[data-id="${SESSION_ID}"]`);
    await row.waitFor();
    expect(await row.locator('.session-title').textContent()).toBe('梳理 README');
    await page.fill('#s-q', 'nothing-matches-this');
    await page.locator('#s-list .empty').waitFor();
    await page.fill('#s-q', 'readme');
    await row.click();
    await page.locator('#s-turns .turn-assistant').waitFor();
    expect(await page.locator('#s-turns .turn-assistant').textContent()).toContain('README 介绍了');
    await page.click('#s-continue');
    await page.locator('#toast:not([hidden])').waitFor();
    expect(await page.textContent('#toast')).toContain('README');

    await page.fill('#b-input', 'run the tests please');
    await page.press('#b-input', 'Enter');
    const prompt = page.locator('#s-live .card-warning', { has: page.locator('button[data-button]') });
    await prompt.waitFor();
    expect(await prompt.locator('button').allTextContents()).toEqual(['允许', '拒绝', '始终允许']);
    expect(await prompt.textContent()).toContain('npm test');
    await h.shot(page, 'sessions-permission-prompt');
    // The status view (loaded at start with 0) is pushed over SSE while the prompt waits.
    await expect
      .poll(() => page.textContent('#status-body [data-key="stPrompts"] .stat-value'), { timeout: 5000 })
      .toBe('1');
    await prompt.locator('button[data-button="0"]').click();
    await page.locator('#s-live .card-complete', { hasText: 'tests passed' }).waitFor();
    expect(await page.locator('#s-live .card-complete strong', { hasText: '42' }).count()).toBe(1);
    expect(await page.locator('#s-live', { hasText: '已允许' }).count()).toBe(1);
    const req = h.bh.engine.requests.at(-1);
    expect(req).toMatchObject({
      sessionId: SESSION_ID,
      prompt: 'run the tests please',
      cwd: path.join(h.bh.home, 'Git', 'alpha'),
      userId: 'web:owner',
    });
    await h.shot(page, 'sessions-permission-approved');
  });

  it('refuses a new session outside the allowed roots, with the message visible', async () => {
    fs.mkdirSync(path.join(h.bh.home, 'outside'), { recursive: true });
    const before = h.bh.engine.requests.length;
    const { page } = await h.page({ phone: true });
    await page.click('#tab-sessions');
    await page.fill('#dir-path', path.join(h.bh.home, 'outside'));
    await page.fill('#new-prompt', 'hi');
    await page.click('#new-start');
    await page.locator('#new-error:not([hidden])').waitFor();
    const text = (await page.textContent('#new-error')) ?? '';
    expect(text).toContain('~/Git');
    expect(text).toContain('~/outside');
    await page.fill('#dir-path', '/etc');
    await page.click('#new-start');
    await expect.poll(() => page.textContent('#new-error')).toContain('/etc');
    expect(h.bh.engine.requests.length).toBe(before);
    expect(await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth')).toBe(true);
    await page.locator('#new-error').scrollIntoViewIfNeeded();
    await h.shot(page, 'sessions-new-refused-phone');
  });

  it('starts a new session in a directory picked within the roots; the reply streams in', async () => {
    const { page } = await h.page();
    await page.click('#tab-sessions');
    await page.click('#dir-roots');
    await page.locator('#dir-list .dir-enter', { hasText: '~/Git' }).click();
    await page.locator('#dir-list .dir-enter', { hasText: 'beta' }).waitFor();
    expect(await page.locator('#dir-list .dir-enter').allTextContents()).toEqual(['📁 alpha', '📁 beta']);
    await page.locator('#dir-list .dir-row', { hasText: 'beta' }).locator('.dir-use').click();
    expect(await page.inputValue('#dir-path')).toBe(path.join(h.bh.home, 'Git', 'beta'));
    await page.fill('#new-prompt', '你好，新项目');
    await page.click('#new-start');
    // The page opens the new session once its reply names it; the reply streams into its view.
    await page.locator('#s-live .card-complete', { hasText: 'echo: 你好，新项目' }).waitFor();
    expect(await page.getAttribute('#view-sessions', 'data-open-session')).toBe(h.bh.engine.created.at(-1));
    const req = h.bh.engine.requests.at(-1);
    expect(req).toMatchObject({ prompt: '你好，新项目', cwd: path.join(h.bh.home, 'Git', 'beta') });
    expect(req?.sessionId).toBeUndefined();
  });

  it('renders hostile reply text inert (escaped, no markup executes)', async () => {
    const { page } = await h.page();
    await page.click('#tab-sessions');
    const evil = '<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script> **bold**';
    await page.locator(`.session-row[data-id="${SESSION_ID}"]`).click();
    await page.fill('#b-input', evil);
    await page.press('#b-input', 'Enter');
    const reply = page.locator('#s-live .card-complete', { hasText: 'echo: <img' });
    await reply.waitFor();
    expect(await page.locator('#s-live img, #s-live script').count()).toBe(0);
    expect(await page.evaluate('window.__pwned')).toBeUndefined();
    expect(await reply.locator('strong').textContent()).toBe('bold');
    expect(await page.locator('#s-live .msg-user').last().textContent()).toBe(evil);
  });

  it('shows the status view: queue, running, channel states (Feishu disconnected)', async () => {
    const { page } = await h.page({ phone: true });
    await page.click('#tab-status');
    await page.locator('#status-body [data-channel="feishu"]').waitFor();
    expect(await page.textContent('#status-body [data-channel="feishu"]')).toContain('未连接');
    expect(await page.textContent('#status-body [data-channel="web"]')).toContain('已连接');
    expect(await page.textContent('#status-body [data-key="stPending"] .stat-value')).toBe('0');
    expect(await page.getAttribute('#status-body .cli-status', 'data-status')).toBe('available');
    await h.shot(page, 'status-phone');
  });
});
