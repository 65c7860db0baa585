// The Claude engine's own cost, measured against baselines taken in the same run, with the REAL
// bundled Claude Code against the in-repo fake Anthropic API (fully offline):
//  1. overhead per mode = engine.send() end-to-end minus a bare child_process.spawn of the same CLI
//     invocation (identical argv and stdin prompt, so only our code differs), paired and
//     interleaved, p50 over RUNS runs each; for `sdk`, minus a bare Agent SDK query() given the
//     options the engine passes (cwd, env, executable, permission mode, tool lists, partial
//     messages, MCP delivery, a trivial canUseTool, a session id) — only our code differs — both to
//     the first text delta (what a user sees first) and to the result (the answer: the `result`
//     message for the bare query, send() resolving for ours). Each run starts only after the
//     previous one's child is gone, so one run's exit does not slow down the next;
//  2. engine time outside the child = the time before the child was spawned (send → child tracker
//     add()) plus the time after its group was gone (child tracker remove() → send resolved; none when
//     the answer came first): validation, locks, permission rules, spawn, parsing — a figure the
//     machine's load hardly moves (the paired difference above is noisy on 2 shared cores);
//  3. cancel → whole process group gone, per mode, with the default 2000 ms grace: from abort() to
//     the runner reporting the group gone (the child tracker's remove()), p50 over CANCEL_RUNS.
// Run: node --import tsx bench/engine.bench.ts
import { query, type Options } from '@anthropic-ai/claude-agent-sdk';
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { claudeEnvFor } from '../src/claude/claude-env.js';
import { buildCliArgs } from '../src/claude/cli-args.js';
import { createEngine } from '../src/claude/create-engine.js';
import type { ClaudeMode } from '../src/claude/create-engine.js';
import { defaultConfig } from '../src/core/default-config.js';
import { silentLogger } from '../src/core/logger.js';
import { resolvePaths } from '../src/core/paths.js';
import type { ChildTracker } from '../src/process/child-tracker.js';
import { bundledClaudePath } from '../test/fakes/fake-anthropic/claude-env.js';
import { createClaudeSandbox } from '../test/fakes/fake-anthropic/claude-sandbox.js';
import { startFakeAnthropic } from '../test/fakes/fake-anthropic/fake-anthropic-server.js';
import { isGroupGone } from '../test/fakes/fake-children.js';
import { atMost, emitFigure, round, type BenchFigure } from './report.js';

const RUNS = 10;
const WARMUP = 2;
const CANCEL_RUNS = 5;
const PROMPT = 'echo: benchmark';

