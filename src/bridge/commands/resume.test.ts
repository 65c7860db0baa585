import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { commandFixture, type CommandFixture } from '../../../test/fakes/fake-command-context.js';
import { fakeSession } from '../../../test/fakes/fake-session-directory.js';
import type { CardReply } from '../reply-model.js';
import { shellQuote } from '../../core/shell-quote.js';
import { handleResume } from './resume.js';

let f: CommandFixture;
const A = '8c4b1297-0000-4000-8000-000000000001';

beforeEach(async () => {
  f = await commandFixture();
});
afterEach(() => f.cleanup());

const resume = () => handleResume({ name: 'resume', ref: { prefix: '8c4b' } }, f.ctx);

describe('/resume', () => {
  it('gives both terminal commands for an active session and changes nothing', async () => {
    f.sessions.sessions.set(A, fakeSession(A, { title: 'Alpha', cwd: '/Users/x/Git/cc linker' }));
    const card = (await resume()).reply as CardReply;
    expect(card).toMatchObject({ kind: 'card', title: '🖥 在终端恢复会话', status: 'info' });
    expect(card.sections).toEqual([
      { type: 'plain', text: `Alpha\nID: ${A}` },
      { type: 'markdown', text: '在终端执行以下任一命令即可继续该会话：' },
      { type: 'plain', text: `cc-linker resume 8c4b1297\ncd '/Users/x/Git/cc linker' && claude --resume ${A}` },
      { type: 'markdown', text: '提示：在终端继续该会话时，请避免同时在这里向它发送消息。' },
    ]);
    expect(await f.ctx.mapping.get('ou_owner')).toBeNull();
  });

  it('treats archived like active', async () => {
    f.sessions.sessions.set(A, fakeSession(A, { status: 'archived', cwd: '/w/a' }));
    const card = (await resume()).reply as CardReply;
    expect(card.sections[2]).toEqual({
      type: 'plain',
      text: `cc-linker resume 8c4b1297\ncd /w/a && claude --resume ${A}`,
    });
  });

  it('advises repair first for degraded and provisioning sessions, never a bare claude --resume', async () => {
    f.sessions.sessions.set(A, fakeSession(A, { status: 'degraded', last_error: 'jsonl_path not found' }));
    const card = (await resume()).reply as CardReply;
    expect(card.status).toBe('warning');
    expect(card.sections[1]).toEqual({
      type: 'markdown',
      text: '该会话状态为「降级」，建议先修复再恢复，不要直接执行 claude --resume：',
    });
    expect(card.sections[2]).toEqual({ type: 'plain', text: 'cc-linker repair 8c4b1297\ncc-linker resume 8c4b1297' });
    expect(card.sections[3]).toEqual({ type: 'plain', text: '原因：jsonl_path not found' });
    expect(JSON.stringify(card)).not.toContain('claude --resume 8c4b');
    f.ctx.lang = 'en';
    f.sessions.sessions.set(A, fakeSession(A, { status: 'provisioning' }));
    const en = (await resume()).reply as CardReply;
    expect(en.sections[1]).toEqual({
      type: 'markdown',
      text: 'This session is "provisioning". Repair it before resuming; do not run claude --resume directly:',
    });
  });

  it('refuses a corrupted session', async () => {
    f.sessions.sessions.set(A, fakeSession(A, { status: 'corrupted' }));
    expect((await resume()).reply).toEqual({
      kind: 'text',
      text: '会话 8c4b1297 已损坏，无法恢复。请 /switch 到其他会话或 /new 创建新会话。',
    });
  });

  it('quotes a directory with spaces and $(…) in the printed command', async () => {
    f.sessions.sessions.set(A, fakeSession(A, { cwd: '/w/my app/$(touch pwned)' }));
    const card = (await resume()).reply as CardReply;
    expect(card.sections[2]).toEqual({
      type: 'plain',
      text: `cc-linker resume 8c4b1297\ncd '/w/my app/$(touch pwned)' && claude --resume ${A}`,
    });
  });

  it("names the daemon's Claude Code binary, quoted, when `claude` is not on PATH", async () => {
    f.sessions.sessions.set(A, fakeSession(A, { cwd: '/w/a' }));
    const card = (
      await handleResume(
        { name: 'resume', ref: { prefix: '8c4b' } },
        { ...f.ctx, claudeProgram: '/opt/node modules/claude' },
      )
    ).reply as CardReply;
    expect(card.sections[2]).toEqual({
      type: 'plain',
      text: `cc-linker resume 8c4b1297\ncd /w/a && '/opt/node modules/claude' --resume ${A}`,
    });
  });

  it('refuses an id that is not a session id (an older version took it from a file name)', async () => {
    const hostile = '--dangerously-skip-permissions';
    f.sessions.sessions.set(hostile, fakeSession(hostile, { cwd: '/w/a' }));
    const reply = (await handleResume({ name: 'resume', ref: { prefix: '--danger' } }, f.ctx)).reply;
    expect(reply).toEqual({
      kind: 'text',
      text: '--danger 不是 Claude Code 的会话 ID（UUID），无法在终端恢复；下次同步会把它从会话列表中移除。',
    });
    expect(JSON.stringify(reply)).not.toContain('claude --resume');
  });

  it('quotes paths for the shell only when needed', () => {
    expect(shellQuote('/a/b-c_d.e')).toBe('/a/b-c_d.e');
    expect(shellQuote("/a/it's here")).toBe(`'/a/it'\\''s here'`);
    expect(shellQuote('/a/$(rm -rf ~)')).toBe(`'/a/$(rm -rf ~)'`);
  });
});
