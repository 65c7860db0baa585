// The AI chat page in a real browser: the real gateway (scripted fake OpenAI server + fake
// ChainlessChain CLI, which sleeps 1.2 s per command) behind the real console server.
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isProcessRunning } from '../fakes/fake-chainlesschain/fake-cli.js';
import { openaiTextTurn, openaiToolCallTurn } from '../fakes/fake-llm/fake-openai-server.js';
import { HAS_CHROMIUM, recordToolStates, startWebHarness, toolStates, type WebHarness } from './web-harness.js';

const cc = (command: string, subargs: string[]) => JSON.stringify({ command, subargs });

describe.skipIf(!HAS_CHROMIUM)('web console: AI chat page (chromium)', () => {
  let h: WebHarness;
  let pidFile: string;

  beforeAll(async () => {
    pidFile = `${process.env.TMPDIR ?? '/tmp'}/ccl-web-fake-cc-${process.pid}.pid`;
    h = await startWebHarness({ gatewayEnv: { FAKE_CC_PID_FILE: pidFile } });
  }, 30_000);
  afterAll(async () => {
    await h?.close();
    fs.rmSync(pidFile, { force: true });
  });

  it('runs a turn with a tool call through every state, streams text, and expands the full output', async () => {
    const args = cc('note', ['list', '--limit', '10']);
    h.gw.openai.enqueue(
      openaiToolCallTurn({
        id: 'call_1',
        name: 'cc_exec',
        argPieces: [args.slice(0, 9), args.slice(9)],
        prefix: '我帮你查一下…',
      }),
      openaiTextTurn('你最近的笔记：', '**Gateway design**、RAG 检索增强笔记。'),
    );
    const { page } = await h.page();
    expect(await page.getAttribute('#tool-badge', 'data-status')).toBe('available');
    await recordToolStates(page);
    await page.fill('#chat-input', '列一下最近的 10 个 note');
    await page.press('#chat-input', 'Enter');

    // While running: input disabled, cancel visible, the card counts up.
    const card = page.locator('.tool-card');
    await page.locator('.tool-card[data-state="TOOL_RUNNING"]').waitFor();
    expect(await page.isDisabled('#chat-input')).toBe(true);
    expect(await page.isVisible('#chat-cancel')).toBe(true);
    expect(await card.locator('.tool-title').textContent()).toBe('cc note list --limit 10');
    await expect.poll(() => card.locator('.tool-status').textContent()).toMatch(/执行中… \d+\.\ds \/ 30s/);
    await h.shot(page, 'chat-tool-running');

    await page.locator('.msg-end[data-state="COMPLETE"]').waitFor();
    expect(await toolStates(page)).toEqual(['TOOL_CALLED', 'TOOL_RUNNING', 'TOOL_DONE']);
    expect(await page.locator('.tool-card').count()).toBe(1);
    expect(await card.locator('.tool-exit').textContent()).toBe('退出码 0');
    expect(await card.locator('.tool-exit').getAttribute('class')).toContain('badge-green');
    expect(await card.locator('.tool-duration').textContent()).toMatch(/^\d+(\.\d)? m?s$/);
    const preview = (await card.locator('.tool-preview').textContent()) ?? '';
    expect(preview.split('\n')[0]).toBe('Notes (10):');
    expect(preview.split('\n')).toHaveLength(6);
    // The user's message, the prefix bubble, the card, the answer, the end line — in that order.
    const order = await page.evaluate(
      "[...document.querySelectorAll('#chat-log > *')].map((n) => n.className.split(' ').filter((c) => c !== 'msg')[0])",
    );
    expect(order).toEqual(['msg-user', 'msg-assistant', 'tool-card', 'msg-assistant', 'msg-end']);
    expect(await page.locator('.msg-assistant').first().textContent()).toBe('我帮你查一下…');
    expect(await page.locator('.msg-assistant strong').textContent()).toBe('Gateway design');
    expect(await page.isEnabled('#chat-input')).toBe(true);
    expect(await page.isHidden('#chat-cancel')).toBe(true);

    await card.locator('.tool-expand').click();
    await card.locator('.tool-stdout').waitFor();
    const full = (await card.locator('.tool-stdout').textContent()) ?? '';
    expect(full.trim().split('\n').length).toBeGreaterThan(6);
    expect(full).toContain('周报 Weekly 8');
    expect(await card.locator('.tool-expand').getAttribute('aria-expanded')).toBe('true');
    await h.shot(page, 'chat-tool-done-expanded');

    // The audit history shows the call.
    await page.locator('#audit summary').click();
    await expect.poll(() => page.locator('#audit-rows tr').first().textContent()).toContain('cc note list --limit 10');
  });

  it('cancels a run mid-tool with Esc: the CLI group is killed and the turn ends CANCELLED', async () => {
    fs.rmSync(pidFile, { force: true });
    h.gw.openai.enqueue(openaiToolCallTurn({ id: 'call_c', name: 'cc_exec', argPieces: [cc('skill', ['list'])] }));
    const { page } = await h.page();
    await page.fill('#chat-input', '我装了哪些 skill？');
    await page.click('#chat-send');
    await page.locator('.tool-card[data-state="TOOL_RUNNING"]').waitFor();
    await expect.poll(() => fs.existsSync(pidFile), { timeout: 5000 }).toBe(true);
    const pid = Number(fs.readFileSync(pidFile, 'utf8').split(' ')[0]);
    expect(isProcessRunning(pid)).toBe(true);
    await page.keyboard.press('Escape');
    await page.locator('.msg-end[data-state="CANCELLED"]').waitFor();
    await expect.poll(() => isProcessRunning(pid), { timeout: 5000 }).toBe(false);
    // The card says the call was cancelled: not "done", and no "exit -1" (the CLI never exited).
    const card = page.locator('.tool-card');
    await expect.poll(() => card.locator('.tool-status').textContent()).toBe('已取消');
    expect(await card.getAttribute('class')).toContain('tool-stopped');
    expect(await card.getAttribute('class')).not.toContain('tool-failed');
    expect(await card.locator('.tool-exit').isHidden()).toBe(true);
    expect(await card.innerText()).not.toMatch(/完成|exit|退出码|cancelled/);
    expect(await page.isEnabled('#chat-input')).toBe(true);
    expect(await page.isHidden('#chat-cancel')).toBe(true);
    await h.shot(page, 'chat-cancelled');
    expect(h.gw.openai.pending()).toBe(0);
  });

  it('renders a refused call as a red card with the reason, and the model explains (phone width)', async () => {
    h.gw.openai.enqueue(
      openaiToolCallTurn({ id: 'call_d', name: 'cc_exec', argPieces: [cc('note', ['delete', '--all'])] }),
      openaiTextTurn('该操作 v1 暂不支持，请在终端手动执行。'),
    );
    const { page } = await h.page({ phone: true });
    const calls = h.gw.cliCalls().length;
    await page.fill('#chat-input', '帮我把所有笔记删了');
    await page.press('#chat-input', 'Enter');
    await page.locator('.msg-end[data-state="COMPLETE"]').waitFor();
    const card = page.locator('.tool-card');
    expect(await card.getAttribute('class')).toContain('tool-refused');
    expect(await card.locator('.tool-exit').textContent()).toBe('退出码 126');
    expect(await card.locator('.tool-exit').getAttribute('class')).toContain('badge-red');
    expect(await card.locator('.tool-reason').isVisible()).toBe(true);
    expect(await card.locator('.tool-reason').textContent()).toMatch(/^白名单拒绝：「.+」$/);
    expect(await page.evaluate("getComputedStyle(document.querySelector('.tool-card')).backgroundColor")).toBe(
      'rgb(255, 235, 233)',
    );
    expect(await page.locator('.msg-assistant').last().textContent()).toContain('暂不支持');
    expect(h.gw.cliCalls().length).toBe(calls); // nothing ran
    // Phone width: nothing overflows sideways.
    expect(await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth')).toBe(true);
    await h.shot(page, 'chat-refused-phone');
  });

  it('shows "this model has no tools" for a plain-chat provider and switches language', async () => {
    const { page } = await h.page({ locale: 'en-US' });
    expect(await page.textContent('#tab-chat')).toBe('AI chat');
    await page.selectOption('#provider', 'qwen');
    await page.locator('#tool-badge[data-status="no-tools-for-model"]').waitFor();
    expect(await page.textContent('#tool-badge')).toMatch(/this model has no tools/);
    expect(await page.textContent('#tool-reason')).toContain('qwen');
    await page.click('#lang-toggle');
    expect(await page.textContent('#tab-chat')).toBe('AI 对话');
    expect(await page.textContent('#tool-badge')).toMatch(/当前模型不支持/);
    await h.shot(page, 'chat-no-tools-badge');
  });

  it('is keyboard usable: visible focus, arrow keys between tabs, Tab reaches the input', async () => {
    const { page } = await h.page();
    const active = () => page.evaluate('document.activeElement && document.activeElement.id');
    await expect.poll(active).toBe('chat-input'); // ready to type on load (once its chat has rendered)
    await page.click('.brand'); // moves the sequential-focus starting point to the top
    await page.keyboard.press('Tab');
    expect(await active()).toBe('tab-chat');
    expect(await page.evaluate('getComputedStyle(document.activeElement).outlineStyle')).toBe('solid');
    await page.keyboard.press('ArrowRight');
    expect(await active()).toBe('tab-sessions');
    expect(await page.isVisible('#view-sessions')).toBe(true);
    await page.keyboard.press('ArrowLeft');
    expect(await active()).toBe('tab-chat');
    expect(await page.isVisible('#view-chat')).toBe(true);
    const seen: string[] = [];
    for (let i = 0; i < 12 && (await active()) !== 'chat-input'; i += 1) {
      await page.keyboard.press('Tab');
      seen.push(String(await active()));
    }
    expect(seen).toEqual(['lang-toggle', 'provider', 'model', 'new-chat', 'chat-history', 'chat-input']);
  });
});
