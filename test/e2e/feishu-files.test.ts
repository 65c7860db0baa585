import { readFile, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { InboundMessage } from '../../src/bridge/inbound-message.js';
import { buildPrompt, filePaths } from '../../src/bridge/pipeline/build-prompt.js';
import type { SpoolRecord } from '../../src/bridge/spool/spool-record.js';
import { fileMessageEvent, postMessageEvent } from '../fakes/fake-feishu/fake-feishu-server.js';
import { FeishuHarness } from './feishu-harness.js';

// Files a user sends on Feishu, through the real Lark SDK against the fake Feishu: the channel
// accepts the event, downloads at processing time (`prepare`), and the bridge's prompt names the files.

const OWNER = 'ou_owner0000000000000000000000002';
const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer\n%%EOF\n');

let h: FeishuHarness;
afterEach(async () => {
  await h.cleanup();
});

const recordOf = (message: InboundMessage): SpoolRecord => ({
  schema: 1,
  message,
  acceptedAt: message.receivedAt,
  seq: 1,
  attempts: 0,
});

const idOf = (event: { event: Record<string, unknown> }): string =>
  (event.event.message as { message_id: string }).message_id;

describe('Feishu files in', () => {
  it('a PDF file message is kept 0600 in its message folder and the prompt names its absolute path', async () => {
    h = new FeishuHarness();
    const fake = await h.fake();
    const { channel, bridge, options } = await h.channel(fake);
    const event = fileMessageEvent({ openId: OWNER, fileKey: 'file_v3_pdf', fileName: '季度报告.pdf' });
    fake.addFile(idOf(event), 'file_v3_pdf', PDF, '季度报告.pdf');

    await fake.pushEvent(event);
    expect(bridge.accepted).toHaveLength(1);
    expect(bridge.accepted[0]?.files).toEqual([{ key: 'file_v3_pdf', name: '季度报告.pdf' }]);
    const prepared = await channel.prepare(bridge.accepted[0] as InboundMessage);

    const file = path.join(options.attachmentsDir, idOf(event), '季度报告.pdf');
    expect(filePaths(recordOf(prepared))).toEqual([file]);
    expect(buildPrompt(recordOf(prepared))).toBe(`[file: ${file} (季度报告.pdf, ${PDF.length} B, application/pdf)]`);
    expect(await readFile(file)).toEqual(PDF);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await stat(path.dirname(file))).mode & 0o777).toBe(0o700);
    expect(fake.sent).toHaveLength(0);
  });

  it('an over-size file in a post: the user is told with the limit, nothing is kept, the text still runs in order', async () => {
    h = new FeishuHarness();
    const fake = await h.fake();
    const { channel, bridge, options } = await h.channel(fake, {
      lang: 'en',
      files: { enabled: true, max_size_bytes: 50, cleanup_max_age_hours: 24, send_without_prompt: true },
    });
    const event = postMessageEvent({
      openId: OWNER,
      paragraphs: [
        [
          { tag: 'text', text: 'first ' },
          { tag: 'file', file_key: 'file_small', file_name: 'small.txt' },
        ],
        [
          { tag: 'text', text: 'then ' },
          { tag: 'file', file_key: 'file_big', file_name: 'big.pdf' },
        ],
        [{ tag: 'text', text: 'what do you think?' }],
      ],
    });
    fake.addFile(idOf(event), 'file_small', Buffer.from('hello\n'), 'small.txt');
    fake.addFile(idOf(event), 'file_big', PDF, 'big.pdf');

    await fake.pushEvent(event);
    const prepared = await channel.prepare(bridge.accepted[0] as InboundMessage);

    const folder = path.join(options.attachmentsDir, idOf(event));
    expect(await readdir(folder)).toEqual(['small.txt']);
    expect(buildPrompt(recordOf(prepared))).toBe(
      [
        'first',
        `[file: ${path.join(folder, 'small.txt')} (small.txt, 6 B, text/plain; charset=utf-8)]`,
        'then',
        '[file not downloaded: big.pdf — larger than the 50 B limit, not kept]',
        'what do you think?',
      ].join('\n'),
    );
    const notices = fake.messagesTo(OWNER).map((m) => fake.textOf(m));
    expect(notices).toEqual([
      'The file “big.pdf” was not received: larger than the 50 B limit, not kept\nThe rest of your message is processed as usual.',
    ]);
  });

  it('hostile file names stay inside the message folder', async () => {
    h = new FeishuHarness();
    const fake = await h.fake();
    const { channel, bridge, options } = await h.channel(fake);
    const names = ['../../etc/passwd', 'a/b', '\u0000'];
    const event = postMessageEvent({
      openId: OWNER,
      paragraphs: [names.map((name, i) => ({ tag: 'file' as const, file_key: `file_${i}`, file_name: name }))],
    });
    names.forEach((name, i) => fake.addFile(idOf(event), `file_${i}`, Buffer.from(`bytes ${i}`), name));

    await fake.pushEvent(event);
    const prepared = await channel.prepare(bridge.accepted[0] as InboundMessage);

    const folder = path.join(options.attachmentsDir, idOf(event));
    const kept = (prepared.files ?? []).map((f) => f.localPath ?? '');
    expect(kept.map((p) => path.dirname(p))).toEqual([folder, folder, folder]);
    expect((await readdir(folder)).sort()).toEqual(['_', '_.._etc_passwd', 'a_b']);
    expect(await readdir(options.attachmentsDir)).toEqual([idOf(event)]);
  });
});
