// Files out from an ACP agent through the whole system: a Feishu message → the daemon assembled as
// `cc-linker start` does → the REAL Codex (offline, fake Responses API) is offered `cc-linker mcp`
// in session/new → the fake model calls send_file → Codex asks (a card; the owner clicks Allow) →
// the call crosses the daemon's socket with the process's token → the turn's sender checks the
// file and uploads it to the fake Feishu server. A path outside the session is refused and sends
// nothing.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SentMessage } from '../fakes/fake-feishu/fake-feishu-server.js';
import { sendFileScript } from '../fakes/fake-llm/send-file-script.js';
import {
  CASE_TIMEOUT_MS,
  CLAUDE_BIN,
  CODEX_BIN,
  click,
  promptCard,
  showLogOnFailure,
  startSystem,
  type System,
} from './system-harness.js';

describe.skipIf(!CLAUDE_BIN || !CODEX_BIN)('send_file from Codex over Feishu (the whole system)', () => {
  let s: System;
  let cwd: string;

  beforeAll(async () => {
    s = await startSystem('sdk', { agents: ['codex'] });
    s.codex?.fake.setScript(sendFileScript);
    cwd = s.sys.project('codex-files');
    fs.writeFileSync(path.join(cwd, 'report.pdf'), '%PDF-1.7\n% a tiny pdf\n');
  }, CASE_TIMEOUT_MS);
  afterAll(async () => {
    await s?.stop();
  }, CASE_TIMEOUT_MS);

  /** Sends `text`, clicks Allow on Codex's question, waits for the final reply; returns what the user read. */
  async function turnWithAllow(text: string): Promise<{ messageId: string; answer: string }> {
    const { messageId } = await s.send(text);
    await s.fake.waitFor(() => promptCard(s.fake, messageId) !== undefined, CASE_TIMEOUT_MS);
    expect(await click(s.fake, promptCard(s.fake, messageId) as SentMessage, 'Allow')).toMatchObject({
      type: 'success',
    });
    await s.finished(messageId);
    await s.runtime.bridge.whenIdle();
    return { messageId, answer: s.answer(messageId) };
  }

  it(
    'a file of the session is uploaded and sent as a reply to the message; the model reads that it was sent',
    async () => {
      showLogOnFailure(() => s);
      const { messageId, answer } = await turnWithAllow(
        `/new ${cwd} --agent codex -- SENDFILE: {"path":"report.pdf","caption":"the report"}`,
      );
      expect(answer).toContain('sent-result:');
      expect(answer).toContain('Sent the file');
      const upload = s.fake.uploads.find((u) => u.kind === 'file');
      expect(upload?.fields).toMatchObject({ file_type: 'pdf', file_name: 'report.pdf' });
      const files = s.fake.sent.filter((m) => m.msg_type === 'file');
      expect(files.map((m) => [m.content, m.parent_id])).toEqual([[{ file_key: upload?.key }, messageId]]);
    },
    CASE_TIMEOUT_MS,
  );

  it(
    '/etc/passwd is refused in the same session: nothing uploaded or sent, the model reads why',
    async () => {
      showLogOnFailure(() => s);
      const uploads = s.fake.uploads.length;
      const sent = s.fake.sent.filter((m) => m.msg_type === 'file').length;
      const { answer } = await turnWithAllow('SENDFILE: {"path":"/etc/passwd"}');
      expect(answer).toMatch(/Not sent: .* is neither in this session's directory/);
      expect(s.fake.uploads.length).toBe(uploads);
      expect(s.fake.sent.filter((m) => m.msg_type === 'file').length).toBe(sent);
    },
    CASE_TIMEOUT_MS,
  );
});
