// Files and voice, both ways, as a user meets them on Feishu: a PDF sent to the bot reaches the
// agent as a file it can read, a voice note becomes the prompt (Feishu's speech recognition, the
// fake answering from the audio itself), and a file the agent wrote comes back into the chat — the
// whole daemon as `cc-linker start` assembles it, the real Lark SDK against the fake Feishu, the
// real Claude Code (sdk mode) scripted by the fake Anthropic API.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messageEvent } from '../fakes/fake-feishu/fake-feishu-server.js';
import { toneNote } from '../fakes/voice/ogg-opus-fixture.js';
import { CASE_TIMEOUT_MS, CLAUDE_BIN, OWNER, showLogOnFailure, startSystem, type System } from './system-harness.js';

const PDF = Buffer.from('%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj\n% the quarterly report\n%%EOF\n');

describe.skipIf(!CLAUDE_BIN)('a PDF and a voice note in, a file the agent wrote out (Feishu, real Claude Code)', () => {
  let s: System;
  let cwd: string;

  beforeAll(async () => {
    // Edits without asking (the file the agent writes); everything else as configured.
    s = await startSystem('sdk', { tweak: (c) => (c.sdk.permission_mode = 'acceptEdits') });
    cwd = s.sys.project('roundtrip');
  }, CASE_TIMEOUT_MS);
  afterAll(async () => {
    await s?.stop();
  }, CASE_TIMEOUT_MS);

  /** Pushes a non-text message as the owner and waits for its reply to finish; returns its id. */
  async function push(messageType: string, content: unknown, resource: { key: string; bytes: Buffer; name: string }) {
    const event = messageEvent({ openId: OWNER, messageType, content });
    const messageId = (event.event.message as { message_id: string }).message_id;
    s.fake.addFile(messageId, resource.key, resource.bytes, resource.name);
    const { ack } = await s.fake.pushEvent(event);
    expect(ack.code).toBe(200);
    await s.finished(messageId);
    return messageId;
  }

  /** The last prompt Claude was given (the newest API request's last user text). */
  const lastPrompt = () => s.anth.messageRequests().at(-1)?.scriptRequest?.lastUserText ?? '';

  it(
    'the PDF is kept privately and named in the prompt; the voice note is the next prompt; the written file comes back',
    async () => {
      showLogOnFailure(() => s);
      const started = await s.send(`/new ${cwd} -- echo: ready`);
      await s.finished(started.messageId);

      // 1. A PDF: downloaded 0600 under the attachments folder, its path, size and type in the prompt.
      await push(
        'file',
        { file_key: 'file_report', file_name: 'report.pdf' },
        { key: 'file_report', bytes: PDF, name: 'report.pdf' },
      );
      const line = /\[file: (\S+) \(report\.pdf, [^,]+, application\/pdf\)\]/.exec(lastPrompt());
      expect(line, lastPrompt()).not.toBeNull();
      const kept = line![1]!;
      expect(kept.startsWith(s.sys.paths.attachmentsDir)).toBe(true);
      expect(fs.readFileSync(kept).equals(PDF)).toBe(true);
      expect(fs.statSync(kept).mode & 0o777).toBe(0o600);

      // 2. A voice note: what Feishu heard is the prompt, and the reply card quotes it.
      const voice = await push(
        'audio',
        { file_key: 'file_voice', duration: 2000 },
        { key: 'file_voice', bytes: toneNote(440, 2), name: 'voice.opus' },
      );
      expect(lastPrompt()).toContain('tone 440 Hz');
      expect(s.answer(voice)).toContain('🎤 tone 440 Hz');

      // 3. The agent writes a file, then sends it into the chat.
      const summary = '# Summary\n\nThe report and the voice note, in one page.\n';
      const write = await s.send(
        `tool: Write ${JSON.stringify({ file_path: path.join(cwd, 'summary.md'), content: summary })}`,
      );
      await s.finished(write.messageId);
      expect(fs.readFileSync(path.join(cwd, 'summary.md'), 'utf8')).toBe(summary);
      const send = await s.send(`tool: mcp__cc-linker__send_file ${JSON.stringify({ path: 'summary.md' })}`);
      await s.finished(send.messageId);
      const upload = s.fake.uploads.at(-1);
      expect(upload?.fields).toMatchObject({ file_type: 'stream', file_name: 'summary.md' });
      expect(upload?.bytes.toString('utf8')).toBe(summary);
      const sent = s.fake.messagesTo(OWNER).filter((m) => m.msg_type === 'file');
      expect(sent.map((m) => m.content)).toEqual([{ file_key: upload?.key }]);
    },
    CASE_TIMEOUT_MS * 2,
  );
});
