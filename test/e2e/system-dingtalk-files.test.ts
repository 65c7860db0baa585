// Files both ways over DingTalk, the whole system (`assembleDaemon`): the REAL dingtalk-stream
// client against the fake DingTalk, the REAL bundled Claude Code against the fake Anthropic API.
// A file the owner sends is kept privately and named in Claude's prompt; Claude's send_file is
// uploaded to the fake's media store and arrives in the DingTalk chat as a file message, once.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { startFakeDingTalk, type FakeDingTalk } from '../fakes/fake-dingtalk/fake-dingtalk-server.js';
import { CASE_TIMEOUT_MS, CLAUDE_BIN, showLogOnFailure, startSystem, type System } from './system-harness.js';
import { pointDingTalkAt } from './dingtalk-harness.js';
import { until } from './telegram-harness.js';

const OWNER = 'owner5151';
const TOOL = 'mcp__cc-linker__send_file';
const PDF = Buffer.from('%PDF-1.7\n% a tiny pdf from dingtalk\n%%EOF\n');

describe.skipIf(!CLAUDE_BIN)('files both ways over DingTalk (real dingtalk-stream, real Claude Code)', () => {
  let s: System;
  let dt: FakeDingTalk;
  let cwd: string;

  beforeAll(async () => {
    dt = await startFakeDingTalk({ ackTimeoutMs: 1_000 });
    s = await startSystem('sdk', {
      tweak: (c) => {
        pointDingTalkAt(c, dt, OWNER);
      },
    });
    expect(s.runtime.dingtalk).toBe('started');
    await until(() => dt.connections === 1, 'the Stream connection');
    cwd = s.sys.project('dt-files');
    fs.writeFileSync(path.join(cwd, 'summary.pdf'), PDF);
  }, CASE_TIMEOUT_MS);
  afterAll(async () => {
    await s?.stop();
    await dt?.close();
  }, CASE_TIMEOUT_MS);

  /** The last prompt Claude was given (the newest API request's last user text). */
  const lastPrompt = () => s.anth.messageRequests().at(-1)?.scriptRequest?.lastUserText ?? '';
  /** Claude's answer in the chat containing `expected` (a card with the turns footer). */
  const answered = (expected: string) =>
    until(
      () => dt.messagesTo(OWNER).some((m) => m.text.includes(expected) && /🔄 \d+ turns/.test(m.text)),
      `the answer containing ${expected}`,
      45_000,
    );

  it(
    'a file sent to the robot is kept 0600 under attachments/ and named in the prompt',
    async () => {
      showLogOnFailure(() => s);
      onTestFailed(() => console.error(JSON.stringify(dt.sent, null, 1)));
      dt.push(dt.robotMessage(OWNER, `/new ${cwd} -- echo: ready`));
      await answered('ready');
      dt.addFile('code-report', PDF, 'application/octet-stream');
      const push = dt.push(
        dt.robotMessage(OWNER, '', {
          msgtype: 'file',
          content: { downloadCode: 'code-report', fileName: 'report.pdf' },
        }),
      );
      await until(() => /\[file: .*report\.pdf/.test(lastPrompt()), 'the prompt naming the file', 45_000);
      expect(push.acked).toBe(true);
      const line = /\[file: (\S+) \(report\.pdf, [^,]+, application\/pdf\)\]/.exec(lastPrompt());
      expect(line, lastPrompt()).not.toBeNull();
      const kept = line![1]!;
      expect(kept.startsWith(s.sys.paths.attachmentsDir)).toBe(true);
      expect(fs.readFileSync(kept).equals(PDF)).toBe(true);
      expect(fs.statSync(kept).mode & 0o777).toBe(0o600);
    },
    CASE_TIMEOUT_MS,
  );

  it(
    "Claude's send_file is uploaded to media/upload and sent as one file message; Claude reads that it was sent",
    async () => {
      showLogOnFailure(() => s);
      onTestFailed(() => console.error(JSON.stringify(dt.sent, null, 1)));
      dt.push(
        dt.robotMessage(OWNER, `tool: ${TOOL} ${JSON.stringify({ path: 'summary.pdf', caption: 'the summary' })}`),
      );
      await until(() => dt.media.uploads.length === 1, 'the upload', 45_000);
      const upload = dt.media.uploads[0]!;
      expect([upload.type, upload.name, upload.bytes.equals(PDF)]).toEqual(['file', 'summary.pdf', true]);
      await until(() => dt.messagesTo(OWNER).some((m) => m.msgKey === 'sampleFile'), 'the file message');
      await until(
        () => s.anth.messageRequests().some((r) => r.scriptRequest?.lastUserToolResults[0]?.toolName === TOOL),
        'the tool result',
        45_000,
      );
      const req = s.anth.messageRequests().find((r) => r.scriptRequest?.lastUserToolResults[0]?.toolName === TOOL);
      const content = req?.scriptRequest?.lastUserToolResults[0]?.content;
      expect(typeof content === 'string' ? content : JSON.stringify(content)).toContain('Sent the file "summary.pdf"');
      await s.runtime.bridge.whenIdle();
      const files = dt.messagesTo(OWNER).filter((m) => m.msgKey === 'sampleFile');
      expect(files.map((m) => m.param)).toEqual([
        { mediaId: upload.mediaId, fileName: 'summary.pdf', fileType: 'pdf' },
      ]);
      expect(dt.messagesTo(OWNER).filter((m) => m.text === 'the summary')).toHaveLength(1);
      expect(dt.media.uploads).toHaveLength(1);
    },
    CASE_TIMEOUT_MS,
  );

  it(
    'a voice message DingTalk transcribed is the prompt, quoted with 🎤 in the answer; no file is fetched',
    async () => {
      showLogOnFailure(() => s);
      dt.push(
        dt.robotMessage(OWNER, '', {
          msgtype: 'audio',
          content: { downloadCode: 'code-voice', duration: '3000', recognition: 'echo: 语音里说的话' },
        }),
      );
      const prompt = '[voice message, transcribed] echo: 语音里说的话';
      await until(() => lastPrompt() === prompt, 'the transcript as the prompt', 45_000);
      await until(
        () => dt.messagesTo(OWNER).some((m) => m.text.includes('🎤 echo: 语音里说的话') && /🔄 \d+ turns/.test(m.text)),
        'the answer quoting the transcript',
        45_000,
      );
      // No file line (a download would have named 'code-voice', which the fake does not know).
      expect(lastPrompt()).toBe(prompt);
    },
    CASE_TIMEOUT_MS,
  );
});
