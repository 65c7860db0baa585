// Shared by the tool loop's tests (src/ccexec/tool-loop*.test.ts): a loop over a scripted provider
// with a mocked exec, recording the chat events and tool calls.
import { vi } from 'vitest';
import type { ChatEvent } from '../../src/ccexec/chat-states.js';
import { loopMessages } from '../../src/ccexec/loop-messages.js';
import { createTokenWatchdog } from '../../src/ccexec/token-watchdog.js';
import { buildCcExecTool } from '../../src/ccexec/tool-descriptor.js';
import type { ExecFn, ExecOutcome } from '../../src/ccexec/exec-service.js';
import { runToolLoop, type ToolCallRecord, type ToolLoopOptions } from '../../src/ccexec/tool-loop.js';
import { scriptedProvider, type ScriptedProvider, type ScriptedTurn } from './scripted-model-provider.js';

export const zh = loopMessages('zh');
export const tool = buildCcExecTool();

export function ok(stdout = 'Notes (1):\n\n  d4f00559  网关设计  2026-11-30 09:21:49\n'): ExecOutcome {
  return { exitCode: 0, durationMs: 42, stdout, stderr: '', stdoutTruncated: false, stderrTruncated: false };
}

export function harness(
  turns: ScriptedTurn[],
  overrides: Partial<Omit<ToolLoopOptions, 'provider'>> & { provider?: ScriptedProvider } = {},
) {
  const provider = overrides.provider ?? scriptedProvider(turns);
  const exec = vi.fn<ExecFn>(async () => ok());
  const records: ToolCallRecord[] = [];
  const seen: ChatEvent[] = [];
  const options: ToolLoopOptions = {
    runId: 'run-1',
    provider,
    history: [],
    userText: '列一下最近的 10 个 note',
    exec,
    tool,
    cli: { available: true },
    lang: 'zh',
    timeoutMs: 30_000,
    watchdog: createTokenWatchdog(provider.contextLimit),
    onEvent: (e) => seen.push(e),
    onToolCall: (r) => void records.push(r),
    ...overrides,
  };
  return { provider, exec, records, seen, run: () => runToolLoop(options) };
}

export const types = (events: readonly ChatEvent[]) =>
  events.filter((e) => e.type !== 'text' && e.type !== 'reasoning').map((e) => e.type);
export const noteList = { command: 'note', subargs: ['list', '--limit', '10'] };
