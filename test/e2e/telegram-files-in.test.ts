import { readdir, readFile, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { TelegramHarness, OWNER_ID, until } from './telegram-harness.js';

let h: TelegramHarness;
afterEach(async () => {
  await h.cleanup();
});

const PDF = Buffer.from('%PDF-1.7\n1 0 obj\n<<>>\nendobj\n');

describe('Telegram files in (real grammY against the fake Bot API)', () => {
  it('keeps a document in its message folder (0600), named as sent and typed by its bytes', async () => {
    h = new TelegramHarness();
    const fake = await h.fake();
    fake.files.set('docs/report', PDF);
    const { channel, bridge, options } = await h.channel(fake);
    fake.pushMessage(OWNER_ID, '', {
      text: undefined,
      caption: 'summarise this',
      document: { file_id: 'docs/report', file_unique_id: 'u1', file_name: '../Q3 report.pdf', file_size: PDF.length },
    });
    await until(() => bridge.accepted.length === 1, 'the document accepted');
    const accepted = bridge.accepted[0]!;
    expect(accepted.unsupportedType).toBeUndefined();
    const prepared = await channel.prepare(accepted);
    const file = prepared.files?.[0];
    expect(prepared.text).toBe('summarise this');
    expect(file).toMatchObject({ name: '../Q3 report.pdf', size: PDF.length, mime: 'application/pdf' });
    const local = file?.localPath ?? '';
    expect(path.dirname(path.dirname(local))).toBe(await realpath(options.attachmentsDir));
    expect(path.basename(local)).toBe('_Q3 report.pdf');
    expect(await readFile(local)).toEqual(PDF);
    expect((await stat(local)).mode & 0o777).toBe(0o600);
    expect((await stat(path.dirname(local))).mode & 0o777).toBe(0o700);
    expect(h.logs.join('')).not.toContain(fake.token);
  });

  it('names a file over the limit, or over the Bot API download limit, and the caption still runs', async () => {
    h = new TelegramHarness();
    const fake = await h.fake();
    fake.files.set('docs/big', Buffer.alloc(5_000, 1));
    fake.files.set('docs/huge', Buffer.alloc(20 * 1024 * 1024 + 1, 1));
    const files = { enabled: true, max_size_bytes: 1_000, cleanup_max_age_hours: 24, send_without_prompt: true };
    const { channel, bridge, options } = await h.channel(fake, { files });
    // No announced size: the stream cap stops it.
    fake.pushMessage(OWNER_ID, '', {
      text: undefined,
      caption: 'first',
      document: { file_id: 'docs/big', file_unique_id: 'u2', file_name: 'big.bin' },
    });
    await until(() => bridge.accepted.length === 1, 'the big file accepted');
    const big = await channel.prepare(bridge.accepted[0]!);
    expect(big.text).toBe('first');
    expect(big.files?.[0]?.localPath).toBeUndefined();
    expect(big.files?.[0]?.error).toBe('larger than the 1000 B limit, not kept');
    await until(() => fake.messages.some((m) => m.visible.includes('“big.bin” was not received')), 'the notice');
    expect(fake.messages.at(-1)?.visible).toContain('The rest of your message is processed as usual.');

    // Allowed by cc-linker's limit, but Telegram hands bots 20 MB at most: said so, nothing fetched.
    await channel.stop();
    const withRoom = await h.channel(fake, { files: { ...files, max_size_bytes: 50 * 1024 * 1024 } });
    fake.pushMessage(OWNER_ID, '', {
      text: undefined,
      caption: 'second',
      video: { file_id: 'docs/huge', file_unique_id: 'u3', duration: 9, file_size: 20 * 1024 * 1024 + 1 },
    });
    await until(() => withRoom.bridge.accepted.length === 1, 'the video accepted');
    const huge = await withRoom.channel.prepare(withRoom.bridge.accepted[0]!);
    expect(huge.text).toBe('second');
    expect(huge.files?.[0]).toMatchObject({ name: expect.stringMatching(/^video-\d+$/) });
    expect(huge.files?.[0]?.error).toContain('Telegram lets bots download files up to 20 MB only');
    expect(fake.callsOf('getFile')).toHaveLength(1);
    expect(await dirEntries(options.attachmentsDir)).toEqual([]);
  });
});

/** Every file kept under `dir` (its message folders included). */
async function dirEntries(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const folder of await readdir(dir).catch(() => [] as string[]))
    for (const name of await readdir(path.join(dir, folder))) out.push(path.join(folder, name));
  return out;
}
