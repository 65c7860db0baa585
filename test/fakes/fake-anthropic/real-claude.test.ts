// The REAL Claude Code binary (bundled by the Agent SDK) against the in-repo fake API, fully offline.
// These pin down the CLI behaviour the engine relies on (the result line, permission denials and the resume behaviour of the real binary).
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bundledClaudePath } from './claude-env.js';
import { createClaudeSandbox } from './claude-sandbox.js';
import type { ClaudeSandbox } from './claude-sandbox.js';
import { startFakeAnthropic } from './fake-anthropic-server.js';
import type { FakeAnthropic } from './fake-anthropic-server.js';

const BIN = bundledClaudePath();
const RUN_TIMEOUT_MS = 60_000;
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- CLI output is asserted field by field

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

let fake: FakeAnthropic;
const sandboxes: ClaudeSandbox[] = [];
const children = new Set<ChildProcess>();

beforeEach(async () => {
  fake = await startFakeAnthropic();
});
afterEach(async () => {
  for (const child of children) child.kill('SIGKILL');
  children.clear();
  for (const sb of sandboxes.splice(0)) sb.cleanup();
  await fake.close();
});

function sandbox(cwdName?: string): ClaudeSandbox {
  const sb = createClaudeSandbox(fake.url, cwdName);
  sandboxes.push(sb);
  return sb;
}

/** Runs the bundled `claude` with argv only (no shell) in the sandbox; kills it after RUN_TIMEOUT_MS. */
function claude(sb: ClaudeSandbox, args: string[]): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(BIN!, args, { cwd: sb.cwd, env: sb.env, stdio: ['ignore', 'pipe', 'pipe'] });
    children.add(child);
    const timer = setTimeout(() => child.kill('SIGKILL'), RUN_TIMEOUT_MS);
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      children.delete(child);
      resolve({ code, stdout, stderr });
    });
  });
}