function p50(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

async function main(): Promise<void> {
  const bin = bundledClaudePath();
  if (!bin) throw new Error('no bundled Claude Code binary for this platform');
  const fake = await startFakeAnthropic();
  const sb = createClaudeSandbox(fake.url);
  const paths = resolvePaths({ ...sb.env, CC_LINKER_HOME: path.join(sb.home, '.cc-linker') });
  let removedAt = 0;
  const added = new Map<number, number>();
  const removed = new Map<number, number>();
  const pgids: number[] = [];
  const recordingTracker: ChildTracker = {
    add: (c) => {
      pgids.push(c.pgid);
      added.set(c.pgid, performance.now());
    },
    remove: (pgid) => void removed.set(pgid, (removedAt = performance.now())),
  };
  const outside: Record<string, number[]> = {};

  const engineFor = (mode: ClaudeMode) => {
    const config = defaultConfig();
    config.claude.mode = mode;
    config.general.claude_bin = bin;
    config.runtime.warm_idle_ms = 0; // a fresh child per message: the cold path (bench/warm.bench.ts has the warm one)
    return createEngine(config, { paths, logger: silentLogger, lang: 'en', env: sb.env, tracker: recordingTracker });
  };

  const bareCli = (args: string[], input: string) =>
    new Promise<number>((resolve, reject) => {
      const t0 = performance.now();
      const child = spawn(bin, args, { cwd: sb.cwd, env: sb.env, stdio: ['pipe', 'pipe', 'pipe'] });
      child.stdin.end(input);
      let out = '';
      child.stdout.on('data', (d: Buffer) => (out += d.toString()));
      child.stderr.resume();
      child.on('close', (code) =>
        code === 0 && out.includes('"result"')
          ? resolve(performance.now() - t0)
          : reject(new Error(`bare claude exited ${code}`)),
      );
    });
  // The options the sdk engine passes (src/claude/sdk-engine.ts) for a new session with the
  // default config, minus what is ours: the spawner (process group, tracker) and the permission bridge.
  const sdkConfig = defaultConfig();
  const bareSdkOptions = (): Options => ({
    cwd: sb.cwd,
    env: claudeEnvFor(sdkConfig, sb.env),
    abortController: new AbortController(),
    pathToClaudeCodeExecutable: bin,
    mcpServersDelivery: 'initialize',
    permissionMode: sdkConfig.sdk.permission_mode,
    allowedTools: sdkConfig.claude.allowed_tools.filter((r) => r.includes('(')),
    disallowedTools: [...sdkConfig.claude.disallowed_tools],
    includePartialMessages: sdkConfig.stream.enabled,
    canUseTool: async (_tool, input) => ({ behavior: 'allow', updatedInput: input }),
    stderr: () => undefined,
    sessionId: randomUUID(),
  });
  /** First text delta and result after t0, in ms; `ms` = the result. */
  type Timing = { ms: number; firstText: number };
  const bareSdk = async (): Promise<Timing> => {
    const t0 = performance.now();
    let firstText = 0;
    let ms = 0;
    // Read to the end: the SDK's iterator ends once the child has exited, so the next run starts clean.
    for await (const m of query({ prompt: PROMPT, options: bareSdkOptions() })) {
      if (!firstText && m.type === 'stream_event' && m.event.type === 'content_block_delta')
        if (m.event.delta.type === 'text_delta') firstText = performance.now() - t0;
      if (m.type === 'result') {
        ms = performance.now() - t0;
        if (m.is_error) throw new Error('bare sdk failed');
      }
    }
    return { ms, firstText };
  };
  const ours = (mode: ClaudeMode) => async (): Promise<Timing> => {
    const engine = engineFor(mode);
    pgids.length = 0;
    let firstText = 0;
    const t0 = performance.now();
    const r = await engine.send(
      { prompt: PROMPT, cwd: sb.cwd, ...(mode === 'sdk' ? { newSessionId: randomUUID() } : {}) },
      { onEvent: (e) => void (e.type === 'text' && !firstText && (firstText = performance.now() - t0)) },
    );
    const end = performance.now();
    if (r.text !== 'benchmark') throw new Error(`unexpected reply ${r.text}`);
    const pgid = pgids[0] as number;
    await engine.close?.();
    // The answer may come before the child has saved the turn and exited: wait for that too.
    while (!removed.has(pgid)) await new Promise((res) => setTimeout(res, 2));
    const before = (added.get(pgid) ?? t0) - t0;
    (outside[mode] ??= []).push(before + Math.max(0, end - (removed.get(pgid) ?? end)));
    return { ms: end - t0, firstText };
  };
  const timed = (run: () => Promise<number>) => async (): Promise<Timing> => ({ ms: await run(), firstText: 0 });

  // Exactly the argv the engine builds (the prompt goes on stdin in both).
  const defaults = defaultConfig();
  const rules = { allowed: [...defaults.claude.allowed_tools], disallowed: [...defaults.claude.disallowed_tools] };
  const BARE_JSON = buildCliArgs(
    { prompt: PROMPT, cwd: sb.cwd },
    { format: 'json', partial: true, permissionMode: defaults.claude.permission_mode, rules },
  );
  // stream-json reads one JSON user line per turn; ending stdin after it makes the child exit.
  const STREAM_INPUT = `${JSON.stringify({ type: 'user', message: { role: 'user', content: PROMPT }, parent_tool_use_id: null })}\n`;
  const BARE_STREAM = buildCliArgs(
    { prompt: PROMPT, cwd: sb.cwd },
    { format: 'stream-json', partial: true, permissionMode: defaults.claude.permission_mode, rules },
  );
  const pairs: Array<{
    name: string;
    ours: () => Promise<Timing>;
    bare: () => Promise<Timing>;
    /** Also compare the time to the first text delta. */
    firstText?: boolean;
    baseline: string;
    goal: string;
  }> = [
    {
      name: 'json',
      ours: ours('json'),
      bare: timed(() => bareCli(BARE_JSON, PROMPT)),
      baseline: 'bare spawn of `claude -p --output-format json …` (same argv + stdin)',
      goal: '≤ 30 ms',
    },
    {
      name: 'stream-json',
      ours: ours('stream-json'),
      bare: timed(() => bareCli(BARE_STREAM, STREAM_INPUT)),
      baseline:
        'bare spawn of `claude --print --input-format stream-json --output-format stream-json --verbose --include-partial-messages …` (same argv + one user line on stdin, then EOF)',
      goal: '≤ 30 ms',
    },
    {
      name: 'sdk',
      ours: ours('sdk'),
      bare: bareSdk,
      firstText: true,
      baseline: 'bare Agent SDK `query()` with the same options (bundled binary, SDK spawn, trivial canUseTool)',
      goal: '≤ 30 ms',
    },
  ];

  const rows: string[] = [];
  const figures: BenchFigure[] = [];
  for (const pair of pairs) {
    for (let i = 0; i < WARMUP; i += 1) {
      await pair.bare();
      await pair.ours();
    }
    const bare: Timing[] = [];
    const mine: Timing[] = [];
    for (let i = 0; i < RUNS; i += 1) {
      // Alternate which goes first so drift on a shared machine hits both sides alike.
      if (i % 2 === 0) {
        bare.push(await pair.bare());
        mine.push(await pair.ours());
      } else {
        mine.push(await pair.ours());
        bare.push(await pair.bare());
      }
    }
    const measures: Array<{ key: keyof Timing; what: string }> = pair.firstText
      ? [
          { key: 'firstText', what: ', first text' },
          { key: 'ms', what: ', result' },
        ]
      : [{ key: 'ms', what: '' }];
    for (const { key, what } of measures) {
      const m = mine.map((t) => t[key]);
      const b = bare.map((t) => t[key]);
      const paired = p50(m.map((ms, i) => ms - (b[i] as number)));
      const overhead = p50(m) - p50(b);
      const name = `${pair.name} overhead p50${what} (engine.send − bare)`;
      const ratio = (p50(m) / p50(b)).toFixed(3);
      figures.push({
        figure: name,
        value: round(overhead),
        unit: 'ms',
        goal: pair.goal.startsWith('≤') ? pair.goal : null,
        baseline: `${pair.baseline}: p50 ${p50(b).toFixed(0)} ms`,
        met: pair.goal.startsWith('≤') ? atMost(overhead, 30) : null,
        note: `paired-difference p50 ${paired.toFixed(1)} ms; ratio ${ratio}; n=${RUNS}`,
      });
      rows.push(
        `| ${name} | ${overhead.toFixed(1)} ms (paired-difference p50 ${paired.toFixed(1)} ms; ratio ${ratio}; engine p50 ${p50(m).toFixed(0)} ms) | ${pair.goal} | ${pair.baseline} p50 ${p50(b).toFixed(0)} ms |`,
      );
    }
  }

  for (const mode of ['json', 'stream-json', 'sdk'] as const) {
    const values = outside[mode] ?? [];
    figures.push({
      figure: `${mode}: engine time outside the child p50 (before spawn + after group gone)`,
      value: round(p50(values)),
      unit: 'ms',
      goal: '≤ 30 ms',
      baseline: 'the child lifetime seen by the runner',
      met: atMost(p50(values), 30),
      note: `max ${Math.max(...values).toFixed(1)} ms; n=${values.length}`,
    });
    rows.push(
      `| ${mode}: engine time outside the child p50 (before spawn + after group gone) | ${p50(values).toFixed(1)} ms (max ${Math.max(...values).toFixed(1)} ms, ${values.length} runs) | ≤ 30 ms | child lifetime seen by the runner |`,
    );
  }

  for (const mode of ['json', 'stream-json', 'sdk'] as const) {
    const times: number[] = [];
    let left = 0;
    for (let i = 0; i < CANCEL_RUNS; i += 1) {
      const ac = new AbortController();
      const before = fake.messageRequests().length;
      const engine = engineFor(mode);
      pgids.length = 0;
      const run = engine.send({ prompt: 'slow: 200', cwd: sb.cwd }, { signal: ac.signal }).catch((e: unknown) => e);
      // Abort once the model is answering (the request reached the fake).
      while (fake.messageRequests().length === before) await new Promise((r) => setTimeout(r, 5));
      await new Promise((r) => setTimeout(r, 300));
      removedAt = 0;
      const t0 = performance.now();
      ac.abort();
      const err = (await run) as { code?: string };
      if (err?.code !== 'CANCELLED') throw new Error(`cancel gave ${String(err?.code)}`);
      const pgid = pgids[0] as number;
      times.push((removed.get(pgid) ?? removedAt) - t0);
      if (!isGroupGone(pgid)) left += 1;
    }
    figures.push({
      figure: `cancel → whole group gone p50, ${mode} (default grace 2000 ms)`,
      value: round(p50(times)),
      unit: 'ms',
      goal: '≤ 2.5 s, no process left',
      baseline: 'the 2000 ms grace',
      met: left === 0 && p50(times) <= 2500,
      note: `max ${Math.max(...times).toFixed(0)} ms; ${left}/${CANCEL_RUNS} runs left a process`,
    });
    rows.push(
      `| cancel → group gone p50, ${mode} (default grace 2000 ms) | ${p50(times).toFixed(0)} ms (max ${Math.max(...times).toFixed(0)} ms), ${left}/${CANCEL_RUNS} runs left a process | ≤ 2.5 s | grace 2000 ms |`,
    );
  }

  console.log(
    `# engine benchmark (node ${process.version}, Claude Code ${bin.split('/').slice(-2, -1)[0]}, ${RUNS} paired runs per row after ${WARMUP} warm-ups, ${CANCEL_RUNS} cancels per mode)\n`,
  );
  console.log('| figure | value | goal | baseline |');
  console.log('|---|---|---|---|');
  for (const r of rows) console.log(r);
  for (const f of figures) emitFigure(f); // for bench/run-all.ts (protocol in bench/report.ts)
  sb.cleanup();
  await fake.close();
}

await main();
