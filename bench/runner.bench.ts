// The process runner's costs, measured against baselines taken in the same run:
//  1. spawn overhead: runProcess([node, '-e', '0']) against a bare child_process.spawn of the same
//     (stdout/stderr piped, waited to 'close'), N=30 each, interleaved;
//  2. cancel → whole group gone: a child that ignores SIGTERM with two grandchildren that ignore it
//     too, grace 200 ms, p50 over 10 runs, against a bare SIGKILL to the group.
// Run: node --import tsx bench/runner.bench.ts
import { spawn } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { isGroupGone, removeFakeChildren, waitGroupGone, writeFakeChildren } from '../test/fakes/fake-children.js';
import { runProcess, startProcess } from '../src/process/run-process.js';
import { atMost, emitFigure, round } from './report.js';

const node = process.execPath;
const SPAWN_RUNS = 30;
const CANCEL_RUNS = 10;
const GRACE_MS = 200;

function p50(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

async function bareSpawn(argv: string[]): Promise<number> {
  const t0 = performance.now();
  await new Promise<void>((resolve) => {
    const child = spawn(argv[0] as string, argv.slice(1), { stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.resume();
    child.stderr.resume();
    child.on('close', () => resolve());
  });
  return performance.now() - t0;
}

async function runnerSpawn(argv: string[]): Promise<number> {
  const t0 = performance.now();
  const r = await runProcess(argv);
  if (r.reason !== 'exit' || r.exitCode !== 0) throw new Error(`unexpected result ${JSON.stringify(r)}`);
  return performance.now() - t0;
}

/** Starts the stubborn fake (ignores SIGTERM, 2 grandchildren that do too) and waits until it is ready. */
async function startStubborn(script: string) {
  let release!: () => void;
  const ready = new Promise<void>((resolve) => (release = resolve));
  const run = startProcess([node, script, '2'], {
    killGraceMs: GRACE_MS,
    onStdoutLine: (l) => l === 'ready' && release(),
  });
  await ready;
  return run;
}

async function bareKill(script: string): Promise<number> {
  const child = spawn(node, [script, '2'], { detached: true, stdio: ['ignore', 'pipe', 'ignore'] });
  await new Promise<void>((resolve) =>
    child.stdout.on('data', (d: Buffer) => d.toString().includes('ready\n') && resolve()),
  );
  const pgid = child.pid as number;
  const t0 = performance.now();
  process.kill(-pgid, 'SIGKILL');
  if (!(await waitGroupGone(pgid, 5000))) throw new Error('bare SIGKILL left the group alive');
  const ms = performance.now() - t0;
  child.stdout.destroy();
  return ms;
}

async function main(): Promise<void> {
  const fake = writeFakeChildren();
  try {
    const argv = [node, '-e', '0'];
    for (let i = 0; i < 3; i += 1) {
      await bareSpawn(argv);
      await runnerSpawn(argv);
    }
    const bare: number[] = [];
    const ours: number[] = [];
    for (let i = 0; i < SPAWN_RUNS; i += 1) {
      // Alternate which goes first so drift on a shared machine hits both sides alike.
      if (i % 2 === 0) {
        bare.push(await bareSpawn(argv));
        ours.push(await runnerSpawn(argv));
      } else {
        ours.push(await runnerSpawn(argv));
        bare.push(await bareSpawn(argv));
      }
    }

    const cancel: number[] = [];
    let leftovers = 0;
    for (let i = 0; i < CANCEL_RUNS; i += 1) {
      const run = await startStubborn(fake.stubborn);
      const t0 = performance.now();
      run.kill('aborted');
      await run.done;
      cancel.push(performance.now() - t0);
      if (!isGroupGone(run.pid as number)) leftovers += 1;
      await sleep(20);
    }
    const bareCancel: number[] = [];
    for (let i = 0; i < CANCEL_RUNS; i += 1) bareCancel.push(await bareKill(fake.stubborn));

    const pairedP50 = p50(ours.map((ms, i) => ms - (bare[i] as number)));
    const bareP50 = p50(bare);
    const oursP50 = p50(ours);
    const cancelP50 = p50(cancel);
    console.log(
      `# runner benchmark (node ${process.version}, ${SPAWN_RUNS} spawns each, ${CANCEL_RUNS} cancels, grace ${GRACE_MS} ms)\n`,
    );
    console.log('| figure | value | goal | baseline |');
    console.log('|---|---|---|---|');
    console.log(
      `| spawn+exit p50, runProcess vs bare spawn | ${oursP50.toFixed(1)} ms (ratio ${(oursP50 / bareP50).toFixed(2)}, overhead ${(oursP50 - bareP50).toFixed(1)} ms; paired-difference p50 ${pairedP50.toFixed(1)} ms) | overhead ≤ 10 ms (cc_exec), ≤ 30 ms (engine) | bare spawn p50 ${bareP50.toFixed(1)} ms |`,
    );
    console.log(
      `| cancel → group gone p50 (SIGTERM ignored, 2 grandchildren) | ${cancelP50.toFixed(0)} ms (grace + ${(cancelP50 - GRACE_MS).toFixed(0)} ms), ${leftovers}/${CANCEL_RUNS} runs left a process | ≤ 300 ms with 200 ms grace; ≤ 2.5 s with default grace | bare SIGKILL to group p50 ${p50(bareCancel).toFixed(1)} ms |`,
    );
    const overhead = oursP50 - bareP50;
    emitFigure({
      figure: 'spawn+exit overhead p50 (runProcess − bare spawn of `node -e 0`)',
      value: round(overhead),
      unit: 'ms',
      goal: '≤ 10 ms',
      baseline: `bare child_process.spawn, same argv: p50 ${bareP50.toFixed(1)} ms`,
      met: atMost(overhead, 10),
      note: `ratio ${(oursP50 / bareP50).toFixed(2)}; paired-difference p50 ${pairedP50.toFixed(1)} ms; n=${SPAWN_RUNS} each`,
    });
    emitFigure({
      figure: `cancel → whole group gone p50 (SIGTERM ignored, 2 grandchildren, grace ${GRACE_MS} ms)`,
      value: round(cancelP50),
      unit: 'ms',
      goal: '≤ 300 ms, no process left',
      baseline: `bare SIGKILL to the group: p50 ${p50(bareCancel).toFixed(1)} ms`,
      met: leftovers === 0 && cancelP50 <= 300,
      note: `grace + ${(cancelP50 - GRACE_MS).toFixed(0)} ms; ${leftovers}/${CANCEL_RUNS} runs left a process`,
    });
  } finally {
    removeFakeChildren(fake);
  }
}

await main();
