import fs from 'node:fs';
import path from 'node:path';
import { Command } from 'commander';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  startGatewayHarness,
  writeHarnessConfig,
  type GatewayHarness,
} from '../../../test/fakes/fake-chainlesschain/gateway-harness.js';
import { copyFakeCli } from '../../../test/fakes/fake-chainlesschain/fake-cli.js';
import { openaiTextTurn, openaiToolCallTurn } from '../../../test/fakes/fake-llm/fake-openai-server.js';
import { setCliRuntime } from '../context/with-context.js';
import { memoryOutput } from '../context/output.js';
import { registerSpec } from '../launcher/register-spec.js';
import { askCommand } from './ask.js';

let h: GatewayHarness | undefined;
afterEach(async () => {
  setCliRuntime({});
  await h?.close();
  h = undefined;
});

async function ask(harness: GatewayHarness, ...args: string[]) {
  const out = memoryOutput();
  let code = -1;
  setCliRuntime({ env: harness.env, out, setExitCode: (c) => (code = c) });
  const program = new Command().exitOverride();
  registerSpec(program, askCommand);
  const done = program.parseAsync(['node', 'cc-linker', 'ask', ...args]);
  return { out, done: done.then(() => code) };
}

describe('cc-linker ask', () => {
  it('prints only the answer on stdout; states and a box per tool call on stderr', async () => {
    h = await startGatewayHarness();
    writeHarnessConfig(h);
    h.openai.enqueue(
      openaiToolCallTurn({
        id: 'c1',
        name: 'cc_exec',
        argPieces: ['{"command":"note","subargs":["list","--limit","10"]}'],
        prefix: '我帮你查一下…',
      }),
      openaiTextTurn('你最近有 3 条笔记。'),
    );
    const { out, done } = await ask(h, '列一下最近的', '10', '个', 'note');
    expect(await done).toBe(0);
    expect(out.stdout).toEqual(['你最近有 3 条笔记。']);
    const err = out.stderr.join('\n');
    expect(err).toContain('… 正在思考');
    expect(err).toContain('💬 我帮你查一下…');
    expect(err).toContain('⏳ 执行 cc note list --limit 10');
    expect(err).toMatch(
      /┌ cc note list --limit 10\n│ exit 0 · \d+ms\n│ Notes \(3\):\n│ \n│ {3}d4f00559 {2}Gateway design/,
    );
    expect(err).toContain('… 整理结果');
    const question = (h.openai.requests[0]?.body as { messages: Array<{ role: string; content: string }> }).messages.at(
      -1,
    );
    expect(question).toEqual({ role: 'user', content: '列一下最近的 10 个 note' });
  });

  it('uses --provider and --model, and says when the model cannot call tools', async () => {
    h = await startGatewayHarness();
    writeHarnessConfig(h);
    h.openai.enqueue(openaiTextTurn('请切换模型。'));
    const { out, done } = await ask(h, '列下笔记', '--provider', 'qwen', '--model', 'qwen-max');
    expect(await done).toBe(0);
    expect(out.stdout).toEqual(['请切换模型。']);
    expect(out.stderr.join('\n')).toContain('不支持工具调用');
    expect((h.openai.requests[0]?.body as { model: string }).model).toBe('qwen-max');
  });

  it('fails with one line and exit 1 for an unknown provider, or a model error', async () => {
    h = await startGatewayHarness();
    writeHarnessConfig(h);
    const unknown = await ask(h, 'hi', '--provider', 'nope');
    expect(await unknown.done).toBe(1);
    expect(unknown.out.stderr.at(-1)).toMatch(/^✖ 未知的模型服务 "nope"/);
    expect(unknown.out.stdout).toEqual([]);

    h.openai.enqueue({
      httpError: {
        status: 401,
        body: { error: { message: 'bad key sk-harness-openai-0123456789', type: 'invalid_request_error' } },
      },
    });
    const failed = await ask(h, 'hi');
    expect(await failed.done).toBe(1);
    const err = failed.out.stderr.join('\n');
    expect(err).toContain('OPENAI_API_KEY');
    expect(err).not.toContain('sk-harness-openai-0123456789');
  });

  it('Ctrl-C cancels the running question, kills the CLI and exits 130', async () => {
    h = await startGatewayHarness({ env: { FAKE_CC_SLOW_MS: '20000' } });
    writeHarnessConfig(h);
    const listeners = process.listenerCount('SIGINT');
    h.openai.enqueue(
      openaiToolCallTurn({ id: 'c1', name: 'cc_exec', argPieces: ['{"command":"note","subargs":["list"]}'] }),
    );
    const { out, done } = await ask(h, '列一下笔记');
    await vi.waitFor(() => expect(out.stderr.some((l) => l.startsWith('⏳'))).toBe(true), { timeout: 10_000 });
    await vi.waitFor(() => expect(h?.cliCalls()).toHaveLength(1), { timeout: 10_000 });
    process.emit('SIGINT');
    expect(await done).toBe(130);
    expect(out.stderr).toContain('⏹ 正在取消…');
    expect(out.stderr).toContain('⏹ 已取消');
    expect(out.stdout).toEqual([]);
    expect(process.listenerCount('SIGINT')).toBe(listeners);
  });

  it('starts the CLI for its version once across two runs, and again after the CLI file changed', async () => {
    h = await startGatewayHarness();
    const { script } = copyFakeCli(path.join(h.fake.home, 'install'));
    h.config.ccexec.cli = [process.execPath, script];
    const versionLog = path.join(h.fake.home, 'versions.jsonl');
    Object.assign(h.env, { FAKE_CC_VERSION_LOG: versionLog });
    writeHarnessConfig(h);
    const probes = (): number =>
      fs.existsSync(versionLog) ? fs.readFileSync(versionLog, 'utf8').split('\n').length - 1 : 0;
    const answer = async (): Promise<void> => {
      h?.openai.enqueue(openaiTextTurn('好的。'));
      const { out, done } = await ask(h as GatewayHarness, 'hi');
      expect(await done).toBe(0);
      expect(out.stdout).toEqual(['好的。']);
      expect(out.stderr.join('\n')).not.toContain('🔧');
    };
    await answer();
    await answer();
    expect(probes()).toBe(1);
    expect(fs.statSync(h.paths.ccexecVersionFile).mode & 0o777).toBe(0o600);
    const later = new Date(Date.now() + 60_000);
    fs.utimesSync(script, later, later);
    await answer();
    expect(probes()).toBe(2);
    const tools = (h.openai.requests.at(-1)?.body as { tools?: unknown[] }).tools;
    expect(tools).toHaveLength(1);
  });
});
