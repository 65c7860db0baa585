// The Claude engine's own cost, measured against baselines taken in the same run, with the REAL
// bundled Claude Code against the in-repo fake Anthropic API (fully offline):
//  1. overhead per mode = engine.send() end-to-end minus a bare child_process.spawn of the same CLI
//     invocation (identical argv and stdin prompt, so only our code differs), paired and
//     interleaved, p50 over RUNS runs each; for `sdk`, minus a bare Agent SDK query();
//  2. engine time outside the child = engine.send() minus the child's lifetime as the runner saw it
//     (child tracker add() → remove()): validation, locks, permission rules, spawn, parsing — a
//     figure the machine's load hardly moves (the paired difference above is noisy on 2 shared cores);
//  3. cancel → whole process group gone, per mode, with the default 2000 ms grace: from abort() to
//     the runner reporting the group gone (the child tracker's remove()), p50 over CANCEL_RUNS.
// Run: node --import tsx bench/engine.bench.ts
import { query } from '@anthropic-ai/claude-agent-sdk';
import { spawn } from 'node:child_process';
import path from 'node:path';
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
  const bareSdk = async (): Promise<number> => {
    const t0 = performance.now();
    for await (const m of query({
      prompt: PROMPT,
      options: { cwd: sb.cwd, env: sb.env, includePartialMessages: true },
    }))
      if (m.type === 'result' && m.is_error) throw new Error('bare sdk failed');
    return performance.now() - t0;
  };
  const ours = (mode: ClaudeMode) => async (): Promise<number> => {
    const engine = engineFor(mode);
    pgids.length = 0;
    const t0 = performance.now();
    const r = await engine.send({ prompt: PROMPT, cwd: sb.cwd });
    const ms = performance.now() - t0;
    if (r.text !== 'benchmark') throw new Error(`unexpected reply ${r.text}`);
    const pgid = pgids[0] as number;
    await engine.close?.(); // the child a warm session keeps (its exit then comes after the answer)
    (outside[mode] ??= []).push(ms - ((removed.get(pgid) ?? 0) - (added.get(pgid) ?? 0)));
    return ms;
  };

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
    ours: () => Promise<number>;
    bare: () => Promise<number>;
    baseline: string;
    goal: string;
  }> = [
    {
      name: 'json',
      ours: ours('json'),
      bare: () => bareCli(BARE_JSON, PROMPT),
      baseline: 'bare spawn of `claude -p --output-format json …` (same argv + stdin)',
      goal: '≤ 30 ms',
    },
    {
      name: 'stream-json',
      ours: ours('stream-json'),
      bare: () => bareCli(BARE_STREAM, STREAM_INPUT),
      baseline:
        'bare spawn of `claude --print --input-format stream-json --output-format stream-json --verbose --include-partial-messages …` (same argv + one user line on stdin, then EOF)',
      goal: '≤ 30 ms',
    },
    {
      name: 'sdk',
      ours: ours('sdk'),
      bare: bareSdk,
      baseline: 'bare Agent SDK `query()` (bundled binary, SDK spawn)',
      goal: 'report',
    },
  ];

  const rows: string[] = [];
  const figures: BenchFigure[] = [];
  for (const pair of pairs) {
    for (let i = 0; i < WARMUP; i += 1) {
      await pair.bare();
      await pair.ours();
    }
    const bare: number[] = [];
    const mine: number[] = [];
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
    const paired = p50(mine.map((ms, i) => ms - (bare[i] as number)));
    const overhead = p50(mine) - p50(bare);
    figures.push({
      figure: `${pair.name} overhead p50 (engine.send − bare)`,
      value: round(overhead),
      unit: 'ms',
      goal: pair.goal.startsWith('≤') ? pair.goal : null,
      baseline: `${pair.baseline}: p50 ${p50(bare).toFixed(0)} ms`,
      met: pair.goal.startsWith('≤') ? atMost(overhead, 30) : null,
      note: `paired-difference p50 ${paired.toFixed(1)} ms; ratio ${(p50(mine) / p50(bare)).toFixed(3)}; n=${RUNS}`,
    });
    rows.push(
      `| ${pair.name} overhead p50 (engine.send − bare) | ${(p50(mine) - p50(bare)).toFixed(1)} ms (paired-difference p50 ${paired.toFixed(1)} ms; ratio ${(p50(mine) / p50(bare)).toFixed(3)}; engine p50 ${p50(mine).toFixed(0)} ms) | ${pair.goal} | ${pair.baseline} p50 ${p50(bare).toFixed(0)} ms |`,
    );
  }

  for (const mode of ['json', 'stream-json', 'sdk'] as const) {
    const values = outside[mode] ?? [];
    figures.push({
      figure: `${mode}: engine time outside the child p50 (send − child lifetime)`,
      value: round(p50(values)),
      unit: 'ms',
      goal: '≤ 30 ms',
      baseline: 'the child lifetime seen by the runner',
      met: atMost(p50(values), 30),
      note: `max ${Math.max(...values).toFixed(1)} ms; n=${values.length}`,
    });
    rows.push(
      `| ${mode}: engine time outside the child p50 (send − child lifetime) | ${p50(values).toFixed(1)} ms (max ${Math.max(...values).toFixed(1)} ms, ${values.length} runs) | ≤ 30 ms | child lifetime seen by the runner |`,
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
