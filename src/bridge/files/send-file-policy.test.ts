import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../core/logger.js';
import type { ChannelOutbox } from '../channel.js';
import type { FileReply } from '../reply-model.js';
import { createFileSender } from './file-sender.js';
import { checkSendFile, type SendFilePolicy } from './send-file-policy.js';

const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
let home: string;
let policy: SendFilePolicy;

beforeEach(() => {
  home = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'send-file-')));
  fs.mkdirSync(path.join(home, 'Git/app/out'), { recursive: true });
  fs.mkdirSync(path.join(home, 'Git/other'), { recursive: true });
  fs.mkdirSync(path.join(home, 'Downloads'), { recursive: true });
  fs.writeFileSync(path.join(home, 'Git/app/out/chart.png'), PNG);
  fs.writeFileSync(path.join(home, 'Git/app/notes.md'), '# notes\n');
  fs.writeFileSync(path.join(home, 'Git/other/secret.txt'), 'secret');
  fs.writeFileSync(path.join(home, 'Downloads/x.txt'), 'x');
  policy = {
    cwd: path.join(home, 'Git/app'),
    attachmentDirs: [],
    allowedRoots: ['~/Git'],
    deniedRoots: ['~', '/', '~/Downloads'],
    home,
    maxSizeBytes: 30 * 1024 * 1024,
    lang: 'en',
  };
});
afterEach(() => fs.rmSync(home, { recursive: true, force: true }));

/** A channel that records what it was asked to send. */
function recordingOutbox(): ChannelOutbox & { files: FileReply[] } {
  const files: FileReply[] = [];
  return {
    files,
    maxTextChunk: 4000,
    send: () => Promise.reject(new Error('unused')),
    update: () => Promise.reject(new Error('unused')),
    openStream: () => Promise.reject(new Error('unused')),
    sendFile: (_t, file) => {
      files.push(file);
      return Promise.resolve({ messageId: `m${files.length}` });
    },
  };
}

describe('checkSendFile', () => {
  it('accepts a file of the session, relative or absolute; an image by its bytes', async () => {
    const rel = await checkSendFile('out/chart.png', policy);
    expect(rel).toMatchObject({
      ok: true,
      file: { name: 'chart.png', mime: 'image/png', image: true, size: PNG.length },
    });
    const abs = await checkSendFile(path.join(home, 'Git/app/notes.md'), policy);
    expect(abs).toMatchObject({ ok: true, file: { mime: 'text/plain', image: false } });
  });

  it('a .png that is not a PNG is sent as a file', async () => {
    fs.writeFileSync(path.join(home, 'Git/app/fake.png'), 'not an image');
    expect(await checkSendFile('fake.png', policy)).toMatchObject({ ok: true, file: { image: false } });
  });

  const hostile: Array<[string, () => string, string]> = [
    ['.. out of the session', () => '../other/secret.txt', 'outside-session'],
    ['/etc/passwd', () => '/etc/passwd', 'outside-session'],
    [
      'a symlink pointing out',
      () => {
        fs.symlinkSync(path.join(home, 'Git/other/secret.txt'), path.join(home, 'Git/app/link.txt'));
        return 'link.txt';
      },
      'outside-session',
    ],
    [
      'a symlink to /etc/passwd',
      () => {
        fs.symlinkSync('/etc/passwd', path.join(home, 'Git/app/passwd'));
        return 'passwd';
      },
      'outside-session',
    ],
    [
      'a FIFO (refused without opening: an open would block)',
      () => {
        execFileSync('mkfifo', [path.join(home, 'Git/app/pipe')]);
        return 'pipe';
      },
      'not-regular',
    ],
    ['a directory', () => 'out', 'not-regular'],
    [
      'a 2 GB sparse file',
      () => {
        execFileSync('truncate', ['-s', '2G', path.join(home, 'Git/app/big.bin')]);
        return 'big.bin';
      },
      'too-large',
    ],
    [
      'an empty file',
      () => {
        fs.writeFileSync(path.join(home, 'Git/app/empty.txt'), '');
        return 'empty.txt';
      },
      'empty',
    ],
    ['a missing file', () => 'nope.txt', 'not-found'],
    ['a NUL in the path', () => 'a\0b', 'invalid'],
    ['an empty path', () => '  ', 'invalid'],
  ];
  for (const [name, make, code] of hostile) {
    it(`refuses ${name}: ${code}, nothing sent`, async () => {
      const input = make();
      const check = await checkSendFile(input, policy);
      expect(check).toMatchObject({ ok: false, code });
      const outbox = recordingOutbox();
      const answer = await createFileSender({
        outbox,
        target: { channel: 'feishu', userId: 'ou_x', chatId: 'oc_x' },
        keyPrefix: 'msg1',
        policy,
        logger: silentLogger,
      }).sendFile({ path: input });
      expect(answer.ok).toBe(false);
      expect(answer.text).toMatch(/^Not sent: /);
      expect(outbox.files).toEqual([]);
    });
  }

  it('refuses a session directory inside a denied root, and one outside the allowed roots', async () => {
    fs.mkdirSync(path.join(home, 'Git/app/private'));
    fs.writeFileSync(path.join(home, 'Git/app/private/key.pem'), 'k');
    const denied = { ...policy, deniedRoots: [...policy.deniedRoots, '~/Git/app/private'] };
    expect(await checkSendFile('private/key.pem', denied)).toMatchObject({ ok: false, code: 'denied' });
    fs.mkdirSync(path.join(home, 'elsewhere'));
    fs.writeFileSync(path.join(home, 'elsewhere/a.txt'), 'a');
    expect(await checkSendFile('a.txt', { ...policy, cwd: path.join(home, 'elsewhere') })).toMatchObject({
      ok: false,
      code: 'outside-allowed',
    });
  });

  it("accepts a file of the message's attachments outside the session", async () => {
    const dir = path.join(home, '.cc-linker/images');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'in.png'), PNG);
    expect(await checkSendFile(path.join(dir, 'in.png'), policy)).toMatchObject({ ok: false, code: 'outside-session' });
    expect(await checkSendFile(path.join(dir, 'in.png'), { ...policy, attachmentDirs: [dir] })).toMatchObject({
      ok: true,
    });
  });

  it('the sender sends an accepted file under one key per call and says what it sent (zh too)', async () => {
    const outbox = recordingOutbox();
    const keys: string[] = [];
    const send = outbox.sendFile!.bind(outbox);
    outbox.sendFile = (t, f, key) => (keys.push(key), send(t, f, key));
    const sender = createFileSender({
      outbox,
      target: { channel: 'feishu', userId: 'ou_x', chatId: 'oc_x' },
      keyPrefix: 'msg1',
      policy: { ...policy, lang: 'zh' },
      logger: silentLogger,
    });
    expect(await sender.sendFile({ path: 'out/chart.png', caption: ' the chart ' })).toEqual({
      ok: true,
      text: '已发送图片「chart.png」（16 B）到聊天。',
    });
    await sender.sendFile({ path: 'notes.md' });
    expect(keys).toEqual(['msg1:file:1', 'msg1:file:2']);
    expect(outbox.files[0]).toMatchObject({ caption: 'the chart', path: path.join(home, 'Git/app/out/chart.png') });
  });
});
