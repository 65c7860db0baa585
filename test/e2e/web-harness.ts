// Everything a browser test of the web console needs: the real console server (startWebConsole)
// with the real cc_exec gateway (createGateway → scripted fake OpenAI server + fake ChainlessChain
// CLI), the real bridge with a fake Claude engine, a real registry with one session, and Debian's
// chromium driven by playwright-core. Screenshots go to test-artifacts/web/.
import type { Language } from '../../src/core/i18n.js';
import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import type { Channel } from '../../src/bridge/channel.js';
import type { AgentCatalog } from '../../src/bridge/commands/agent-catalog.js';
import type { SpeechToText } from '../../src/bridge/voice/speech-to-text.js';
import { createGateway } from '../../src/ccexec/create-gateway.js';
import { silentLogger } from '../../src/core/logger.js';
import { upsertSession } from '../../src/sessions/registry/registry.js';
import { consoleGatewayFrom } from '../../src/channels/web/console/gateway-adapter.js';
import { createConsoleSessions } from '../../src/channels/web/console/console-sessions.js';
import { WEB_USER_ID } from '../../src/channels/web/web-channel.js';
import { startWebConsole, type WebConsole } from '../../src/channels/web/start-web-console.js';
import { bridgeHarness, type BridgeHarness } from '../fakes/bridge-harness.js';
import { FakeChannel } from '../fakes/fake-channel.js';
import { fakeSession } from '../fakes/fake-session-directory.js';
import { SAMPLE_DATA, type FakeData } from '../fakes/fake-chainlesschain/fake-cli.js';
import { startGatewayHarness, type GatewayHarness } from '../fakes/fake-chainlesschain/gateway-harness.js';
import { createRng, encodeCwd, writeSession } from '../fixtures/claude-tree.js';

export const CHROMIUM = '/usr/bin/chromium';
export const HAS_CHROMIUM = fs.existsSync(CHROMIUM);

/** Debian's Chromium, headless, with nothing that would reach the network (updates, sync, QUIC). */
export function launchChromium(extraArgs: string[] = []): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      ...extraArgs,
    ],
  });
}
if (!HAS_CHROMIUM)
  console.warn(`[web e2e] SKIPPED: ${CHROMIUM} is missing — install it with: apt-get install -y chromium`);

export const ARTIFACTS = path.resolve('test-artifacts/web');
/** The session the registry and the bridge's session directory both know. */
export const SESSION_ID = '8c4b1297-3f0e-4c1a-9d2e-5a6b7c8d9e0f';

export interface WebHarness {
  web: WebConsole;
  gw: GatewayHarness;
  bh: BridgeHarness;
  browser: Browser;
  /** A fresh logged-in context + page (phone-sized when asked). */
  /**
   * A fresh logged-in context + page (phone-sized when asked). An English `locale` also stands for
   * a user who chose English with the toggle (the locale alone no longer decides, see `chooseLanguage`).
   */
  page(opts?: { phone?: boolean; locale?: string }): Promise<{ context: BrowserContext; page: Page }>;
  shot(page: Page, name: string): Promise<void>;
  close(): Promise<void>;
}

/** A channel that reports itself disconnected, standing in for Feishu without credentials. */
class OfflineFeishu extends FakeChannel {
  constructor() {
    super('feishu');
  }
  override status() {
    return { connected: false, detail: 'no credentials' };
  }
}

/** The fake CLI's sample data plus enough notes that `note list --limit 10` prints more than the 6-line preview. */
const DATA: FakeData = {
  ...SAMPLE_DATA,
  notes: [
    ...(SAMPLE_DATA.notes ?? []),
    ...Array.from({ length: 8 }, (_, i) => ({
      id: `0000000${i}-0000-4000-8000-00000000000${i}`,
      title: `周报 Weekly ${i + 1}`,
      content: `第 ${i + 1} 周`,
      tags: [],
      category: 'work',
      created_at: `2026-11-2${i} 09:00:00`,
    })),
  ],
};

