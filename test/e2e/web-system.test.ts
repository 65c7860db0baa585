// Browser test of the whole system: `assembleDaemon` — what `cc-linker start`
// runs — with the web console on a random port and Feishu off, the REAL bundled Claude Code binary
// against the fake Anthropic API, and Debian's chromium driven by playwright-core. A session is
// created from the page, left, found again in the sessions list, continued, and a tool call in it is
// approved on the permission card. Screenshots go to test-artifacts/web/.
import fs from 'node:fs';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { UserMapping } from '../../src/bridge/mapping/user-mapping.js';
import { assembleDaemon, type Daemon } from '../../src/cli/start/assemble-daemon.js';
import { WEB_USER_ID } from '../../src/channels/web/web-channel.js';
import type { WebConsole } from '../../src/channels/web/start-web-console.js';
import { createLogger } from '../../src/core/logger.js';
import { encodeProjectDir } from '../fakes/fake-anthropic/claude-sandbox.js';
import { startFakeAnthropic, type FakeAnthropic } from '../fakes/fake-anthropic/fake-anthropic-server.js';
import { waitNoLeftovers } from './claude-harness.js';
import { CASE_TIMEOUT_MS, CLAUDE_BIN, systemConfig, systemRoot, type SystemRoot } from './system-harness.js';
import { ARTIFACTS, HAS_CHROMIUM, launchChromium } from './web-harness.js';

describe.skipIf(!HAS_CHROMIUM || !CLAUDE_BIN)('web console over the whole system (chromium, real Claude Code)', () => {
  let anth: FakeAnthropic;
  let sys: SystemRoot;
  let runtime: Daemon;
  let web: WebConsole;
  let browser: Browser;
  let logFile: string;

  beforeAll(async () => {
    anth = await startFakeAnthropic();
    sys = systemRoot(anth.url);
    const config = systemConfig({ sys, mode: 'sdk', web: true });
    // Ask for every tool call not on the allow list (the default `acceptEdits` lets `touch` through).
    config.sdk.permission_mode = 'default';
    logFile = path.join(sys.root, 'cc-linker.log');
    const assembled = await assembleDaemon({
      config,
      paths: sys.paths,
      lang: 'en',
      logger: createLogger({ level: 'debug', sink: { file: logFile } }),
      env: sys.env,
      feishu: false,
      webPort: 0,
    });
    runtime = assembled;
    expect(assembled.feishu).toBe('disabled');
    web = assembled.web as WebConsole;
    expect(web).not.toBeNull();
    browser = await launchChromium();
    fs.mkdirSync(ARTIFACTS, { recursive: true });
  }, CASE_TIMEOUT_MS);

  afterAll(async () => {
    await browser?.close();
    await web?.close();
    await runtime?.stop(5_000);
    const left = sys ? await waitNoLeftovers(sys.home, 5_000) : [];
    await anth?.close();
    sys?.cleanup();
    expect(left).toEqual([]);
  }, CASE_TIMEOUT_MS);

  it(
    'continues a Claude Code session with a permission approval',
    async () => {
      onTestFailed(() => {
        const lines = fs.existsSync(logFile)
          ? fs
              .readFileSync(logFile, 'utf8')
              .split('\n')
              .filter((l) => /"level":"(warn|error)"/.test(l))
          : [];
        console.error(`--- cc-linker log (warn/error) ---\n${lines.slice(-40).join('\n')}`);
      });
      const cwd = sys.project('webapp');
      const elsewhere = sys.project('elsewhere');
      const context = await browser.newContext({ locale: 'en-US', viewport: { width: 1280, height: 900 } });
      const page = await context.newPage();
      page.setDefaultTimeout(CASE_TIMEOUT_MS / 2);
      await page.goto(web.url);
      await page.click('#tab-sessions');

      // 1. A new session from the page's form: the first answer streams in from the real CLI.
      await page.fill('#dir-path', cwd);
      await page.fill('#new-prompt', 'echo: hi from the browser');
      await page.click('#new-start');
      // The page opens the new session; once the turn is done the transcript shows what the live card showed.
      await page
        .locator('#s-live .card-complete, #s-turns .turn-assistant', { hasText: 'hi from the browser' })
        .first()
        .waitFor();
      const entry = await new UserMapping(sys.paths.userMappingFile).get(WEB_USER_ID);
      expect(entry).toMatchObject({ type: 'session', cwd });
      const sessionId = entry?.type === 'session' ? entry.sessionUuid : '';
      const sessionFile = path.join(sys.paths.claudeProjectsDir, encodeProjectDir(cwd), `${sessionId}.jsonl`);
      expect(fs.existsSync(sessionFile)).toBe(true);

      // 2. Leave it (a pending new directory, no Claude run), then find it in the list and continue it.
      await page.fill('#b-input', `/new ${elsewhere}`);
      await page.press('#b-input', 'Enter');
      await expect
        .poll(async () => (await new UserMapping(sys.paths.userMappingFile).get(WEB_USER_ID))?.type)
        .toBe('pending_new_session');
      await page.press('#s-q', 'Enter'); // reload the list
      const row = page.locator(`.session-row[data-id="${sessionId}"]`);
      await row.click();
      await page.locator('#s-turns .turn-assistant', { hasText: 'hi from the browser' }).waitFor();
      await page.click('#s-continue');
      await expect
        .poll(async () => new UserMapping(sys.paths.userMappingFile).get(WEB_USER_ID))
        .toMatchObject({ type: 'session', sessionUuid: sessionId, cwd });

      // 3. A tool call that needs approval: the permission card, Allow, the streamed answer, the file.
      const requestsBefore = anth.messageRequests().length;
      await page.fill('#b-input', 'tool: Bash touch approved.txt');
      await page.press('#b-input', 'Enter');
      const prompt = page.locator('#s-live .card-warning', { has: page.locator('button[data-button]') });
      await prompt.waitFor();
      expect(await prompt.locator('button[data-button]').allTextContents()).toEqual(['Allow', 'Deny', 'Always allow']);
      expect(await prompt.textContent()).toContain('touch approved.txt');
      expect(fs.existsSync(path.join(cwd, 'approved.txt'))).toBe(false);
      await page.screenshot({ path: path.join(ARTIFACTS, 'system-permission-prompt.png') });
      await prompt.locator('button[data-button="0"]').click();
      const answer = page.locator('#s-live .card-complete, #s-turns .turn-assistant', { hasText: 'tool-result: ok' });
      await answer.first().waitFor();
      expect(fs.existsSync(path.join(cwd, 'approved.txt'))).toBe(true);
      await page.screenshot({ path: path.join(ARTIFACTS, 'system-permission-approved.png') });

      // It really continued the same session: the request carried the first turn, the same file grew.
      const toolRun = anth
        .messageRequests()
        .slice(requestsBefore)
        .find((r) => r.scriptRequest?.lastUserText === 'tool: Bash touch approved.txt');
      expect(JSON.stringify(toolRun?.scriptRequest?.messages)).toContain('hi from the browser');
      expect(fs.readFileSync(sessionFile, 'utf8')).toContain('approved.txt');
      expect(fs.readdirSync(path.dirname(sessionFile)).filter((f) => f.endsWith('.jsonl'))).toEqual([
        `${sessionId}.jsonl`,
      ]);
      await context.close();
    },
    2 * CASE_TIMEOUT_MS,
  );
});
