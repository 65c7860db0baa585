import { readdir, readFile, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { until } from './telegram-harness.js';
import { OWNER, SlackHarness } from './slack-harness.js';

let h: SlackHarness;
afterEach(async () => {
  await h.cleanup();
});

const PDF = Buffer.from('%PDF-1.7\n1 0 obj\n<<>>\nendobj\n');
const files = { enabled: true, max_size_bytes: 1_000, cleanup_max_age_hours: 24, send_without_prompt: true };

describe('Slack files in (real Bolt against the fake Slack)', () => {
  it('keeps a shared PDF in its message folder (0600), named as sent, typed by its bytes, fetched with the bot token', async () => {
    h = new SlackHarness();
    const fake = await h.fake();
    const { channel, bridge, options } = await h.channel(fake);
    await until(() => channel.status().connected, 'connected');
    const pushed = fake.pushMessage(OWNER, 'summarise this', {
      subtype: 'file_share',
      files: [fake.addFile('F0PDF', '../Q3 report.pdf', 'application/pdf', PDF)],
    });
    await until(() => bridge.accepted.length === 1, 'the file accepted');
    const accepted = bridge.accepted[0]!;
    expect(accepted.unsupportedType).toBeUndefined();
    await until(() => fake.hub.acks.has(pushed.envelope.envelope_id), 'the ack');
    const prepared = await channel.prepare(accepted);
    expect(prepared.text).toBe('summarise this');
    const file = prepared.files?.[0];
    expect(file).toMatchObject({ name: '../Q3 report.pdf', size: PDF.length, mime: 'application/pdf' });
    const local = file?.localPath ?? '';
    expect(path.dirname(path.dirname(local))).toBe(await realpath(options.attachmentsDir));
    expect(path.basename(local)).toBe('_Q3 report.pdf');
    expect(await readFile(local)).toEqual(PDF);
    expect((await stat(local)).mode & 0o777).toBe(0o600);
    expect((await stat(path.dirname(local))).mode & 0o777).toBe(0o700);
    expect(fake.downloads).toEqual(['F0PDF']);
    // Prepared again (a retried record): kept as it is, not fetched twice.
    expect((await channel.prepare(prepared)).files).toEqual(prepared.files);
    expect(fake.downloads).toHaveLength(1);
    expect(h.logs.join('')).not.toContain(fake.botToken);
  });

  it('names a file over the limit in a reply, keeps the others, and the text still runs', async () => {
    h = new SlackHarness();
    const fake = await h.fake();
    const { channel, bridge, options } = await h.channel(fake, { files });
    await until(() => channel.status().connected, 'connected');
    const big = fake.addFile('F0BIG', 'big.bin', 'application/octet-stream', Buffer.alloc(5_000, 1));
    // Announced by Slack as over the limit: refused before a byte is fetched.
    fake.pushMessage(OWNER, 'first', {
      subtype: 'file_share',
      files: [big, fake.addFile('F0OK', 'ok.pdf', 'application/pdf', PDF)],
    });
    // Announced small (a size Slack got wrong): the stream cap stops it, nothing half-kept.
    fake.pushMessage(OWNER, '', {
      subtype: 'file_share',
      files: [{ ...fake.addFile('F0LIE', 'lie.bin', 'application/zip', Buffer.alloc(5_000, 2)), size: 10 }],
    });
    await until(() => bridge.accepted.length === 2, 'both accepted');
    const first = await channel.prepare(bridge.accepted[0]!);
    expect(first.text).toBe('first');
    expect(first.files?.map((f) => [f.name, f.error, f.localPath !== undefined])).toEqual([
      ['big.bin', 'larger than the 1000 B limit, not kept', false],
      ['ok.pdf', undefined, true],
    ]);
    expect(fake.downloads).toEqual(['F0OK']);
    const dm = fake.dm(OWNER);
    await until(() => fake.inChannel(dm).some((m) => m.visible.includes('“big.bin” was not received')), 'the notice');
    expect(fake.inChannel(dm).at(-1)?.visible).toContain('The rest of your message is processed as usual.');

    const second = await channel.prepare(bridge.accepted[1]!);
    expect(second.files?.[0]).toMatchObject({ name: 'lie.bin', error: 'larger than the 1000 B limit, not kept' });
    await until(() => fake.inChannel(dm).some((m) => m.visible.includes('“lie.bin” was not received')), 'notice 2');
    expect(await dirEntries(options.attachmentsDir)).toEqual(['ok.pdf']);
  });

  it('sends the bot token for a file only to Slack: the same file behind another origin is not fetched', async () => {
    h = new SlackHarness();
    const fake = await h.fake();
    const { channel, bridge } = await h.channel(fake);
    await until(() => channel.status().connected, 'connected');
    const shared = fake.addFile('F0FAR', 'far.pdf', 'application/pdf', PDF);
    const elsewhere = String(shared.url_private_download).replace('//127.0.0.1:', '//localhost:');
    fake.pushMessage(OWNER, 'look', { subtype: 'file_share', files: [{ ...shared, url_private_download: elsewhere }] });
    await until(() => bridge.accepted.length === 1, 'accepted');
    const prepared = await channel.prepare(bridge.accepted[0]!);
    expect(prepared.files?.[0]).toMatchObject({ name: 'far.pdf', error: expect.any(String) });
    expect(prepared.files?.[0]?.localPath).toBeUndefined();
    expect(fake.downloads).toEqual([]);
  });
});

/** Every file kept under `dir` (its message folders included). */
async function dirEntries(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const folder of await readdir(dir).catch(() => [] as string[]))
    for (const name of await readdir(path.join(dir, folder))) out.push(name);
  return out.sort();
}