const jsonLines = (out: string): Json[] =>
  out
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Json);
const kind = (l: Json): string => (l.subtype ? `${l.type}/${l.subtype}` : String(l.type));
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe.skipIf(!BIN)('real Claude Code CLI against the fake Anthropic API', () => {
  it(
    '-p --output-format json: a new session, its JSONL file, then --resume continues it',
    { timeout: 2 * RUN_TIMEOUT_MS },
    async () => {
      const sb = sandbox();
      const first = await claude(sb, ['-p', 'echo: first answer', '--output-format', 'json']);
      expect(first.code, first.stderr).toBe(0);
      const r1 = JSON.parse(first.stdout) as Json;
      expect(r1).toMatchObject({
        type: 'result',
        subtype: 'success',
        is_error: false,
        result: 'first answer',
        num_turns: 1,
        stop_reason: 'end_turn',
        permission_denials: [],
      });
      expect(r1.session_id).toMatch(UUID);
      expect(r1.total_cost_usd).toBeGreaterThan(0);
      expect(typeof r1.duration_ms).toBe('number');

      const [req] = fake.messageRequests();
      expect(req).toMatchObject({ method: 'POST', query: 'beta=true', body: { stream: true } });
      expect(req?.scriptRequest?.lastUserText).toBe('echo: first answer');
      expect((req?.body as Json).messages.at(-1).role).toBe('system');

      const file = sb.sessionFile(r1.session_id as string);
      expect(existsSync(file)).toBe(true);
      const lines = jsonLines(readFileSync(file, 'utf8'));
      expect(lines[0]).toMatchObject({ type: 'queue-operation', operation: 'enqueue', sessionId: r1.session_id });
      expect(lines.find((l) => l.type === 'user')).toMatchObject({
        cwd: sb.cwd,
        sessionId: r1.session_id,
        message: { role: 'user' },
      });
      expect(lines.find((l) => l.type === 'assistant')?.message.content).toEqual([
        { type: 'text', text: 'first answer' },
      ]);

      const second = await claude(sb, [
        '-p',
        'echo: second answer',
        '--output-format',
        'json',
        '--resume',
        r1.session_id as string,
      ]);
      expect(second.code, second.stderr).toBe(0);
      const r2 = JSON.parse(second.stdout) as Json;
      expect(r2).toMatchObject({ session_id: r1.session_id, result: 'second answer', is_error: false });
      expect(r2.total_cost_usd).toBeGreaterThan(r1.total_cost_usd as number); // cumulative
      const resumed = fake.messageRequests()[1];
      expect(resumed?.scriptRequest?.lastUserText).toBe('echo: second answer');
      expect(JSON.stringify(resumed?.scriptRequest?.messages)).toContain('first answer');
      expect(readFileSync(file, 'utf8')).toContain('second answer');
    },
  );

  it(
    '--resume <unknown uuid> exits 1 with "No conversation found" and calls no API',
    { timeout: RUN_TIMEOUT_MS },
    async () => {
      const id = randomUUID();
      const run = await claude(sandbox(), ['-p', 'hello', '--output-format', 'json', '--resume', id]);
      expect(run.code).toBe(1);
      expect(run.stdout).toBe('');
      expect(run.stderr).toContain(`No conversation found with session ID: ${id}`);
      expect(fake.messageRequests()).toHaveLength(0);
    },
  );

  it('an API error becomes an is_error result and exit 1', { timeout: RUN_TIMEOUT_MS }, async () => {
    const run = await claude(sandbox(), [
      '-p',
      'fail: 400 invalid_request_error the fake refused',
      '--output-format',
      'json',
    ]);
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stdout)).toMatchObject({
      type: 'result',
      is_error: true,
      api_error_status: 400,
      terminal_reason: 'api_error',
      result: 'API Error: 400 the fake refused',
    });
  });

  it(
    'stream-json --verbose: init, assistant tool_use, user tool_result, assistant text, result (Bash echo runs)',
    { timeout: RUN_TIMEOUT_MS },
    async () => {
      const sb = sandbox();
      const run = await claude(sb, ['--print', 'tool: Bash echo hi', '--output-format', 'stream-json', '--verbose']);
      expect(run.code, run.stderr).toBe(0);
      const lines = jsonLines(run.stdout);
      expect(lines.map(kind)).toEqual(['system/init', 'assistant', 'user', 'assistant', 'result/success']);
      const [init, use, result, text, end] = lines as [Json, Json, Json, Json, Json];
      expect(init).toMatchObject({ cwd: sb.cwd, permissionMode: 'default', session_id: end.session_id });
      expect(init.tools).toContain('Bash');
      expect(use.message.content[0]).toMatchObject({ type: 'tool_use', name: 'Bash', input: { command: 'echo hi' } });
      expect(result.message.content[0]).toMatchObject({
        type: 'tool_result',
        tool_use_id: use.message.content[0].id,
        content: 'hi',
        is_error: false,
      });
      expect(result.tool_use_result).toMatchObject({ stdout: 'hi', interrupted: false });
      expect(text.message.content).toEqual([{ type: 'text', text: 'tool-result: ok hi' }]);
      expect(end).toMatchObject({ result: 'tool-result: ok hi', num_turns: 2, permission_denials: [] });
      expect(fake.messageRequests()[1]?.scriptRequest?.lastUserToolResults).toMatchObject([
        { content: 'hi', is_error: false, toolName: 'Bash' },
      ]);
    },
  );

  it(
    'default permission mode denies Bash touch: permission_denied line, is_error tool_result, permission_denials',
    { timeout: RUN_TIMEOUT_MS },
    async () => {
      const sb = sandbox();
      const run = await claude(sb, ['--print', 'tool: Bash touch f', '--output-format', 'stream-json', '--verbose']);
      expect(run.code, run.stderr).toBe(0);
      const lines = jsonLines(run.stdout);
      expect(lines.map(kind)).toEqual([
        'system/init',
        'assistant',
        'system/permission_denied',
        'user',
        'assistant',
        'result/success',
      ]);
      expect(lines[2]).toMatchObject({
        tool_name: 'Bash',
        message: expect.stringContaining('needs approval') as string,
      });
      expect(lines[3]?.message.content[0]).toMatchObject({ type: 'tool_result', is_error: true });
      expect(lines.at(-1)?.permission_denials).toMatchObject([
        { tool_name: 'Bash', tool_input: { command: 'touch f' } },
      ]);
      expect(existsSync(join(sb.cwd, 'f'))).toBe(false);
    },
  );

  it('--allowedTools "Bash(touch:*)" lets the same touch run', { timeout: RUN_TIMEOUT_MS }, async () => {
    const sb = sandbox();
    const run = await claude(sb, [
      '-p',
      'tool: Bash touch f',
      '--output-format',
      'json',
      '--allowedTools',
      'Bash(touch:*)',
    ]);
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({
      is_error: false,
      permission_denials: [],
      result: expect.stringMatching(/^tool-result: ok/) as string,
    });
    expect(existsSync(join(sb.cwd, 'f'))).toBe(true);
  });

  it(
    '--include-partial-messages: status + stream_event deltas for thinking and text',
    { timeout: RUN_TIMEOUT_MS },
    async () => {
      const run = await claude(sandbox(), [
        '--print',
        'think: 慢慢想 slowly',
        '--output-format',
        'stream-json',
        '--verbose',
        '--include-partial-messages',
      ]);
      expect(run.code, run.stderr).toBe(0);
      const lines = jsonLines(run.stdout);
      const kinds = new Set(lines.map(kind));
      for (const k of ['system/init', 'system/status', 'stream_event', 'assistant', 'result/success'])
        expect(kinds.has(k), k).toBe(true);
      const deltas = lines
        .filter((l) => l.type === 'stream_event' && l.event.type === 'content_block_delta')
        .map((l) => l.event.delta as Json);
      expect(
        deltas
          .filter((d) => d.type === 'thinking_delta')
          .map((d) => d.thinking)
          .join(''),
      ).toBe('慢慢想 slowly');
      expect(
        deltas
          .filter((d) => d.type === 'text_delta')
          .map((d) => d.text)
          .join(''),
      ).toBe('thought: 慢慢想 slowly');
      const blocks = lines.filter((l) => l.type === 'assistant').flatMap((l) => l.message.content as Json[]);
      expect(blocks).toEqual([
        { type: 'thinking', thinking: '慢慢想 slowly', signature: 'fake-signature' },
        { type: 'text', text: 'thought: 慢慢想 slowly' },
      ]);
      expect(lines.at(-1)).toMatchObject({ result: 'thought: 慢慢想 slowly' });
    },
  );

  it(
    'a CJK prompt in a CJK-named cwd round-trips; the project dir name replaces non-[A-Za-z0-9] with -',
    { timeout: RUN_TIMEOUT_MS },
    async () => {
      const sb = sandbox('项目 dir');
      const run = await claude(sb, ['-p', 'echo: 你好，世界 🌏', '--output-format', 'json']);
      expect(run.code, run.stderr).toBe(0);
      const result = JSON.parse(run.stdout) as Json;
      expect(result.result).toBe('你好，世界 🌏');
      expect(fake.messageRequests()[0]?.scriptRequest?.lastUserText).toBe('echo: 你好，世界 🌏');
      const file = sb.sessionFile(result.session_id as string);
      expect(file).toMatch(/[A-Za-z0-9]----dir\/[0-9a-f-]{36}\.jsonl$/); // '/项目 ' → 4 dashes
      expect(existsSync(file)).toBe(true);
      const lines = jsonLines(readFileSync(file, 'utf8'));
      expect(lines.find((l) => l.type === 'user')).toMatchObject({
        cwd: sb.cwd,
        message: { content: 'echo: 你好，世界 🌏' },
      });
    },
  );
});
