import { PassThrough } from 'node:stream';
import { Command } from 'commander';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  startGatewayHarness,
  writeHarnessConfig,
  type GatewayHarness,
} from '../../../test/fakes/fake-chainlesschain/gateway-harness.js';
import { openaiTextTurn, openaiToolCallTurn } from '../../../test/fakes/fake-llm/fake-openai-server.js';
import { setCliRuntime } from '../context/with-context.js';
import { memoryOutput } from '../context/output.js';
import { registerSpec } from '../launcher/register-spec.js';
import { askCommand } from './ask.js';
import { chatCommand } from './chat.js';

let h: GatewayHarness | undefined;
afterEach(async () => {
  setCliRuntime({});
  await h?.close();
  h = undefined;
});

function start(harness: GatewayHarness, args: string[], input?: PassThrough) {
  const out = memoryOutput();
  let code = -1;
  setCliRuntime({ env: harness.env, out, setExitCode: (c) => (code = c) });
  const program = new Command().exitOverride();
  registerSpec(program, askCommand);
  registerSpec(program, chatCommand({ ...(input ? { input } : {}), output: new PassThrough() }));
  const done = program.parseAsync(['node', 'cc-linker', ...args]);
  return { out, done: done.then(() => code) };
}

describe('cc-linker chat (REPL)', () => {
  it('answers each line in order, keeping the conversation, until end of input', async () => {
    h = await startGatewayHarness();
    writeHarnessConfig(h);
    h.openai.enqueue(
      openaiToolCallTurn({ id: 'c1', name: 'cc_exec', argPieces: ['{"command":"memory","subargs":["show"]}'] }),
      openaiTextTurn('你记住了 gateway 的设计。'),
      openaiTextTurn('不客气！'),
    );
    const input = new PassThrough();
    const { out, done } = start(h, ['chat'], input);
    input.write('我记了什么？\n谢谢\n');
    input.end();
    expect(await done).toBe(0);
    expect(out.stdout).toEqual(['你记住了 gateway 的设计。', '不客气！']);
    const err = out.stderr.join('\n');
    expect(err).toContain('🤖 openai · gpt-4o-mini');
    expect(err).toContain('🔧 工具调用可用：ChainlessChain CLI 0.165.7');
    expect(err).toContain('┌ cc memory show --limit 20');
    const third = (h.openai.requests[2]?.body as { messages: Array<{ role: string; content: unknown }> }).messages
      .filter((m) => m.role === 'user')
      .map((m) => m.content);
    expect(third).toEqual(['我记了什么？', '谢谢']);
  });

  it('Ctrl-C cancels the running answer and keeps the REPL; two at the prompt quit', async () => {
    h = await startGatewayHarness({ env: { FAKE_CC_SLOW_MS: '20000' } });
    writeHarnessConfig(h);
    h.openai.enqueue(
      openaiToolCallTurn({ id: 'c1', name: 'cc_exec', argPieces: ['{"command":"note","subargs":["list"]}'] }),
      openaiTextTurn('还在。'),
    );
    const input = new PassThrough();
    const { out, done } = start(h, ['chat'], input);
    input.write('列一下笔记\n');
    await vi.waitFor(() => expect(h?.cliCalls()).toHaveLength(1), { timeout: 10_000 });
    process.emit('SIGINT'); // cancels the running question
    await vi.waitFor(() => expect(out.stderr).toContain('⏹ 已取消'));
    input.write('你还在吗\n');
    await vi.waitFor(() => expect(out.stdout).toEqual(['还在。']));
    process.emit('SIGINT');
    expect(out.stderr.at(-1)).toBe('（再按一次 Ctrl-C 退出）');
    process.emit('SIGINT');
    expect(await done).toBe(0);
    const lastUser = (
      h.openai.requests[1]?.body as { messages: Array<{ role: string; content: unknown }> }
    ).messages.filter((m) => m.role === 'user');
    expect(lastUser.map((m) => m.content)).toEqual(['你还在吗']); // the cancelled turn left no trace
  });

  it('/exit quits at once', async () => {
    h = await startGatewayHarness();
    writeHarnessConfig(h);
    const input = new PassThrough();
    const { done } = start(h, ['chat', '--provider', 'anthropic'], input);
    input.write('/exit\n');
    expect(await done).toBe(0);
    expect(h.anthropic.requests).toHaveLength(0);
  });
});

describe('cc-linker chat history', () => {
  it('lists the audited tool calls, filters by provider, prints JSON', async () => {
    h = await startGatewayHarness();
    writeHarnessConfig(h);
    h.openai.enqueue(
      openaiToolCallTurn({
        id: 'c1',
        name: 'cc_exec',
        argPieces: ['{"command":"note","subargs":["list","--limit","10"]}'],
      }),
      openaiToolCallTurn({ id: 'c2', name: 'cc_exec', argPieces: ['{"command":"note","subargs":["delete","--all"]}'] }),
      openaiTextTurn('好的。'),
    );
    expect(await start(h, ['ask', '先列再删']).done).toBe(0);

    const text = start(h, ['chat', 'history']);
    expect(await text.done).toBe(0);
    expect(text.out.stdout).toHaveLength(2);
    expect(text.out.stdout[0]).toMatch(
      /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\dZ {2}openai\/gpt-4o-mini {2}✔ cc note list --limit 10 {2}exit 0 · \d+ms · \d+B$/,
    );
    expect(text.out.stdout[1]).toMatch(/🚫 cc note delete --all {2}denied \(126\)$/);

    const json = start(h, ['chat', 'history', '--json', '--limit', '1']);
    expect(await json.done).toBe(0);
    expect(JSON.parse(json.out.stdout[0] ?? '')).toEqual([
      expect.objectContaining({ command: 'note', args: ['delete', '--all'], decision: 'denied' }),
    ]);

    const other = start(h, ['chat', 'history', '--provider', 'anthropic']);
    expect(await other.done).toBe(0);
    expect(other.out.stdout).toEqual([]);
    expect(other.out.stderr).toContain('（还没有 cc_exec 调用记录）');
  });
});
