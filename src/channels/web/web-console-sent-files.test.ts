import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  consoleOptions,
  loginCookie,
  rawRequest as request,
  startTestConsole,
  stopTestConsole,
  type TestConsole,
} from '../../../test/helpers/web-console-kit.js';
import type { FileReply } from '../../bridge/reply-model.js';
import { startWebConsole } from './start-web-console.js';
import { webFileMessages } from './web-file-messages.js';

// Files the agent sends to the console: copied at send time into a private folder, shown as a file
// card with a download link, served only by an id the outbox wrote, as an attachment — after a
// restart too — and removed by the age cleanup.
const target = { channel: 'web', userId: 'web:owner', chatId: 'web', sessionId: 's-1' };

describe('web console: files the agent sends', () => {
  let t: TestConsole | null = null;
  afterEach(async () => {
    if (t) await stopTestConsole(t);
    t = null;
  });

  /** Writes `bytes` into the test home and describes it as the bridge's send policy would. */
  function agentFile(name: string, bytes: Buffer, mime: string, image: boolean, caption?: string): FileReply {
    const file = path.join((t as TestConsole).dir, name);
    fs.writeFileSync(file, bytes);
    return { kind: 'file', path: file, name, mime, size: bytes.length, image, ...(caption ? { caption } : {}) };
  }
  const history = async (port: number, cookie: string) =>
    JSON.parse((await request(port, '/api/bridge/messages', { headers: { Cookie: cookie } })).body).messages as Array<{
      id: string;
      html?: string;
    }>;
  const idIn = (html: string): string => /\/api\/files\/sent\/([0-9a-f]{32})/.exec(html)?.[1] as string;

  it('shows a file card whose download is the bytes sent, whatever happens to the original later', async () => {
    t = await startTestConsole();
    const port = t.web.port;
    const cookie = await loginCookie(port, t.token);
    const bytes = Buffer.from('col1,col2\n1,2\n');
    const file = agentFile('report <"1">.csv', bytes, 'text/plain', false, 'the **numbers**');
    const { messageId } = await t.web.channel.outbox.sendFile!(target, file, 'm1:file:0');
    // A repeated key (the bridge retrying) is the same message and no second copy.
    expect((await t.web.channel.outbox.sendFile!(target, file, 'm1:file:0')).messageId).toBe(messageId);
    fs.writeFileSync(file.path, 'changed afterwards');

    const card = (await history(port, cookie)).find((m) => m.id === messageId)?.html as string;
    expect(card).toContain('report &lt;&quot;1&quot;&gt;.csv');
    expect(card).toContain('<strong>numbers</strong>');
    expect(card).toContain('14 B');
    expect(card).not.toContain('<img');
    const id = idIn(card);
    const sentDir = path.join(t.paths.home, 'web', 'sent');
    expect(fs.readdirSync(sentDir)).toEqual([id]);
    expect(fs.statSync(path.join(sentDir, id)).mode & 0o777).toBe(0o600);
    expect(fs.statSync(sentDir).mode & 0o777).toBe(0o700);

    const r = await request(port, `/api/files/sent/${id}`, { headers: { Cookie: cookie } });
    expect(r.status).toBe(200);
    expect(r.body).toBe(bytes.toString());
    expect(r.headers['content-disposition']).toBe(
      `attachment; filename="report <_1_>.csv"; filename*=UTF-8''${encodeURIComponent('report <"1">.csv')}`,
    );
    expect(r.headers['content-type']).toBe('application/octet-stream');
    expect(r.headers['x-content-type-options']).toBe('nosniff');

    // Only ids the outbox wrote: a file dropped into the folder by hand is not served, nor is anything without a login.
    fs.writeFileSync(path.join(sentDir, 'f'.repeat(32)), 'planted');
    expect((await request(port, `/api/files/sent/${'f'.repeat(32)}`, { headers: { Cookie: cookie } })).status).toBe(
      404,
    );
    expect((await request(port, '/api/files/sent/..%2F..%2Fconfig.toml', { headers: { Cookie: cookie } })).status).toBe(
      404,
    );
    expect((await request(port, `/api/files/sent/${id}`)).status).toBe(401);
  });

  it('shows an image inline with its type, and keeps both after a restart until the age cleanup removes the copy', async () => {
    t = await startTestConsole();
    const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(32, 7)]);
    const { messageId } = await t.web.channel.outbox.sendFile!(
      target,
      agentFile('chart.png', png, 'image/png', true),
      'k',
    );
    await t.web.close();

    t.web = await startWebConsole(consoleOptions(t.paths, t.config));
    const port = t.web.port;
    const cookie = await loginCookie(port, t.token);
    const card = (await history(port, cookie)).find((m) => m.id === messageId)?.html as string;
    const id = idIn(card);
    expect(card).toContain(`<img class="file-preview" src="/api/files/sent/${id}" alt="chart.png"`);
    const r = await request(port, `/api/files/sent/${id}`, { headers: { Cookie: cookie } });
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toBe('image/png');
    expect(r.headers['content-disposition']).toMatch(/^attachment;/);
    await t.web.close();

    // Older than files.cleanup_max_age_hours: the next start's cleanup removes it, and the link says so.
    const copy = path.join(t.paths.home, 'web', 'sent', id);
    const old = new Date(Date.now() - (t.config.files.cleanup_max_age_hours + 1) * 3600_000);
    fs.utimesSync(copy, old, old);
    t.web = await startWebConsole(consoleOptions(t.paths, t.config));
    await expect.poll(() => fs.existsSync(copy)).toBe(false);
    const gone = await request(t.web.port, `/api/files/sent/${id}`, {
      headers: { Cookie: await loginCookie(t.web.port, t.token), 'X-Console-Lang': 'en' },
    });
    expect(gone.status).toBe(410);
    expect(JSON.parse(gone.body).error).toBe(webFileMessages('en')('sentFileGone'));
  });
});
