// Files out, end to end: a Feishu message → the REAL Claude Code (sdk mode, scripted by the fake
// Anthropic API) calls `mcp__cc-linker__send_file` → the file is checked and uploaded to the fake
// Feishu server, then sent as an image / file message. The tool result Claude reads says what was
// sent or why not; a refused path uploads and sends nothing.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CASE_TIMEOUT_MS, CLAUDE_BIN, OWNER, showLogOnFailure, startSystem, type System } from './system-harness.js';

const TOOL = 'mcp__cc-linker__send_file';
const PNG = Buffer.concat([Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'), Buffer.alloc(64, 7)]);

describe.skipIf(!CLAUDE_BIN)('send_file over Feishu, sdk mode (real SDK, real Claude Code)', () => {
  let s: System;
  let cwd: string;

  beforeAll(async () => {
    s = await startSystem('sdk');
    cwd = s.sys.project('files');
    fs.mkdirSync(path.join(cwd, 'out'));
    fs.writeFileSync(path.join(cwd, 'out/chart.png'), PNG);
    fs.writeFileSync(path.join(cwd, 'report.pdf'), '%PDF-1.7\n% a tiny pdf\n');
  }, CASE_TIMEOUT_MS);
  afterAll(async () => {
    await s?.stop();
  }, CASE_TIMEOUT_MS);

  /** Runs `/new <cwd> -- tool: send_file {input}` and returns what Claude read as the tool's result. */
  async function callTool(input: Record<string, unknown>): Promise<{ messageId: string; result: string }> {
    const prompt = `tool: ${TOOL} ${JSON.stringify(input)}`;
    const { messageId } = await s.send(`/new ${cwd} -- ${prompt}`);
    await s.finished(messageId);
    const req = s.anth
      .messageRequests()
      .find(
        (r) =>
          r.scriptRequest?.lastUserToolResults[0]?.toolName === TOOL &&
          r.scriptRequest.lastUserToolResults[0].toolInput?.path === input.path,
      );
    const content = req?.scriptRequest?.lastUserToolResults[0]?.content;
    return { messageId, result: typeof content === 'string' ? content : JSON.stringify(content) };
  }

  it(
    'an image of the session is uploaded as an image and sent without a prompt; Claude reads that it was sent',
    async () => {
      showLogOnFailure(() => s);
      const { result } = await callTool({ path: 'out/chart.png', caption: 'the chart' });
      expect(result).toContain('Sent the image "chart.png"');
      const upload = s.fake.uploads.find((u) => u.kind === 'image');
      expect(upload?.bytes.equals(PNG)).toBe(true);
      const sent = s.fake.messagesTo(OWNER).filter((m) => m.msg_type === 'image');
      expect(sent.map((m) => m.content)).toEqual([{ image_key: upload?.key }]);
      expect(s.fake.sent.some((m) => m.msg_type === 'text' && JSON.stringify(m.content).includes('the chart'))).toBe(
        true,
      );
    },
    CASE_TIMEOUT_MS,
  );

  it(
    'a PDF goes as a file message (file_type pdf)',
    async () => {
      showLogOnFailure(() => s);
      const { result } = await callTool({ path: 'report.pdf' });
      expect(result).toContain('Sent the file "report.pdf"');
      const upload = s.fake.uploads.find((u) => u.kind === 'file');
      expect(upload?.fields).toMatchObject({ file_type: 'pdf', file_name: 'report.pdf' });
      expect(s.fake.sent.filter((m) => m.msg_type === 'file').map((m) => m.content)).toEqual([
        { file_key: upload?.key },
      ]);
    },
    CASE_TIMEOUT_MS,
  );

  it(
    'a follow-up on the warm session sends into its own turn (the kept child uses the current turn)',
    async () => {
      showLogOnFailure(() => s);
      const before = s.fake.sent.filter((m) => m.msg_type === 'file').length;
      const prompt = `tool: ${TOOL} ${JSON.stringify({ path: 'out/../report.pdf' })}`;
      const { messageId } = await s.send(prompt); // plain text: the session /new just made
      await s.finished(messageId);
      const files = s.fake.sent.filter((m) => m.msg_type === 'file');
      expect(files.length).toBe(before + 1);
      expect(s.fake.uploads.at(-1)?.fields).toMatchObject({ file_name: 'report.pdf' });
    },
    CASE_TIMEOUT_MS,
  );

  it(
    'an image over 10 MB goes as a file message (Feishu takes images only up to 10 MB)',
    async () => {
      showLogOnFailure(() => s);
      const big = Buffer.concat([PNG, Buffer.alloc(10 * 1024 * 1024 + 1024, 1)]);
      fs.writeFileSync(path.join(cwd, 'out/big.png'), big);
      const images = s.fake.uploads.filter((u) => u.kind === 'image').length;
      const { result } = await callTool({ path: 'out/big.png' });
      expect(result).toContain('Sent the image "big.png"');
      const upload = s.fake.uploads.at(-1);
      expect(upload?.kind).toBe('file');
      expect(upload?.fields).toMatchObject({ file_type: 'stream', file_name: 'big.png' });
      expect(upload?.bytes.equals(big)).toBe(true);
      expect(s.fake.uploads.filter((u) => u.kind === 'image').length).toBe(images);
      expect(s.fake.sent.at(-1)).toMatchObject({ msg_type: 'file', content: { file_key: upload?.key } });
    },
    CASE_TIMEOUT_MS,
  );

  it(
    'a failed upload: nothing is sent, Claude reads that it failed and why, the turn still answers',
    async () => {
      showLogOnFailure(() => s);
      const uploads = s.fake.uploads.length;
      const files = s.fake.sent.filter((m) => m.msg_type === 'file' || m.msg_type === 'image').length;
      s.fake.failNext(
        { method: 'POST', pathPrefix: '/open-apis/im/v1/files' },
        { status: 400, code: 234001, msg: 'invalid file' },
      );
      const { messageId, result } = await callTool({ path: './report.pdf' });
      expect(result).toMatch(/^Not sent: uploading or sending report\.pdf failed \(.+\)\.$/);
      expect(result).not.toContain(s.fake.appSecret);
      expect(s.fake.uploads.length).toBe(uploads);
      expect(s.fake.sent.filter((m) => m.msg_type === 'file' || m.msg_type === 'image').length).toBe(files);
      // The turn went on after the failure: its reply card finished (callTool waited for it).
      expect(s.fake.sent.some((m) => m.parent_id === messageId && m.msg_type === 'interactive')).toBe(true);
    },
    CASE_TIMEOUT_MS,
  );

  it(
    '/etc/passwd and a symlink out are refused: nothing uploaded or sent, Claude reads why',
    async () => {
      showLogOnFailure(() => s);
      fs.symlinkSync('/etc/passwd', path.join(cwd, 'passwd'));
      const uploads = s.fake.uploads.length;
      const files = s.fake.sent.filter((m) => m.msg_type === 'file' || m.msg_type === 'image').length;
      for (const p of ['/etc/passwd', 'passwd', '../../etc/passwd']) {
        const { result } = await callTool({ path: p });
        expect(result).toMatch(/Not sent: .* is neither in this session's directory/);
      }
      expect(s.fake.uploads.length).toBe(uploads);
      expect(s.fake.sent.filter((m) => m.msg_type === 'file' || m.msg_type === 'image').length).toBe(files);
    },
    CASE_TIMEOUT_MS,
  );
});

describe.skipIf(!CLAUDE_BIN)('send_file turned off with claude.disallowed_tools', () => {
  let s: System;
  beforeAll(async () => {
    s = await startSystem('sdk', { tweak: (c) => (c.claude.disallowed_tools = ['mcp__cc-linker']) });
  }, CASE_TIMEOUT_MS);
  afterAll(async () => {
    await s?.stop();
  }, CASE_TIMEOUT_MS);

  it(
    'the call is denied: nothing uploaded or sent',
    async () => {
      showLogOnFailure(() => s);
      const cwd = s.sys.project('off');
      fs.writeFileSync(path.join(cwd, 'a.txt'), 'a');
      const { messageId } = await s.send(`/new ${cwd} -- tool: ${TOOL} {"path":"a.txt"}`);
      await s.finished(messageId);
      const results = s.anth.messageRequests().flatMap((r) => r.scriptRequest?.lastUserToolResults ?? []);
      expect(results.length).toBeGreaterThan(0);
      expect(results.every((r) => r.is_error === true)).toBe(true);
      expect(s.fake.uploads).toEqual([]);
      expect(s.fake.sent.filter((m) => m.msg_type === 'file' || m.msg_type === 'image')).toEqual([]);
    },
    CASE_TIMEOUT_MS,
  );
});
