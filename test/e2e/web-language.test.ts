// One language on the console page (docs/design.md#language): `general.language` ("en" here) is the
// page's default even in a Chinese browser; the toggle overrides it for that browser and is
// remembered across a reload (and by the login page, through its cookie); tool cards — cancelled,
// refused — read in the page's language, the gate's own English reason quoted. 1280 and 390 px.
import type { Locator } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openaiTextTurn, openaiToolCallTurn } from '../fakes/fake-llm/fake-openai-server.js';
import { foreignRuns } from '../helpers/one-language.js';
import { HAS_CHROMIUM, startWebHarness, type WebHarness } from './web-harness.js';

const cc = (command: string, subargs: string[]) => JSON.stringify({ command, subargs });
/** What the page itself writes on a card: its status, exit badge and reason line (not the command line, which is code). */
const labelsOf = async (card: Locator) =>
  (await card.locator('.tool-status, .tool-exit, .tool-reason').allInnerTexts()).join('\n');
const WIDTHS = [
  { name: '1280', phone: false },
  { name: '390', phone: true },
] as const;

describe.skipIf(!HAS_CHROMIUM)('web console: one language (chromium)', () => {
  let h: WebHarness;

  beforeAll(async () => {
    h = await startWebHarness({ lang: 'en' });
  }, 30_000);
  afterAll(async () => {
    await h?.close();
  });

  for (const { name, phone } of WIDTHS) {
    it(`general.language = "en" wins over a Chinese browser; cancelled and refused cards read in English (${name} px)`, async () => {
      const { page } = await h.page({ phone, locale: 'zh-CN' });
      await expect.poll(() => page.textContent('#tab-chat')).toBe('AI chat');
      expect(await page.getAttribute('html', 'lang')).toBe('en');

      // A refused call: the page's label, then the gate's own reason in quotes.
      h.gw.openai.enqueue(
        openaiToolCallTurn({ id: `call_d${name}`, name: 'cc_exec', argPieces: [cc('note', ['delete', '--all'])] }),
        openaiTextTurn('That is not supported.'),
      );
      await page.fill('#chat-input', 'delete all my notes');
      await page.press('#chat-input', 'Enter');
      await page.locator('.msg-end[data-state="COMPLETE"]').waitFor();
      const refused = page.locator('.tool-card.tool-refused').last();
      expect(await refused.locator('.tool-status').textContent()).toBe('Refused');
      expect(await refused.locator('.tool-exit').textContent()).toBe('exit 126');
      expect(await refused.locator('.tool-reason').textContent()).toMatch(/^Refused by the allowlist: “.+”$/);
      expect(foreignRuns(await labelsOf(refused), 'en')).toEqual([]);

      // A cancelled call: "Cancelled", and neither the machine reason nor an exit code.
      await page.click('#new-chat');
      h.gw.openai.enqueue(
        openaiToolCallTurn({ id: `call_c${name}`, name: 'cc_exec', argPieces: [cc('skill', ['list'])] }),
      );
      await page.fill('#chat-input', 'which skills do I have?');
      await page.click('#chat-send');
      await page.locator('.tool-card[data-state="TOOL_RUNNING"]').waitFor();
      await page.keyboard.press('Escape');
      await page.locator('.msg-end[data-state="CANCELLED"]').waitFor();
      const cancelled = page.locator('.tool-card.tool-stopped').last();
      await expect.poll(() => cancelled.locator('.tool-status').textContent()).toBe('Cancelled');
      expect(await cancelled.innerText()).not.toMatch(/cancelled|exit/);
      // What the page writes around the chat (not its data — provider names, earlier prompts — nor
      // the toggle, which names the other language in that language).
      const pageTexts = await page
        .locator('.tool-card .tool-status, .msg-end, #tool-badge, [data-i18n]:not(#lang-toggle)')
        .allInnerTexts();
      expect(foreignRuns(pageTexts.join('\n'), 'en')).toEqual([]);
      if (!phone) expect(await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth')).toBe(true);
      await h.shot(page, `lang-en-${name}`);
      expect(h.gw.openai.pending()).toBe(0);
    }, 60_000);

    it(`the toggle to 中文 is remembered after a reload and by the login page; cards then read in Chinese (${name} px)`, async () => {
      const { context, page } = await h.page({ phone, locale: 'zh-CN' });
      await expect.poll(() => page.textContent('#tab-chat')).toBe('AI chat');
      await page.click('#lang-toggle');
      expect(await page.textContent('#tab-chat')).toBe('AI 对话');
      await page.reload();
      await page.locator('#tool-badge[data-status]:not([data-status="unknown"])').waitFor();
      // Past the server's answer (/api/settings says "en"), the saved choice still holds.
      await page.waitForLoadState('networkidle');
      expect(await page.textContent('#tab-chat')).toBe('AI 对话');
      expect(await page.getAttribute('html', 'lang')).toBe('zh-CN');
      const cookies = await context.cookies();
      expect(cookies.find((c) => c.name === 'ccl-lang')?.value).toBe('zh');
      // The login page runs no script: it follows the toggle's cookie, else general.language.
      const anon = await h.browser.newContext({ locale: 'en-US' });
      try {
        const url = new URL(h.web.url);
        await anon.addCookies([{ name: 'ccl-lang', value: 'zh', domain: url.hostname, path: '/' }]);
        const res = await anon.request.get(`${url.origin}/`, { headers: { Accept: 'text/html' } });
        expect(res.status()).toBe(401);
        expect(await res.text()).toContain('<html lang="zh-CN">');
        const plain = await h.browser.newContext({ locale: 'zh-CN' });
        const res2 = await plain.request.get(`${url.origin}/`, { headers: { Accept: 'text/html' } });
        expect(await res2.text()).toContain('<html lang="en">'); // general.language, not the browser
        await plain.close();
      } finally {
        await anon.close();
      }

      h.gw.openai.enqueue(
        openaiToolCallTurn({ id: `call_z${name}`, name: 'cc_exec', argPieces: [cc('note', ['delete', '--all'])] }),
        openaiTextTurn('暂不支持。'),
      );
      await page.fill('#chat-input', '把笔记都删了');
      await page.press('#chat-input', 'Enter');
      await page.locator('.msg-end[data-state="COMPLETE"]').waitFor();
      const refused = page.locator('.tool-card.tool-refused').last();
      expect(await refused.locator('.tool-status').textContent()).toBe('已拒绝');
      expect(await refused.locator('.tool-exit').textContent()).toBe('退出码 126');
      expect(await refused.locator('.tool-reason').textContent()).toMatch(/^白名单拒绝：「.+」$/);
      expect(foreignRuns(await labelsOf(refused), 'zh')).toEqual([]);
      await h.shot(page, `lang-zh-${name}`);
    }, 60_000);
  }
});
