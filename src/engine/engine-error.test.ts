import { afterEach, describe, expect, it } from 'vitest';
import { clearSecrets, registerSecret } from '../core/redact.js';
import { EngineError, failureDetail, isEngineError, type EngineErrorCode } from './engine-error.js';

afterEach(() => clearSecrets());

const PARAMS: Record<EngineErrorCode, Record<string, string | number>> = {
  SESSION_NOT_FOUND: { session: 'abcd1234' },
  CWD_MISSING: { cwd: '/home/me/gone' },
  CLAUDE_NOT_FOUND: { bin: '/opt/claude' },
  AGENT_NOT_FOUND: {
    agent: 'Codex',
    name: 'codex',
    command: 'codex-acp',
    install: 'npm i -g @zed-industries/codex-acp',
  },
  AGENT_UNKNOWN: { name: 'kodex', known: 'claude, codex, qwen' },
  LOAD_UNSUPPORTED: { agent: 'Gemini CLI' },
  RUN_FAILED: { detail: 'exit code 3' },
  TIMEOUT_IDLE: { timeoutMs: 300_000 },
  TIMEOUT_HARD: { timeoutMs: 1_800_000 },
  CANCELLED: {},
  MESSAGE_TOO_LONG: { length: 12000, limit: 10000 },
  SESSION_BUSY: { session: 'abcd1234', timeoutMs: 600_000 },
};

describe('EngineError', () => {
  it.each(Object.keys(PARAMS) as EngineErrorCode[])(
    '%s has one-line zh and en messages with their parameters',
    (code) => {
      const e = new EngineError(code, PARAMS[code]);
      expect(e.code).toBe(code);
      expect(e.userMessage).not.toMatch(/[\n{}]/);
      expect(e.localize('en')).not.toMatch(/[\n{}]/);
      expect(e.localize('en')).not.toBe(e.userMessage);
      for (const v of Object.values(PARAMS[code]).filter((v) => typeof v === 'string'))
        expect(e.userMessage).toContain(v);
      expect(isEngineError(e, code)).toBe(true);
    },
  );

  it('says what to do: /switch for a lost session, the directory for a missing cwd, human durations', () => {
    expect(new EngineError('SESSION_NOT_FOUND', { session: 'abcd1234' }).userMessage).toBe(
      '会话 abcd1234 已不存在（Claude Code 找不到它的记录），请 /switch 切换到其他会话，或 /new 新建会话',
    );
    expect(new EngineError('TIMEOUT_IDLE', { timeoutMs: 300_000 }, { lang: 'en' }).userMessage).toContain('5 min');
    expect(new EngineError('CWD_MISSING', { cwd: '/x', reason: 'ENOTDIR' }, { lang: 'en' }).userMessage).toContain(
      '(not a directory)',
    );
    expect(new EngineError('CANCELLED', {}, { lang: 'en' }).exitCode).toBe(130);
  });

  it('names the agent that failed, and Claude Code when none is named; its own words are quoted', () => {
    expect(new EngineError('RUN_FAILED', { detail: 'x' }, { lang: 'en' }).userMessage).toBe('Claude Code failed: “x”');
    expect(new EngineError('RUN_FAILED', { agent: 'Codex', detail: 'x' }, { lang: 'en' }).userMessage).toBe(
      'Codex failed: “x”',
    );
    expect(new EngineError('RUN_FAILED', { detail: 'API Error: 529 overloaded' }).userMessage).toBe(
      'Claude Code 运行失败：「API Error: 529 overloaded」',
    );
    expect(new EngineError('TIMEOUT_IDLE', { agent: 'Qwen Code', timeoutMs: 60_000 }).userMessage).toContain(
      'Qwen Code 已 1 分钟',
    );
  });

  it('redacts secrets in parameters and the stderr tail, and bounds the tail', () => {
    registerSecret('feishu-app-secret-123');
    const e = new EngineError(
      'RUN_FAILED',
      { detail: 'failed with feishu-app-secret-123' },
      { stderrTail: `${'x'.repeat(10_000)} sk-ant-abcdefghijklmnop` },
    );
    expect(e.userMessage).not.toContain('feishu-app-secret-123');
    expect(e.stderrTail).not.toContain('sk-ant-abcdefghijklmnop');
    expect(e.stderrTail.length).toBeLessThanOrEqual(4000);
  });

  it('failureDetail makes one bounded line', () => {
    expect(failureDetail('a\n  b\r\nc')).toBe('a b c');
    expect(failureDetail('y'.repeat(1000)).length).toBe(300);
  });
});