/** `agents`: the daemon's agent catalog, given to the bridge and the console alike (absent: Claude Code alone). */
export async function startWebHarness(
  options: {
    gatewayEnv?: NodeJS.ProcessEnv;
    agents?: AgentCatalog;
    lang?: Language;
    /** The console microphone's speech service (absent: no microphone). */
    speechToText?: SpeechToText;
    /** More Chromium flags (a fake microphone, say). */
    chromiumArgs?: string[];
  } = {},
): Promise<WebHarness> {
  const lang = options.lang ?? 'zh';
  const gw = await startGatewayHarness({ data: DATA, env: { FAKE_CC_SLOW_MS: '1200', ...options.gatewayEnv } });
  const bh = await bridgeHarness({
    configure: (c) => {
      c.ccexec = gw.config.ccexec;
      c.sdk.timeout_ms = 60_000;
      c.general.language = lang;
    },
    bridge: {
      ownerPolicy: async (_c, userId) => (userId === WEB_USER_ID ? 'owner' : 'stranger'),
      ...(options.agents ? { agents: options.agents } : {}),
    },
  });
  const cwd = path.join(bh.home, 'Git', 'alpha');
  const written = writeSession(
    bh.paths.claudeDir,
    {
      id: SESSION_ID,
      cwd,
      start: new Date('2026-05-01T10:00:00Z'),
      turns: [{ prompt: '梳理一下 README', answer: 'README 介绍了 **安装** 与 `npm start`。' }],
    },
    createRng(3),
  );
  await upsertSession(bh.paths, SESSION_ID, {
    cwd,
    origin: 'cli',
    title: '梳理 README',
    project_name: 'alpha',
    jsonl_path: written.file,
    project_dir: encodeCwd(cwd),
    status: 'active',
    last_active: new Date().toISOString(),
    message_count: 2,
    last_message_preview: 'README 介绍了安装',
  });
  bh.sessions.sessions.set(
    SESSION_ID,
    fakeSession(SESSION_ID, { cwd, title: '梳理 README', project_name: 'alpha', jsonl_path: written.file }),
  );
  bh.bridge.addChannel(new OfflineFeishu() as Channel);

  const gateway = consoleGatewayFrom(
    createGateway({ config: gw.config, paths: gw.paths, env: gw.env, lang, logger: silentLogger }),
    gw.paths.auditFile,
  );
  const web = await startWebConsole({
    config: bh.config,
    paths: bh.paths,
    lang,
    logger: silentLogger,
    bridge: bh.bridge,
    gateway,
    sessions: createConsoleSessions(bh.paths, lang),
    ...(options.agents ? { agents: options.agents } : {}),
    ...(options.speechToText ? { speechToText: options.speechToText } : {}),
    port: 0,
    statusIntervalMs: 500,
  });
  bh.bridge.addChannel(web.channel);
  await web.channel.start(bh.bridge);

  const browser = await launchChromium(options.chromiumArgs);
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  const contexts: BrowserContext[] = [];
  return {
    web,
    gw,
    bh,
    browser,
    async page(opts = {}) {
      const context = await browser.newContext({
        locale: opts.locale ?? 'zh-CN',
        ...(opts.phone
          ? { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true }
          : { viewport: { width: 1280, height: 900 } }),
      });
      contexts.push(context);
      if (opts.locale?.startsWith('en')) await chooseLanguage(context, 'en');
      const page = await context.newPage();
      page.setDefaultTimeout(10_000);
      await page.goto(web.url);
      await page.locator('#tool-badge[data-status]:not([data-status="unknown"])').waitFor();
      return { context, page };
    },
    async shot(page, name) {
      await page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`), fullPage: false });
    },
    async close() {
      for (const c of contexts) await c.close().catch(() => undefined);
      await browser.close();
      await web.close();
      await bh.cleanup();
      await gw.close();
    },
  };
}

/**
 * Makes `context` a browser whose user picked `lang` with the page's toggle (kept in localStorage,
 * as the toggle does) before any page loads; a later toggle in the page still wins.
 */
export async function chooseLanguage(context: BrowserContext, lang: Language): Promise<void> {
  await context.addInitScript(
    `if (!localStorage.getItem('ccl-lang')) localStorage.setItem('ccl-lang', ${JSON.stringify(lang)});`,
  );
}

/** Records every `data-state` a tool card passes through (MutationObserver with old values) in `window.__toolStates`. */
export async function recordToolStates(page: Page): Promise<void> {
  await page.evaluate(`(() => {
    window.__toolStates = [];
    const push = (s) => { if (s && window.__toolStates.at(-1) !== s) window.__toolStates.push(s); };
    new MutationObserver((records) => {
      for (const r of records) {
        if (r.type === 'attributes' && r.target.classList.contains('tool-card')) { push(r.oldValue); push(r.target.dataset.state); }
        for (const n of r.addedNodes) if (n.classList && n.classList.contains('tool-card')) push(n.dataset.state);
      }
    }).observe(document.getElementById('chat-log'), { subtree: true, childList: true, attributes: true, attributeFilter: ['data-state'], attributeOldValue: true });
  })()`);
}

/** The states recorded by `recordToolStates`. */
export function toolStates(page: Page): Promise<string[]> {
  return page.evaluate('window.__toolStates') as Promise<string[]>;
}
