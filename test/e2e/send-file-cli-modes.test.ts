// Files out in the CLI modes, end to end: a Feishu message → the REAL Claude Code (`stream-json` and
// `json` modes, scripted by the fake Anthropic API) calls `mcp__cc-linker__send_file` of the stdio
// server `cc-linker mcp` it was given with `--mcp-config` → the call goes over the daemon's socket
// with the child's token → the running turn's sender checks the file and uploads it to the fake
// Feishu server. A refused path uploads and sends nothing; a warm stream-json child's next turn
// sends into its own turn's chat.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CASE_TIMEOUT_MS, CLAUDE_BIN, OWNER, showLogOnFailure, startSystem, type System } from './system-harness.js';

const TOOL = 'mcp__cc-linker__send_file';
const PNG = Buffer.concat([Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'), Buffer.alloc(64, 7)]);

describe.skipIf(!CLAUDE_BIN).each(['stream-json', 'json'] as const)('send_file over Feishu, %s mode', (mode) => {
  let s: System;
  let cwd: string;

  beforeAll(async () => {
    s = await startSystem(mode);
    cwd = s.sys.project('files');
    fs.mkdirSync(path.join(cwd, 'out'));
    fs.writeFileSync(path.join(cwd, 'out/chart.png'), PNG);
    fs.writeFileSync(path.join(cwd, 'report.pdf'), '%PDF-1.7\n% a tiny pdf\n');
  }, CASE_TIMEOUT_MS);
  afterAll(async () => {
    await s?.stop();
  }, CASE_TIMEOUT_MS);

  /** What Claude read as the result of its send_file call for `input.path` (the last such call). */
  function resultFor(input: Record<string, unknown>): string {
    const req = s.anth
      .messageRequests()
      .findLast(
        (r) =>
          r.scriptRequest?.lastUserToolResults[0]?.toolName === TOOL &&
          r.scriptRequest.lastUserToolResults[0].toolInput?.path === input.path,
      );
    const content = req?.scriptRequest?.lastUserToolResults[0]?.content;
    return typeof content === 'string' ? content : JSON.stringify(content);
  }

  /** Runs `/new <cwd> -- tool: send_file {input}` and returns what Claude read as the tool's result. */
  async function callTool(input: Record<string, unknown>): Promise<{ messageId: string; result: string }> {
    const { messageId } = await s.send(`/new ${cwd} -- tool: ${TOOL} ${JSON.stringify(input)}`);
    await s.finished(messageId);
    return { messageId, result: resultFor(input) };
  }

  const filesSent = (): number => s.fake.sent.filter((m) => m.msg_type === 'file' || m.msg_type === 'image').length;

  it(
    'the tool is offered; an image of the session is uploaded and sent without a prompt',
    async () => {
      showLogOnFailure(() => s);
      const { result } = await callTool({ path: 'out/chart.png', caption: 'the chart' });
      const offered = s.anth.messageRequests().map((r) => r.scriptRequest?.tools.map((t) => t.name) ?? []);
      expect(offered[0]).toContain(TOOL);
      expect(result).toContain('Sent the image "chart.png"');
      const upload = s.fake.uploads.find((u) => u.kind === 'image');
      expect(upload?.bytes.equals(PNG)).toBe(true);
      const sent = s.fake.messagesTo(OWNER).filter((m) => m.msg_type === 'image');
      expect(sent.map((m) => m.content)).toEqual([{ image_key: upload?.key }]);
      // The child's --mcp-config file is gone with the child (json) or kept only while it lives.
      if (mode === 'json') expect(fs.readdirSync(path.join(s.sys.paths.runtimeDir, 'mcp'))).toEqual([]);
    },
    CASE_TIMEOUT_MS,
  );

  it(
    '/etc/passwd and a symlink out are refused: nothing uploaded or sent, Claude reads why',
    async () => {
      showLogOnFailure(() => s);
      fs.symlinkSync('/etc/passwd', path.join(cwd, 'passwd'));
      const uploads = s.fake.uploads.length;
      const files = filesSent();
      for (const p of ['/etc/passwd', 'passwd', '../../etc/passwd']) {
        const { result } = await callTool({ path: p });
        expect(result).toMatch(/Not sent: .* is neither in this session's directory/);
      }
      expect(s.fake.uploads.length).toBe(uploads);
      expect(filesSent()).toBe(files);
    },
    CASE_TIMEOUT_MS,
  );

  it(
    'a follow-up in the session sends into its own turn (warm in stream-json: the same child, a later turn)',
    async () => {
      showLogOnFailure(() => s);
      const { messageId: first } = await callTool({ path: 'report.pdf' });
      const before = s.fake.sent.filter((m) => m.msg_type === 'file');
      expect(before.length).toBe(1);
      const input = { path: 'out/../report.pdf', caption: 'again' };
      const mcpDir = path.join(s.sys.paths.runtimeDir, 'mcp');
      const children = fs.readdirSync(mcpDir).sort(); // one --mcp-config file per live child
      const { messageId } = await s.send(`tool: ${TOOL} ${JSON.stringify(input)}`); // plain text: the session /new made
      await s.finished(messageId);
      expect(resultFor(input)).toContain('Sent the file "report.pdf"');
      const files = s.fake.sent.filter((m) => m.msg_type === 'file');
      expect(files.length).toBe(2);
      // Each file answers the message whose turn sent it.
      expect(files.map((m) => m.parent_id)).toEqual([first, messageId]);
      // stream-json: no new child (the kept one took the turn); json: a new child, gone again. A kept
      // child of an earlier case may have ended meanwhile (idle), so no file may be new, none must stay.
      const after = fs.readdirSync(mcpDir);
      expect(after.filter((f) => !children.includes(f))).toEqual([]);
      if (mode === 'stream-json') expect(after.length).toBeGreaterThan(0);
    },
    CASE_TIMEOUT_MS,
  );
});
