import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  fakeStatus,
  loginCookie,
  rawRequest as request,
  sameOriginPost,
  startTestConsole,
  stopTestConsole,
  type TestConsole,
} from '../../../test/helpers/web-console-kit.js';
import type { InboundMessage } from '../../bridge/inbound-message.js';
import { fileLine } from '../../bridge/pipeline/build-prompt.js';
import { defaultConfig } from '../../core/default-config.js';
import { webFileMessages } from './web-file-messages.js';

// The console's uploads: stored whole under the cap or not at all, under a safe name inside their
// own private folder, taken once by the message that names them, behind the same guards as every POST.
const PDF = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(2000, 0x20), Buffer.from('\n%%EOF\n')]);
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64, 1)]);
const en = webFileMessages('en');

describe('web console: uploads', () => {
  let t: TestConsole | null = null;
  const got: InboundMessage[] = [];
  afterEach(async () => {
    if (t) await stopTestConsole(t);
    t = null;
    got.length = 0;
  });

  async function start(config = defaultConfig()): Promise<{ port: number; cookie: string }> {
    t = await startTestConsole({
      config,
      bridge: {
        accept: async (m) => {
          if (got.some((g) => g.id === m.id)) return { status: 'duplicate' };
          got.push(m);
          return { status: 'accepted' };
        },
        handleAction: async () => ({}),
        status: async () => fakeStatus,
      },
    });
    return { port: t.web.port, cookie: await loginCookie(t.web.port, t.token) };
  }

  const upload = (port: number, cookie: string, name: string, body: Buffer, extra: Record<string, string> = {}) =>
    request(port, '/api/uploads', {
      method: 'POST',
      headers: {
        ...sameOriginPost(port, cookie),
        'Content-Type': 'application/octet-stream',
        'X-File-Name': encodeURIComponent(name),
        'X-Console-Lang': 'en',
        ...extra,
      },
      body,
    });
  const post = (port: number, cookie: string, body: unknown) =>
    request(port, '/api/bridge/messages', {
      method: 'POST',
      headers: { ...sameOriginPost(port, cookie), 'Content-Type': 'application/json', 'X-Console-Lang': 'en' },
      body: JSON.stringify(body),
    });
  /** Every file under the attachments folder (relative paths). */
  const kept = (): string[] => {
    const dir = (t as TestConsole).paths.attachmentsDir;
    if (!fs.existsSync(dir)) return [];
    return fs
      .readdirSync(dir, { recursive: true, encoding: 'utf8' })
      .filter((f) => fs.statSync(path.join(dir, f)).isFile());
  };

  it('stores a file privately under its own id and hands it to the agent as a [file: …] line, an image as an image', async () => {
    const { port, cookie } = await start();
    const a = await upload(port, cookie, '季度 report.pdf', PDF);
    expect(a.status).toBe(200);
    const pdf = JSON.parse(a.body).upload;
    expect(pdf).toMatchObject({ name: '季度 report.pdf', size: PDF.length, mime: 'application/pdf', image: false });
    expect(pdf.id).toMatch(/^[0-9a-f]{32}$/);
    const png = JSON.parse((await upload(port, cookie, 'shot.png', PNG)).body).upload;
    expect(png).toMatchObject({ mime: 'image/png', image: true });

    const r = await post(port, cookie, { id: crypto.randomUUID(), text: 'read these', files: [pdf.id, png.id] });
    expect(r.status).toBe(200);
    expect(JSON.parse(r.body).message.files).toEqual([
      { name: '季度 report.pdf', size: PDF.length, image: false },
      { name: 'shot.png', size: PNG.length, image: true },
    ]);
    const m = got[0] as InboundMessage;
    const file = m.files?.[0];
    const root = fs.realpathSync((t as TestConsole).paths.attachmentsDir);
    expect(file?.localPath).toBe(path.join(root, `web-${pdf.id}`, '季度 report.pdf'));
    expect(fs.readFileSync(file?.localPath as string).equals(PDF)).toBe(true);
    expect(fs.statSync(file?.localPath as string).mode & 0o777).toBe(0o600);
    expect(fs.statSync(path.dirname(file?.localPath as string)).mode & 0o777).toBe(0o700);
    expect(fileLine(file!)).toBe(`[file: ${file?.localPath} (季度 report.pdf, 2 KB, application/pdf)]`);
    expect(m.images).toEqual([{ key: png.id, localPath: path.join(root, `web-${png.id}`, 'shot.png') }]);
  });

  it('refuses a file over files.max_size_bytes with 413 and keeps nothing, announced or streamed', async () => {
    const config = defaultConfig();
    config.files.max_size_bytes = 1000;
    const { port, cookie } = await start(config);
    const big = Buffer.alloc(5000, 0x61);
    const announced = await upload(port, cookie, 'big.txt', big);
    expect(announced.status).toBe(413);
    expect(JSON.parse(announced.body).error).toBe(en('uploadTooLarge', { size: '1000 B' }));
    // No Content-Length: the body streams and is cut as it passes the cap.
    const streamed = await upload(port, cookie, 'big.txt', big, { 'Transfer-Encoding': 'chunked' });
    expect(streamed.status).toBe(413);
    expect(kept()).toEqual([]);
    expect(fs.readdirSync((t as TestConsole).paths.attachmentsDir)).toEqual([]);
    expect((await upload(port, cookie, 'ok.txt', Buffer.alloc(1000, 0x61))).status).toBe(200);
  });

  it('makes hostile names one safe name inside the upload folder', async () => {
    const { port, cookie } = await start();
    const names: Array<[string, (n: string) => void]> = [
      ['../../etc/passwd', (n) => expect(n).toBe('_.._etc_passwd')],
      ['a\u0000b\n.txt', (n) => expect(n).toBe('a_b_.txt')],
      ['x'.repeat(300) + '.pdf', (n) => expect(Buffer.byteLength(n)).toBeLessThanOrEqual(200)],
      ['..', (n) => expect(n).toBe('file')],
    ];
    for (const [name, check] of names) {
      const r = await upload(port, cookie, name, PDF);
      expect(r.status, name).toBe(200);
      check(JSON.parse(r.body).upload.name);
    }
    // A header that is not valid URI encoding is named `file`, not refused.
    expect(JSON.parse((await upload(port, cookie, '', PDF, { 'X-File-Name': '%E0%A4%A' })).body).upload.name).toBe(
      'file',
    );
    for (const f of kept()) expect(f.split(path.sep)).toHaveLength(2);
    expect(fs.existsSync(path.join((t as TestConsole).dir, 'etc'))).toBe(false);
  });

  it('refuses a message naming an unknown or already sent upload: nothing runs, nothing is recorded', async () => {
    const { port, cookie } = await start();
    const id = JSON.parse((await upload(port, cookie, 'a.pdf', PDF)).body).upload.id as string;
    for (const bad of ['0'.repeat(32), '../../etc/passwd', id.toUpperCase()]) {
      const r = await post(port, cookie, { id: crypto.randomUUID(), text: 'hi', files: [id, bad] });
      expect(r.status, bad).toBe(400);
      expect(JSON.parse(r.body).error).toBe(en('uploadUnknown', { id: bad }));
    }
    expect(got).toEqual([]);
    const history = await request(port, '/api/bridge/messages', { headers: { Cookie: cookie } });
    expect(JSON.parse(history.body).messages).toEqual([]);
    // The good id was not used up by the refused messages; a retry of the message that took it is a duplicate.
    const uuid = crypto.randomUUID();
    expect((await post(port, cookie, { id: uuid, text: '', files: [id] })).status).toBe(200);
    expect(JSON.parse((await post(port, cookie, { id: uuid, text: '', files: [id] })).body).result.status).toBe(
      'duplicate',
    );
    const again = await post(port, cookie, { id: crypto.randomUUID(), text: 'again', files: [id] });
    expect(again.status).toBe(400);
    expect(got).toHaveLength(1);
    expect(got[0]?.text).toBe('');
    // A command takes no attachments (it would drop them silently).
    const fresh = JSON.parse((await upload(port, cookie, 'b.pdf', PDF)).body).upload.id as string;
    const command = await post(port, cookie, { id: crypto.randomUUID(), text: '/list', files: [fresh] });
    expect(command.status).toBe(400);
    expect(JSON.parse(command.body).error).toBe(en('uploadWithCommand'));
    expect(got).toHaveLength(1);
    // Not an array of ids, or too many: 400 before anything is looked at.
    expect((await post(port, cookie, { id: crypto.randomUUID(), text: 'x', files: 'a' })).status).toBe(400);
    const many = Array.from({ length: 11 }, () => id);
    expect((await post(port, cookie, { id: crypto.randomUUID(), text: 'x', files: many })).status).toBe(400);
  });

  it('keeps uploads behind the login and the same-origin check; nothing is stored for a refused request', async () => {
    const { port, cookie } = await start();
    const anon = await request(port, '/api/uploads', {
      method: 'POST',
      headers: { 'Content-Type': 'application/octet-stream', 'X-File-Name': 'a.pdf' },
      body: PDF,
    });
    expect(anon.status).toBe(401);
    const cross = await upload(port, cookie, 'a.pdf', PDF, {
      Origin: 'http://evil.example',
      'Sec-Fetch-Site': 'cross-site',
    });
    expect(cross.status).toBe(403);
    const form = await upload(port, cookie, 'a.pdf', PDF, { 'Content-Type': 'multipart/form-data; boundary=x' });
    expect(form.status).toBe(415);
    expect(JSON.parse(form.body).error).toBe(en('uploadType'));
    expect(kept()).toEqual([]);
  });

  it('refuses uploads while files are turned off', async () => {
    const config = defaultConfig();
    config.files.enabled = false;
    const { port, cookie } = await start(config);
    const r = await upload(port, cookie, 'a.pdf', PDF);
    expect(r.status).toBe(403);
    expect(JSON.parse(r.body).error).toBe(en('uploadsOff'));
    expect(kept()).toEqual([]);
  });
});
