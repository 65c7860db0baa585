import { describe, expect, it } from 'vitest';
import { runSummary, summarizeRun } from './answer-card-text.js';
import type { ChatEvent } from './chat-states.js';

const base = { runId: 'r', at: 0 };
const done = (over: Partial<Extract<ChatEvent, { type: 'TOOL_DONE' }>>): ChatEvent => ({
  ...base,
  type: 'TOOL_DONE',
  callId: 'c',
  commandLine: 'cc note list --limit 10',
  argv: ['note', 'list', '--limit', '10'],
  round: 1,
  decision: 'allowed',
  exitCode: 0,
  durationMs: 231.4,
  preview: '',
  stdout: '',
  stderr: '',
  ...over,
});

describe('summarizeRun', () => {
  it('lists each call then the answer', () => {
    const events: ChatEvent[] = [
      { ...base, type: 'THINKING' },
      done({}),
      done({
        commandLine: 'cc note delete --all',
        decision: 'denied',
        exitCode: 126,
        durationMs: 0,
        reason: "unknown subcommand 'delete'",
      }),
      done({ commandLine: 'cc search RAG --top-k 5', decision: 'duplicate' }),
      done({ commandLine: 'cc status', decision: 'skipped' }),
      { ...base, type: 'COMPLETE', answer: '  你最近有 2 条笔记。 ', toolCalls: 4, durationMs: 900 },
    ];
    expect(summarizeRun(events, 'zh')).toBe(
      [
        '🔧 cc note list --limit 10 · exit 0 · 231ms',
        "🚫 cc note delete --all · 未允许：unknown subcommand 'delete'",
        '♻️ cc search RAG --top-k 5 · 与之前相同，未重复执行',
        '⏭️ cc status · 未执行（每轮只执行一个调用）',
        '',
        '你最近有 2 条笔记。',
      ].join('\n'),
    );
  });

  it('ends with the failure or the cancel, in English too', () => {
    expect(
      summarizeRun(
        [done({ exitCode: 1 }), { ...base, type: 'FAILED', code: 'PROVIDER_AUTH', message: 'key rejected' }],
        'en',
      ),
    ).toBe('🔧 cc note list --limit 10 · exit 1 · 231ms\n\n❌ Failed: key rejected');
    expect(summarizeRun([{ ...base, type: 'CANCELLED' }], 'en')).toBe('⏹️ Cancelled');
    expect(summarizeRun([{ ...base, type: 'COMPLETE', answer: '', toolCalls: 0, durationMs: 1 }], 'en')).toBe(
      '(the model gave no text answer)',
    );
    expect(summarizeRun([{ ...base, type: 'THINKING' }], 'en')).toBe('…still running');
  });

  it('exposes the structured summary', () => {
    expect(runSummary([done({}), { ...base, type: 'COMPLETE', answer: 'a', toolCalls: 1, durationMs: 1 }])).toEqual({
      calls: [{ commandLine: 'cc note list --limit 10', decision: 'allowed', exitCode: 0, durationMs: 231.4 }],
      state: 'COMPLETE',
      answer: 'a',
    });
  });
});
