import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DingTalkHarness, OWNER_STAFF_ID, until } from './dingtalk-harness.js';

let h: DingTalkHarness;
afterEach(async () => {
  await h.cleanup();
});

const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');

/** Every file under `dir` (recursively), hidden ones too. */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name));
}

describe('DingTalk files in (real dingtalk-stream against the fake)', () => {
  it('takes a file message: downloaded by its downloadCode into its own folder, 0600, named safely, typed by its bytes', async () => {
    h = new DingTalkHarness();
    const fake = await h.fake();
    const { channel, bridge, options } = await h.channel(fake);
    await until(() => fake.connections === 1, 'the Stream socket');
    fake.addFile('code-pdf', PDF, 'application/octet-stream');
    fake.addFile('code-voice', Buffer.from('#!AMR\n\0\0voice'), 'audio/amr');
    const file = fake.push(
      fake.robotMessage(OWNER_STAFF_ID, '', {
        msgtype: 'file',
        content: { downloadCode: 'code-pdf', fileName: '../../报告 v2.pdf', spaceId: 's1', fileId: 'f1' },
      }),
    );
    fake.push(
      fake.robotMessage(OWNER_STAFF_ID, '', {
        msgtype: 'audio',
        // No `recognition` (DingTalk did not transcribe it): the audio is kept as a file.
        content: { downloadCode: 'code-voice', duration: 2000 },
      }),
    );
    await until(() => bridge.accepted.length === 2 && file.acked, 'both messages');
    const [doc, voice] = bridge.accepted;
    expect(doc).toMatchObject({ text: '', images: [], files: [{ key: 'code-pdf', name: '../../报告 v2.pdf' }] });
    expect(doc?.unsupportedType).toBeUndefined();

    const prepared = await channel.prepare(doc!);
    const kept = prepared.files?.[0];
    expect(kept).toMatchObject({ name: '../../报告 v2.pdf', size: PDF.length, mime: 'application/pdf' });
    expect(kept?.error).toBeUndefined();
    const saved = kept?.localPath ?? '';
    expect(path.basename(saved)).toBe('_.._报告 v2.pdf');
    expect(path.dirname(path.dirname(saved))).toBe(options.attachmentsDir);
    expect(await readFile(saved)).toEqual(PDF);
    expect((await stat(saved)).mode & 0o777).toBe(0o600);
    expect((await stat(path.dirname(saved))).mode & 0o777).toBe(0o700);

    const heard = await channel.prepare(voice!);
    expect(heard.files?.[0]?.localPath).toBeDefined();
    expect(path.basename(heard.files?.[0]?.localPath ?? '')).toBe(`audio-${voice!.platformMessageId}`);
    // No notice for files that were kept.
    expect(fake.messagesTo(OWNER_STAFF_ID)).toEqual([]);
  });

  it('keeps no part of a file over files.max_size_bytes and says so once; the message is not lost', async () => {
    h = new DingTalkHarness();
    const fake = await h.fake();
    const base = await h.options(fake);
    const { channel, bridge, options } = await h.channel(fake, { files: { ...base.files, max_size_bytes: 16 } });
    await until(() => fake.connections === 1, 'the Stream socket');
    fake.addFile('code-big', PDF, 'application/pdf');
    const push = fake.push(
      fake.robotMessage(OWNER_STAFF_ID, '', {
        msgtype: 'file',
        content: { downloadCode: 'code-big', fileName: 'big.pdf' },
      }),
    );
    await until(() => bridge.accepted.length === 1 && push.acked, 'the message');
    const prepared = await channel.prepare(bridge.accepted[0]!);
    expect(prepared.id).toBe(bridge.accepted[0]!.id);
    expect(prepared.files).toEqual([
      { key: 'code-big', name: 'big.pdf', error: 'larger than the 16 B limit, not kept' },
    ]);
    expect(await filesUnder(options.attachmentsDir)).toEqual([]);
    expect(fake.messagesTo(OWNER_STAFF_ID).map((m) => m.text)).toEqual([
      'The file “big.pdf” was not received: larger than the 16 B limit, not kept',
    ]);
    // Prepared again (a retried record): nothing downloaded, no second notice.
    await channel.prepare(prepared);
    await channel.prepare(bridge.accepted[0]!);
    expect(fake.messagesTo(OWNER_STAFF_ID)).toHaveLength(1);
  });

  it('names a download DingTalk refuses (its own reason) and runs the rest of the message', async () => {
    h = new DingTalkHarness();
    const fake = await h.fake();
    const { channel, bridge, options } = await h.channel(fake);
    await until(() => fake.connections === 1, 'the Stream socket');
    fake.push(
      fake.robotMessage(OWNER_STAFF_ID, '', {
        msgtype: 'file',
        content: { downloadCode: 'code-gone', fileName: 'a.pdf' },
      }),
    );
    await until(() => bridge.accepted.length === 1, 'the message');
    const refused = 'DingTalk API call failed (messageFiles/download): “400 invalidDownloadCode”';
    const gone = await channel.prepare(bridge.accepted[0]!);
    expect(gone.files).toEqual([{ key: 'code-gone', name: 'a.pdf', error: refused }]);
    fake.addFile('code-ok', PDF, 'application/pdf');
    const mixed = await channel.prepare({
      ...bridge.accepted[0]!,
      id: 'dingtalk:other',
      platformMessageId: 'other',
      text: 'and this question',
      files: [
        { key: 'code-gone', name: 'a.pdf' },
        { key: 'code-ok', name: 'b.pdf' },
      ],
    });
    expect(mixed.text).toBe('and this question');
    expect(mixed.files?.map((f) => [f.name, f.error, f.localPath !== undefined])).toEqual([
      ['a.pdf', refused, false],
      ['b.pdf', undefined, true],
    ]);
    expect(fake.messagesTo(OWNER_STAFF_ID).map((m) => m.text)).toEqual([
      `The file “a.pdf” was not received: ${refused}`,
      `The file “a.pdf” was not received: ${refused}\nThe rest of your message is processed as usual.`,
    ]);
    expect((await filesUnder(options.attachmentsDir)).map((f) => path.basename(f))).toEqual(['b.pdf']);
  });

  it('still names audio or video without a downloadCode as not supported', async () => {
    h = new DingTalkHarness();
    const fake = await h.fake();
    const { bridge } = await h.channel(fake);
    await until(() => fake.connections === 1, 'the Stream socket');
    fake.push(fake.robotMessage(OWNER_STAFF_ID, '', { msgtype: 'video', content: { duration: 3 } }));
    await until(() => bridge.accepted.length === 1, 'the message');
    expect(bridge.accepted[0]).toMatchObject({ unsupportedType: 'video' });
    expect(bridge.accepted[0]?.files).toBeUndefined();
  });
});
