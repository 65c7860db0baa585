import { truncate, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { FileReply } from '../../src/bridge/reply-model.js';
import { DingTalkHarness, OWNER_STAFF_ID } from './dingtalk-harness.js';

let h: DingTalkHarness;
afterEach(async () => {
  await h.cleanup();
});

const target = { channel: 'dingtalk', userId: OWNER_STAFF_ID, chatId: `cid-${OWNER_STAFF_ID}` };
const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');
const PDF = Buffer.from('%PDF-1.4\n%%EOF\n');

/** A checked file as the bridge hands it to `sendFile`, written into a fresh folder. */
async function fileReply(name: string, bytes: Buffer, mime: string, over: Partial<FileReply> = {}): Promise<FileReply> {
  const file = path.join(await h.dir(), name);
  await writeFile(file, bytes);
  return { kind: 'file', path: file, name, mime, size: bytes.length, image: mime.startsWith('image/'), ...over };
}

describe('DingTalk files out (media/upload + batchSend against the fake)', () => {
  it('uploads once and sends a file message once per key, the caption after it; not again after a restart', async () => {
    h = new DingTalkHarness();
    const fake = await h.fake();
    const runtimeDir = path.join(await h.dir(), 'runtime');
    const first = await h.channel(fake, { runtimeDir });
    const pdf = await fileReply('report.pdf', PDF, 'application/pdf', { caption: 'the *report*' });
    const a = await first.channel.outbox.sendFile!(target, pdf, 'turn-1:file:1');
    const b = await first.channel.outbox.sendFile!(target, pdf, 'turn-1:file:1');
    expect(b).toEqual(a);
    expect(fake.media.uploads.map((u) => [u.type, u.name, u.bytes.equals(PDF)])).toEqual([
      ['file', 'report.pdf', true],
    ]);
    const mediaId = fake.media.uploads[0]!.mediaId;
    expect(fake.messagesTo(OWNER_STAFF_ID).map((m) => [m.msgKey, m.param])).toEqual([
      ['sampleFile', { mediaId, fileName: 'report.pdf', fileType: 'pdf' }],
      ['sampleMarkdown', { title: 'the report', text: 'the *report*' }],
    ]);
    expect(a.messageId).toBe(`${OWNER_STAFF_ID}/${fake.sent[0]!.processQueryKey}`);
    await first.channel.stop();
    const second = await h.channel(fake, { runtimeDir });
    await second.channel.outbox.sendFile!(target, pdf, 'turn-1:file:1');
    expect(fake.media.uploads).toHaveLength(1);
    expect(fake.sent).toHaveLength(2);
  });

  it('sends a png as a picture (type image, sampleImageMsg) and a webp image as a file', async () => {
    h = new DingTalkHarness();
    const fake = await h.fake();
    const { channel } = await h.channel(fake);
    await channel.outbox.sendFile!(target, await fileReply('chart.png', PNG, 'image/png'), 'k:file:1');
    await channel.outbox.sendFile!(target, await fileReply('x.webp', PNG, 'image/webp'), 'k:file:2');
    expect(fake.media.uploads.map((u) => [u.type, u.name])).toEqual([
      ['image', 'chart.png'],
      ['file', 'x.webp'],
    ]);
    expect(fake.messagesTo(OWNER_STAFF_ID).map((m) => [m.msgKey, m.param])).toEqual([
      ['sampleImageMsg', { photoURL: fake.media.uploads[0]!.mediaId }],
      ['sampleFile', { mediaId: fake.media.uploads[1]!.mediaId, fileName: 'x.webp', fileType: 'webp' }],
    ]);
  });

  it('retries a 429, renews a refused token, and a failed send after the upload does not upload again', async () => {
    h = new DingTalkHarness();
    const fake = await h.fake();
    const { channel } = await h.channel(fake);
    const pdf = await fileReply('a.pdf', PDF, 'application/pdf');
    await channel.outbox.send(target, { kind: 'text', text: 'the token is cached now' }, 'k:text');
    const tokens = fake.tokenCalls;
    fake.failNext(429, 2);
    await channel.outbox.sendFile!(target, pdf, 'k:file:1');
    expect(fake.tokenCalls).toBe(tokens);
    expect([fake.media.uploads.length, fake.sent.length]).toEqual([1, 2]);
    fake.expireTokens();
    const calls = fake.tokenCalls;
    await channel.outbox.sendFile!(target, pdf, 'k:file:2');
    expect(fake.tokenCalls).toBe(calls + 1);
    expect([fake.media.uploads.length, fake.sent.length]).toEqual([2, 3]);
    // DingTalk refuses the message once; the retried delivery reuses the upload.
    const refuse = fake.media.refuse.bind(fake.media);
    fake.media.refuse = () => 'fake: refused once';
    await expect(channel.outbox.sendFile!(target, pdf, 'k:file:3')).rejects.toThrow('fake: refused once');
    fake.media.refuse = refuse;
    await channel.outbox.sendFile!(target, pdf, 'k:file:3');
    expect([fake.media.uploads.length, fake.sent.length]).toEqual([3, 4]);
  });

  it('refuses an empty file or one over 20 MB by name, uploading nothing; an upload error never shows the token', async () => {
    h = new DingTalkHarness();
    const fake = await h.fake();
    const { channel } = await h.channel(fake);
    const big = await fileReply('big.zip', Buffer.alloc(1), 'application/zip');
    await truncate(big.path, 25 * 1024 * 1024);
    await expect(channel.outbox.sendFile!(target, big, 'k:file:1')).rejects.toThrow(
      'The file “big.zip” is 25 MB, over DingTalk’s 20 MB limit; not sent',
    );
    const empty = await fileReply('empty.txt', Buffer.alloc(0), 'text/plain');
    await expect(channel.outbox.sendFile!(target, empty, 'k:file:2')).rejects.toThrow(
      'The file “empty.txt” is empty and DingTalk takes no empty file; not sent',
    );
    expect(fake.media.uploads).toEqual([]);

    await channel.outbox.sendFile!(target, await fileReply('ok.pdf', PDF, 'application/pdf'), 'k:file:3');
    const token = fake.media.uploads[0]!.token;
    fake.media.maxBytes = 4;
    const err = await channel.outbox.sendFile!(
      target,
      await fileReply('four.pdf', PDF, 'application/pdf'),
      'k:file:4',
    ).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(err?.message).toBe(
      'DingTalk API call failed (media/upload): “400 errcode 40006: fake: file size 15 not accepted”',
    );
    const shown = `${err?.message} ${String(err?.stack)} ${JSON.stringify(err)} ${h.logs.join('')}`;
    expect(shown).not.toContain(token);
    expect(shown).not.toContain('access_token');
    expect(fake.sent.map((m) => m.param.fileName)).toEqual(['ok.pdf']);
  });
});
