// The sessions page and the agents, in a real browser: each session row names its agent, the list
// filters by agent on the server, a Codex session's recent turns come from its own transcript, and
// the new-session picker starts a Codex session through the bridge (`/new … --agent codex`). The
// real bridge and registry, a fake engine (no agent runs), the console as a bridge channel.
import { FAKE_AGENT_CATALOG } from '../fakes/fake-agent-catalog.js';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { upsertSession } from '../../src/sessions/registry/registry.js';
import { AGENT_IDS, writeCodexSession } from '../fixtures/agent-trees.js';
import { HAS_CHROMIUM, SESSION_ID, startWebHarness, type WebHarness } from './web-harness.js';

const CATALOG = FAKE_AGENT_CATALOG;

describe.skipIf(!HAS_CHROMIUM)('web console: agents on the sessions page (chromium)', () => {
  let h: WebHarness;

  beforeAll(async () => {
    h = await startWebHarness({ agents: CATALOG });
    h.bh.engine.onSend = (req) => ({ ...(req.agent ? { agent: req.agent } : {}) });
    const file = writeCodexSession(h.bh.paths.codexHome, {
      id: AGENT_IDS.codex,
      cwd: path.join(h.bh.home, 'Git', 'beta'),
      start: new Date('2026-05-02T10:00:00Z'),
      turns: [['修一下 flaky 测试', 'The test waited on a timer; it now awaits the event.']],
    });
    await upsertSession(h.bh.paths, AGENT_IDS.codex, {
      agent: 'codex',
      cwd: path.join(h.bh.home, 'Git', 'beta'),
      origin: 'cli',
      title: 'Codex 修测试',
      project_name: 'beta',
      jsonl_path: file,
      status: 'active',
      last_active: new Date(Date.now() - 60_000).toISOString(),
      message_count: 2,
    });
  }, 30_000);
  afterAll(() => h?.close());

  it('tags other agents’ sessions, filters by agent and shows a Codex session’s recent turns', async () => {
    const { page } = await h.page();
    await page.click('#tab-sessions');
    const codexRow = page.locator(`.session-row[data-id="${AGENT_IDS.codex}"]`);
    const claudeRow = page.locator(`.session-row[data-id="${SESSION_ID}"]`);
    await codexRow.waitFor();
    expect(await codexRow.locator('.agent-tag').textContent()).toBe('Codex');
    expect(await codexRow.locator('.session-title').textContent()).toBe('Codex 修测试');
    expect(await claudeRow.locator('.agent-tag').count()).toBe(0);

    expect(await page.locator('#s-agent option').allTextContents()).toEqual([
      '全部智能体',
      'Claude Code',
      'Codex',
      'Qwen Code',
    ]);
    await page.selectOption('#s-agent', 'codex');
    await claudeRow.waitFor({ state: 'detached' });
    expect(await page.locator('#s-list .session-row').count()).toBe(1);
    await page.selectOption('#s-agent', 'claude');
    await codexRow.waitFor({ state: 'detached' });
    await claudeRow.waitFor();
    await page.selectOption('#s-agent', '');
    await codexRow.waitFor();

    await codexRow.click();
    await page.locator('#s-turns .turn-assistant').waitFor();
    expect(await page.locator('#s-turns .turn-user').textContent()).toContain('修一下 flaky 测试');
    expect(await page.locator('#s-turns .turn-assistant').textContent()).toContain('now awaits the event');
    expect(await page.textContent('#s-detail-meta')).toContain('智能体: Codex');
    expect(await page.locator('#s-detail-title .agent-tag').textContent()).toBe('Codex');
    await h.shot(page, 'sessions-agent-codex');
  });

  it('starts a Codex session from the picker (phone width, English); the card names Codex', async () => {
    const { page } = await h.page({ phone: true, locale: 'en-US' });
    await page.click('#tab-sessions');
    await page.locator('#new-agent option').first().waitFor({ state: 'attached' });
    expect(await page.locator('#new-agent option').allTextContents()).toEqual([
      'Claude Code',
      'Codex',
      'Qwen Code (not installed)',
    ]);
    expect(await page.inputValue('#new-agent')).toBe('claude');
    await page.fill('#dir-path', path.join(h.bh.home, 'Git', 'alpha'));
    await page.selectOption('#new-agent', 'codex');
    await page.fill('#new-prompt', 'fix the flaky test');
    await page.click('#new-start');
    const card = page.locator('#s-live .card-complete', { hasText: 'echo: fix the flaky test' });
    await card.waitFor();
    expect(await card.textContent()).toContain('Codex');
    expect(h.bh.engine.requests.at(-1)).toMatchObject({
      agent: 'codex',
      prompt: 'fix the flaky test',
      cwd: path.join(h.bh.home, 'Git', 'alpha'),
    });
    expect(await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth')).toBe(true);
    await card.scrollIntoViewIfNeeded();
    await h.shot(page, 'sessions-agent-new-codex-phone');
  });
});
