// Browser test of other agents through the whole system: `assembleDaemon` with the web console on
// a random port (Feishu off), `[agents.codex]` pointed at the REAL codex-acp binary against a fake
// Responses API or `[agents.qwen]` at the REAL Qwen Code against a fake chat-completions API, and
// Debian's chromium driven by playwright-core. A session is started by typing
// `/new … --agent <name> -- …` in the console's chat, a tool call in it is approved on the
// permission card, and the session is found in the sessions list. Screenshots go to test-artifacts/web/.
import fs from 'node:fs';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { UserMapping } from '../../src/bridge/mapping/user-mapping.js';
import { assembleDaemon, type Daemon } from '../../src/cli/start/assemble-daemon.js';
import { WEB_USER_ID } from '../../src/channels/web/web-channel.js';
import type { WebConsole } from '../../src/channels/web/start-web-console.js';
import { createLogger } from '../../src/core/logger.js';
import { readRegistry } from '../../src/sessions/registry/registry.js';
import { startFakeAnthropic, type FakeAnthropic } from '../fakes/fake-anthropic/fake-anthropic-server.js';
import { waitNoLeftovers } from './claude-harness.js';
import {
  CASE_TIMEOUT_MS,
  CLAUDE_BIN,
  CODEX_BIN,
  QWEN_BIN,
  systemConfig,
  systemRoot,
  withCodex,
  withQwen,
  type AgentSetup,
  type SystemRoot,
} from './system-harness.js';
import { ARTIFACTS, HAS_CHROMIUM, launchChromium } from './web-harness.js';

const MARKER_COMMAND = 'touch ran-marker && echo cc-linker-$((40 + 2))';
const MARKER = 'cc-linker-42';

/** What differs between the agents: their setup, their label, and how long a case may take. */
const AGENTS = {
  codex: { bin: CODEX_BIN, label: 'Codex', setup: withCodex, timeoutMs: CASE_TIMEOUT_MS },
  // A Qwen turn starts a process (≈10 s here) and its first tool call waits ≈10–15 s more.
  qwen: { bin: QWEN_BIN, label: 'Qwen Code', setup: withQwen, timeoutMs: 2 * CASE_TIMEOUT_MS },
} as const;

function agentWebSuite(agent: keyof typeof AGENTS): void {
  const { bin, label, setup, timeoutMs } = AGENTS[agent];
  describe.skipIf(!HAS_CHROMIUM || !CLAUDE_BIN || !bin)(`web console with ${label} (chromium, real agent)`, () => {
    let anth: FakeAnthropic;
    let sys: SystemRoot;
    let fakeModel: AgentSetup;
    let runtime: Daemon;
    let web: WebConsole;
    let browser: Browser;
    let logFile: string;

    beforeAll(async () => {
      anth = await startFakeAnthropic();
      sys = systemRoot(anth.url);
      fakeModel = await setup(sys);
      const config = systemConfig({ sys, mode: 'sdk', web: true, [agent]: fakeModel });
      // A turn is silent while the agent starts and before its first tool call.
      config.runtime.stale_timeout_ms = Math.max(config.runtime.stale_timeout_ms, timeoutMs - 30_000);
      config.runtime.hard_timeout_ms = timeoutMs;
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
      await fakeModel?.fake.close();
      await anth?.close();
      sys?.cleanup();
      expect(left).toEqual([]);
    }, CASE_TIMEOUT_MS);

    it(
      `starts a ${label} session from the chat, streams it, approves a tool call, and lists the session`,
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
        const cwd = sys.project(`${agent}-web`);
        const context = await browser.newContext({ locale: 'en-US', viewport: { width: 1280, height: 900 } });
        const page = await context.newPage();
        page.setDefaultTimeout(timeoutMs / 2);
        await page.goto(web.url);
        await page.click('#tab-sessions'); // the sessions page holds the command box

        // 1. `/new <dir> --agent <name> -- <prompt>` typed in the command box: the page opens the new
        // session, named for its agent, and the agent's answer streams into it (the live card, or the
        // transcript once the turn is in the agent's file).
        const anthropicBefore = anth.requests.length;
        await page.fill('#a-input', `/new ${cwd} --agent ${agent} -- hello from the browser`);
        await page.press('#a-input', 'Enter');
        // The agent's start and first turn (Qwen's ≈ 20 s) may take most of the case's time on a busy machine.
        await page
          .locator('#s-open:not([hidden])', { hasText: 'ok: hello from the browser' })
          .waitFor({ timeout: timeoutMs * 0.8 });
        await expect.poll(() => page.locator('#s-target').textContent()).toContain(label);
        expect(anth.requests.length).toBe(anthropicBefore);
        const entry = await new UserMapping(sys.paths.userMappingFile).get(WEB_USER_ID);
        expect(entry).toMatchObject({ type: 'session', cwd });
        const sessionId = entry?.type === 'session' ? entry.sessionUuid : '';
        expect((await readRegistry(sys.paths)).registry.sessions[sessionId]).toMatchObject({
          agent,
          status: 'active',
        });

        // 2. A tool call that needs approval in the same session: the card, Allow, the answer, the file.
        await page.fill('#b-input', `RUN: ${MARKER_COMMAND}`);
        await page.press('#b-input', 'Enter');
        const prompt = page.locator('#s-live .card-warning', { has: page.locator('button[data-button]') });
        await prompt.waitFor();
        expect(await prompt.locator('button[data-button]').allTextContents()).toEqual([
          'Allow',
          'Deny',
          'Always allow',
        ]);
        expect(await prompt.textContent()).toContain('touch ran-marker');
        expect(fs.existsSync(path.join(cwd, 'ran-marker'))).toBe(false);
        await page.screenshot({ path: path.join(ARTIFACTS, `${agent}-permission-prompt.png`) });
        await prompt.locator('button[data-button="0"]').click();
        await page.locator('#s-open', { hasText: MARKER }).waitFor();
        expect(fs.existsSync(path.join(cwd, 'ran-marker'))).toBe(true);
        const run = fakeModel.fake.calls.filter((c) => c.request.stream).at(-1)?.request;
        expect(run?.toolResults.join('\n')).toContain(MARKER);
        expect(run?.userTexts).toEqual(expect.arrayContaining(['hello from the browser'])); // same session, loaded
        expect(await new UserMapping(sys.paths.userMappingFile).get(WEB_USER_ID)).toMatchObject({
          sessionUuid: sessionId,
        });

        // 3. The sessions page lists it; the API names its agent.
        await page.press('#s-q', 'Enter'); // reload the list
        const row = page.locator(`.session-row[data-id="${sessionId}"]`);
        await row.waitFor();
        expect(await row.locator('.session-meta').textContent()).toMatch(
          new RegExp(`^${agent} · ${sessionId.slice(0, 8)} · `),
        );
        const listed = await page.evaluate(async () => {
          const res = await fetch('/api/sessions');
          return (await res.json()) as { sessions: Array<{ id: string; agent: string }> };
        });
        expect(listed.sessions.find((x) => x.id === sessionId)).toMatchObject({ agent });
        await page.screenshot({ path: path.join(ARTIFACTS, `${agent}-sessions.png`) });
        await context.close();
      },
      2 * timeoutMs,
    );
  });
}

agentWebSuite('codex');
agentWebSuite('qwen');
