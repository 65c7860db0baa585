/**
 * The live registry, as a user meets it: `cc-linker start` (assembleDaemon, in this process) runs;
 * a session appears under ~/.claude/projects (a real `claude -p` in a terminal, or a JSONL file);
 * within the 2 s it is in the registry and in `cc-linker list` (the built binary), and the
 * console's open event stream gets `sessions.changed`, after which its list has the session — with
 * `fs.watch` and with the poll fallback forced. `sync`, `clean` and `repair` run while the daemon
 * runs (the daemon does them) and print what they print standalone.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { assembleDaemon, type Daemon } from '../../src/cli/start/assemble-daemon.js';
import { createLogger } from '../../src/core/logger.js';
import { readRegistry } from '../../src/sessions/registry/registry.js';
import { startFakeAnthropic, type FakeAnthropic } from '../fakes/fake-anthropic/fake-anthropic-server.js';
import { createRng, fakeUuid, writeSession } from '../fixtures/claude-tree.js';
import { CLAUDE_BIN, runClaude, systemConfig, systemRoot, type SystemRoot } from './system-harness.js';
import { HAS_CHROMIUM, launchChromium } from './web-harness.js';

const MAIN = path.resolve(__dirname, '..', '..', 'dist', 'cli', 'launcher', 'cc-linker.js');
const BUILT = fs.existsSync(MAIN);
/** A new session is listed within 2 s when the tree is watched (measured ≈ 0.4 s). */
const LIVE_MS = 2000;
/**
 * The poll fallback's goal is the same 2 s (one 1 s poll, the debounce, a sync); its deadline here
 * leaves a loaded 2-core machine a second more, so the fallback's test does not fail on scheduling.
 */
