import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { bridgeHarness, type BridgeHarness } from '../../../test/fakes/bridge-harness.js';
import {
  consoleOptions,
  loginCookie,
  openStream,
  rawRequest,
  sameOriginPost,
} from '../../../test/helpers/web-console-kit.js';
import { startWebConsole, type WebConsole } from './start-web-console.js';
import { WEB_USER_ID } from './web-channel.js';

// A long turn sent from the console ends with one `bridge.notify` event on the console's event
// stream (the page turns it into a browser notification and a title badge).
describe('web console: the notification of a long turn', () => {
  let bh: BridgeHarness | undefined;
  let web: WebConsole | undefined;
  afterEach(async () => {
    await web?.close();
    await bh?.cleanup();
    web = undefined;
    bh = undefined;
  });

  async function start(after: number): Promise<{ web: WebConsole; bh: BridgeHarness }> {
    bh = await bridgeHarness({
      bridge: {
        ownerPolicy: async (_c, userId) => (userId === WEB_USER_ID ? 'owner' : 'stranger'),
        // Every turn looks two minutes long to the notifier.
        notifyClock: {
          now: () => Date.now() + after,
          setTimeout: (fn, ms) => setTimeout(fn, ms),
          clearTimeout: (h) => clearTimeout(h as NodeJS.Timeout),
        },
      },
    });
    await bh.mapping.setSession(WEB_USER_ID, { sessionUuid: 's1', cwd: path.join(bh.home, 'Git/alpha') });
    web = await startWebConsole({ ...consoleOptions(bh.paths, bh.config), bridge: bh.bridge });
    bh.bridge.addChannel(web.channel);
    await web.channel.start(bh.bridge);
    return { web, bh };
  }

  async function sendFromPage(w: WebConsole, b: BridgeHarness, text: string) {
    const token = new URL(w.url).searchParams.get('token') as string;
    const cookie = await loginCookie(w.port, token);
    const stream = await openStream(w.port, cookie);
    const res = await rawRequest(w.port, '/api/bridge/messages', {
      method: 'POST',
      headers: { ...sameOriginPost(w.port, cookie), 'Content-Type': 'application/json' },
      body: JSON.stringify({ id: '6f1c2a8e-1b2c-4d3e-8f40-123456789abc', text }),
    });
    expect(res.status).toBe(200);
    await b.bridge.whenIdle();
    return stream;
  }

  const frames = (raw: string, type: string) =>
    raw
      .split('\n\n')
      .filter((f) => f.includes(`event: ${type}\n`))
      .map((f) => JSON.parse(f.slice(f.indexOf('data: ') + 6)) as Record<string, unknown>);

  it('carries exactly one bridge.notify event about the turn card', async () => {
    const { web: w, bh: b } = await start(120_000);
    const stream = await sendFromPage(w, b, 'summarise the repository');
    await stream.waitFor('event: bridge.notify');
    const notes = frames(stream.received(), 'bridge.notify');
    stream.close();
    expect(notes).toHaveLength(1);
    expect(notes[0]?.text).toMatch(/^✅ 完成：summarise the repository（用时 2 分 \d+ 秒）$/);
    // The card it is about is the reply the page shows.
    expect(frames(stream.received(), 'bridge.message').map((m) => m.id)).toContain(notes[0]?.messageId);
  });

  it('carries none for a short turn', async () => {
    const { web: w, bh: b } = await start(0);
    const stream = await sendFromPage(w, b, 'quick one');
    await stream.waitFor('event: bridge.message');
    stream.close();
    expect(frames(stream.received(), 'bridge.notify')).toEqual([]);
  });
});