const POLL_DEADLINE_MS = 3000;

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Polls `check` until it holds or `ms` passes (a deadline, not a timing assertion). */
async function until(check: () => Promise<boolean> | boolean, ms: number, what: string): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`${what}: not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** The console's event stream, read as text (Bearer token: what a script uses). */
function openEvents(base: string, token: string): { text: () => string; close: () => void } {
  const abort = new AbortController();
  let text = '';
  void fetch(`${base}/api/events`, { headers: { Authorization: `Bearer ${token}` }, signal: abort.signal })
    .then(async (res) => {
      const reader = res.body!.getReader();
      const dec = new TextDecoder();
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        text += dec.decode(value, { stream: true });
      }
    })
    .catch(() => undefined);
  return { text: () => text, close: () => abort.abort() };
}

describe.skipIf(!BUILT)('the live registry while cc-linker start runs', () => {
  let anth: FakeAnthropic | undefined;
  let sys: SystemRoot | undefined;
  let daemon: Daemon | undefined;
  const rng = createRng(5);
  afterEach(async () => {
    await daemon?.stop(1000);
    await anth?.close();
    sys?.cleanup();
    daemon = undefined;
    anth = undefined;
    sys = undefined;
  });

  const start = async (watch: 'auto' | 'poll') => {
    anth = await startFakeAnthropic();
    sys = systemRoot(anth.url);
    fs.mkdirSync(sys.paths.claudeProjectsDir, { recursive: true });
    const config = systemConfig({ sys, mode: 'sdk', web: true });
    daemon = await assembleDaemon({
      config,
      paths: sys.paths,
      lang: 'en',
      logger: createLogger({ level: 'debug', sink: { file: path.join(sys.root, 'cc-linker.log') } }),
      env: sys.env,
      feishu: false,
      webPort: 0,
      sessionWatch: watch,
    });
    return daemon;
  };
  /** The built CLI, run without blocking: the daemon answering it lives in this process. */
  const cli = (...args: string[]): Promise<Run> =>
    new Promise((resolve, reject) => {
      const child = spawn(process.execPath, [MAIN, ...args], {
        env: { ...sys!.env, CC_LINKER_LANGUAGE: 'en' },
        stdio: ['ignore', 'pipe', 'pipe'],
        timeout: 30_000,
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      child.on('error', reject);
      child.on('close', (status) => resolve({ status, stdout, stderr }));
    });
  const inRegistry = async (id: string) => (await readRegistry(sys!.paths)).registry.sessions[id] !== undefined;
  const terminalSession = () =>
    writeSession(
      sys!.paths.claudeDir,
      {
        id: fakeUuid(rng),
        cwd: path.join(sys!.home, 'Git', 'demo'),
        start: new Date(),
        turns: [{ prompt: 'from the terminal', answer: 'ok' }],
      },
      rng,
    );

  for (const watch of ['auto', 'poll'] as const) {
    it(`${watch}: a session file written while start runs is listed within 2 s, and the console is pushed the news`, async () => {
      const d = await start(watch);
      expect(Object.values(d.sessions.live.modes())).toContain(watch === 'auto' ? 'watch' : 'poll');
      const url = new URL(d.web!.url);
      const base = url.origin;
      const token = url.searchParams.get('token') as string;
      const events = openEvents(base, token);
      try {
        await until(() => events.text().includes(': open'), 5000, 'event stream open');
        // The poll's first pass only learns the tree.
        await new Promise((r) => setTimeout(r, 1200));
        const s = terminalSession();
        const deadline = watch === 'auto' ? LIVE_MS : POLL_DEADLINE_MS;
        await until(() => inRegistry(s.id), deadline, 'in the registry');
        await until(() => events.text().includes('event: sessions.changed'), deadline, 'sessions.changed pushed');
        const res = await fetch(`${base}/api/sessions`, { headers: { Authorization: `Bearer ${token}` } });
        const { sessions } = (await res.json()) as { sessions: Array<{ id: string; title: string }> };
        expect(sessions.map((x) => x.id)).toContain(s.id);
        const list = await cli('list', '--json');
        expect(list.status, list.stderr).toBe(0);
        expect((JSON.parse(list.stdout) as Array<{ session_id: string }>).map((x) => x.session_id)).toContain(s.id);
      } finally {
        events.close();
      }
    }, 60_000);
  }

  it.skipIf(!CLAUDE_BIN)(
    'a session started from the console is pushed to its list and listed',
    async () => {
      const d = await start('auto');
      const url = new URL(d.web!.url);
      const token = url.searchParams.get('token') as string;
      const auth = { Authorization: `Bearer ${token}` };
      const events = openEvents(url.origin, token);
      try {
        await until(() => events.text().includes(': open'), 5000, 'event stream open');
        const dir = sys!.project('from-console');
        const res = await fetch(`${url.origin}/api/sessions/new`, {
          method: 'POST',
          headers: { ...auth, 'Content-Type': 'application/json' },
          body: JSON.stringify({ id: crypto.randomUUID(), dir, prompt: 'echo: from the console' }),
        });
        expect(res.status, await res.clone().text()).toBe(200);
        const listed = async () => {
          const r = await fetch(`${url.origin}/api/sessions`, { headers: auth });
          const { sessions } = (await r.json()) as {
            sessions: Array<{ id: string; cwd: string; messageCount: number }>;
          };
          return sessions.find((x) => x.cwd.endsWith('from-console'));
        };
        await until(
          async () => ((await listed())?.messageCount ?? 0) > 0,
          60_000,
          'console session listed with its messages',
        );
        // The list may be read before the change is announced (announcements wait for the writes to settle).
        await until(() => events.text().includes('event: sessions.changed'), 5000, 'sessions.changed pushed');
        const id = (await listed())!.id;
        const list = await cli('list', '--json');
        expect((JSON.parse(list.stdout) as Array<{ session_id: string }>).map((x) => x.session_id)).toContain(id);
      } finally {
        events.close();
      }
    },
    90_000,
  );

  it.skipIf(!HAS_CHROMIUM)(
    'the console page: a new session appears in the open list by itself; Refresh rescans',
    async () => {
      const d = await start('auto');
      const browser = await launchChromium();
      try {
        const page = await (await browser.newContext({ locale: 'en-US' })).newPage();
        page.setDefaultTimeout(10_000);
        await page.goto(d.web!.url);
        await page.click('#tab-sessions');
        await page.locator('#s-list .empty').waitFor();
        await new Promise((r) => setTimeout(r, 300)); // the page's event stream is open
        const s = terminalSession();
        // Nothing clicked: the push (sessions.changed) reloads the list.
        await page.locator(`.session-row[data-id="${s.id}"]`).waitFor({ timeout: LIVE_MS + 1000 });
        const rescan = page.waitForRequest((r) => r.url().endsWith('/api/sessions/rescan') && r.method() === 'POST');
        const reload = page.waitForResponse((r) => /\/api\/sessions\?/.test(r.url()) && r.status() === 200);
        await page.click('#s-filters button[type="submit"]');
        await rescan;
        await reload;
      } finally {
        await browser.close();
      }
    },
    60_000,
  );

  it.skipIf(!HAS_CHROMIUM)(
    'the console page: an open session that grows in a terminal shows its new turn, the shown ones stay in place',
    async () => {
      const d = await start('auto');
      const spec = { id: fakeUuid(rng), cwd: path.join(sys!.home, 'Git', 'grow'), start: new Date() };
      writeSession(
        sys!.paths.claudeDir,
        { ...spec, turns: [{ prompt: 'first question', answer: 'first answer' }] },
        rng,
      );
      await until(() => inRegistry(spec.id), LIVE_MS + 1000, 'in the registry');
      const browser = await launchChromium();
      try {
        const page = await (await browser.newContext({ locale: 'en-US' })).newPage();
        page.setDefaultTimeout(10_000);
        await page.goto(d.web!.url.replace(/#.*$/, '') + `#/sessions/${spec.id}`);
        await page.locator('#s-turns .turn', { hasText: 'first answer' }).waitFor();
        // Marks the shown nodes: a rebuilt view would lose the mark.
        await page.$$eval('#s-turns .turn', (nodes) => nodes.forEach((n) => n.setAttribute('data-kept', '1')));
        const turns = [
          { prompt: 'first question', answer: 'first answer' },
          { prompt: 'second question', answer: 'second answer from the terminal' },
        ];
        writeSession(sys!.paths.claudeDir, { ...spec, turns }, rng);
        // Nothing clicked: the push (sessions.changed) appends the new turn.
        await page.locator('#s-turns .turn', { hasText: 'second answer from the terminal' }).waitFor();
        const kept = await page.$$eval('#s-turns .turn', (nodes) => nodes.map((n) => n.getAttribute('data-kept')));
        // The first message was never redrawn (the last shown one is: the agent may add to it).
        expect(kept).toEqual(['1', null, null, null]);
      } finally {
        await browser.close();
      }
    },
    60_000,
  );

  it.skipIf(!CLAUDE_BIN)(
    'a real `claude -p` in a terminal while start runs is listed within 2 s of its end',
    async () => {
      const d = await start('auto');
      const cwd = sys!.project('demo');
      const out = await runClaude(['-p', '--output-format', 'json'], 'echo: from the terminal', cwd, sys!.env);
      const id = (JSON.parse(out) as { session_id: string }).session_id;
      await until(() => inRegistry(id), LIVE_MS, 'claude -p session in the registry');
      expect(d.sessions.live.modes()[sys!.paths.claudeProjectsDir]).toBe('watch');
    },
    90_000,
  );

  it('sync, clean and repair while start runs: the daemon does them; the output is the standalone one', async () => {
    const d = await start('auto');
    const s = terminalSession();
    const viaDaemon = await cli('sync');
    expect(viaDaemon.status, viaDaemon.stderr).toBe(0);
    expect(viaDaemon.stdout).toContain('Sync complete. Total registered: 1');
    expect(await inRegistry(s.id)).toBe(true);
    const json = await cli('sync', '--json');
    expect(json.status, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({ total: 1 });
    const clean = await cli('clean', '--json');
    expect(clean.status, clean.stderr).toBe(0);
    expect(JSON.parse(clean.stdout)).toMatchObject({ dry_run: false, removed: [], kept: [] });
    const repair = await cli('repair', s.id.slice(0, 8));
    const missing = await cli('repair', 'ffffffff');
    const lastSync = await cli('sync');
    await d.stop(1000);
    daemon = undefined;
    // The same commands, standalone, on the same state: the same output, the same exit codes.
    const same = (a: Run, b: Run) => expect([a.status, a.stdout, a.stderr]).toEqual([b.status, b.stdout, b.stderr]);
    same(lastSync, await cli('sync'));
    same(repair, await cli('repair', s.id.slice(0, 8)));
    same(missing, await cli('repair', 'ffffffff'));
    expect(missing.status).not.toBe(0);
  }, 60_000);
});
