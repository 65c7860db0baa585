// The cc_exec gateway's costs, measured against baselines taken in the same run:
//  1. gate cost per call over a mix of allowed and denied calls, against JSON.parse of the same
//     arguments (what the dispatcher pays anyway);
//  2. exec overhead: createExecService().exec(['note', 'list']) against a bare child_process.spawn of
//     the same fake CLI with the same environment (pipes drained, waited to 'close'), N=30 each,
//     interleaved; the service adds the process group, timeout, abort wiring and log-line stripping;
//  3. cancel → whole group gone: the fake CLI ignoring SIGTERM with a grandchild that ignores it too,
//     aborted mid-run, p50 over 10, against a bare SIGKILL to the group; plus the cooperative case.
// Run: node --import tsx bench/ccexec.bench.ts
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { buildCliEnv } from '../src/ccexec/build-cli-env.js';
import { createExecService, EXEC_KILL_GRACE_MS } from '../src/ccexec/exec-service.js';
import { gate } from '../src/ccexec/gate.js';
import { createFakeCliHome, SAMPLE_DATA } from '../test/fakes/fake-chainlesschain/fake-cli.js';
import { atMost, emitFigure, round } from './report.js';
import { isGroupGone, killGroups, waitGroupGone } from '../test/fakes/fake-children.js';

const GATE_CALLS = 200_000;
const EXEC_RUNS = 30;
const CANCEL_RUNS = 10;
const SWITCHES = ['FAKE_CC_SLOW_MS', 'FAKE_CC_SPAWN_GRANDCHILD', 'FAKE_CC_IGNORE_TERM', 'FAKE_CC_PID_FILE'];

function p50(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/** A realistic mix: typical allowed calls and the hostile ones the gate must refuse. */
const CALLS: Array<[string, string[]]> = [
  ['note', ['list', '--limit', '10']],
  ['search', ['RAG 检索增强', '--mode', 'bm25', '--top-k', '5']],
  ['note', ['show', 'd4f00559']],
  ['memory', ['show', '-n', '5', '--json']],
  ['did', ['show', 'did:chainless:z6Mkfake']],
  ['note', ['delete', '--all']],
  ['note', ['list', '--limit', '1e9']],
  ['search', ['x;id']],
  ['nоte', ['list']],
  ['skill', ['list', '--limit', '3']],
];

function benchGate(): { gateUs: number; parseUs: number; allowed: number } {
  const json = CALLS.map(([command, subargs]) => JSON.stringify({ command, subargs }));
  let allowed = 0;
  for (let i = 0; i < 20_000; i++) gate(...(CALLS[i % CALLS.length] as [string, string[]])); // warm-up
  let t0 = performance.now();
  for (let i = 0; i < GATE_CALLS; i++) if (gate(...(CALLS[i % CALLS.length] as [string, string[]])).allow) allowed++;
  const gateUs = ((performance.now() - t0) * 1000) / GATE_CALLS;
  let sink = 0;
  t0 = performance.now();
  for (let i = 0; i < GATE_CALLS; i++)
    sink += (JSON.parse(json[i % json.length] as string) as { subargs: string[] }).subargs.length;
  const parseUs = ((performance.now() - t0) * 1000) / GATE_CALLS;
  if (sink === 0) throw new Error('unreachable');
  return { gateUs, parseUs, allowed: allowed / (GATE_CALLS / CALLS.length) };
}

async function bareRun(argv: string[], env: NodeJS.ProcessEnv, cwd: string): Promise<number> {
  const t0 = performance.now();
  await new Promise<void>((resolve) => {
    const child = spawn(argv[0] as string, argv.slice(1), { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.resume();
    child.stderr.resume();
    child.on('close', () => resolve());
  });
  return performance.now() - t0;
}

async function waitPidFile(file: string): Promise<number> {
  for (;;) {
    const text = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
    if (text.endsWith('\n')) return Number(text.split(' ')[0]);
    await sleep(5);
  }
}

async function main(): Promise<void> {
  const fake = createFakeCliHome(SAMPLE_DATA);
  const groups = new Set<number>();
  try {
    const g = benchGate();

    const svc = createExecService({ cli: fake.cli, cwd: fake.home, timeoutMs: 30_000, env: fake.env });
    const env = buildCliEnv(fake.env);
    const argv = ['note', 'list'];
    const bare: number[] = [];
    const ours: number[] = [];
    const ourRun = async (): Promise<number> => {
      const t0 = performance.now();
      const r = await svc.exec(argv);
      if (r.exitCode !== 0) throw new Error(`exec failed: ${r.stderr}`);
      return performance.now() - t0;
    };
    for (let i = 0; i < 3; i++) {
      await bareRun([...fake.cli, ...argv], env, fake.home);
      await ourRun();
    }
    for (let i = 0; i < EXEC_RUNS; i++) {
      if (i % 2 === 0) {
        bare.push(await bareRun([...fake.cli, ...argv], env, fake.home));
        ours.push(await ourRun());
      } else {
        ours.push(await ourRun());
        bare.push(await bareRun([...fake.cli, ...argv], env, fake.home));
      }
    }

    const cancelOnce = async (ignoreTerm: boolean): Promise<{ ms: number; leftover: boolean }> => {
      const pidFile = path.join(fake.home, `pid-${Math.random().toString(36).slice(2)}`);
      const slow = createExecService({
        cli: fake.cli,
        cwd: fake.home,
        timeoutMs: 30_000,
        env: {
          ...fake.env,
          FAKE_CC_SLOW_MS: '60000',
          FAKE_CC_SPAWN_GRANDCHILD: '1',
          FAKE_CC_PID_FILE: pidFile,
          ...(ignoreTerm ? { FAKE_CC_IGNORE_TERM: '1' } : {}),
        },
        envAllow: SWITCHES,
      });
      const ac = new AbortController();
      const running = slow.exec(['note', 'list'], ac.signal);
      const pgid = await waitPidFile(pidFile);
      groups.add(pgid);
      const t0 = performance.now();
      ac.abort();
      await running;
      const ms = performance.now() - t0;
      return { ms, leftover: !isGroupGone(pgid) };
    };
    const cancelStubborn: number[] = [];
    const cancelPolite: number[] = [];
    let leftovers = 0;
    for (let i = 0; i < CANCEL_RUNS; i++) {
      const a = await cancelOnce(true);
      cancelStubborn.push(a.ms);
      const b = await cancelOnce(false);
      cancelPolite.push(b.ms);
      leftovers += Number(a.leftover) + Number(b.leftover);
    }
    const bareKill: number[] = [];
    for (let i = 0; i < CANCEL_RUNS; i++) {
      const pidFile = path.join(fake.home, `bare-${i}`);
      const child = spawn(fake.cli[0] as string, [...fake.cli.slice(1), 'note', 'list'], {
        cwd: fake.home,
        env: {
          ...env,
          FAKE_CC_SLOW_MS: '60000',
          FAKE_CC_SPAWN_GRANDCHILD: '1',
          FAKE_CC_IGNORE_TERM: '1',
          FAKE_CC_PID_FILE: pidFile,
        },
        detached: true,
        stdio: 'ignore',
      });
      const pgid = await waitPidFile(pidFile);
      groups.add(pgid);
      const t0 = performance.now();
      process.kill(-pgid, 'SIGKILL');
      if (!(await waitGroupGone(pgid, 5000))) throw new Error('bare SIGKILL left the group alive');
      bareKill.push(performance.now() - t0);
      child.unref();
    }

    const bareP50 = p50(bare);
    const oursP50 = p50(ours);
    const paired = p50(ours.map((ms, i) => ms - (bare[i] as number)));
    console.log(
      `# cc_exec benchmark (node ${process.version}; gate ${GATE_CALLS} calls; exec ${EXEC_RUNS} runs each; ${CANCEL_RUNS} cancels; grace ${EXEC_KILL_GRACE_MS} ms)\n`,
    );
    console.log('| figure | value | goal | baseline |');
    console.log('|---|---|---|---|');
    console.log(
      `| gate cost per call (mix of ${CALLS.length}: ${g.allowed} allowed, ${CALLS.length - g.allowed} denied) | ${g.gateUs.toFixed(2)} µs/call = ${Math.round(1e6 / g.gateUs).toLocaleString('en')} ops/s (ratio ${(g.gateUs / g.parseUs).toFixed(1)}× JSON.parse) | negligible next to a CLI run (ms) | JSON.parse of the same arguments ${g.parseUs.toFixed(2)} µs/call |`,
    );
    console.log(
      `| exec overhead p50 (fake CLI \`note list\`) | ${oursP50.toFixed(1)} ms vs bare ${bareP50.toFixed(1)} ms: overhead ${(oursP50 - bareP50).toFixed(1)} ms (ratio ${(oursP50 / bareP50).toFixed(2)}; paired-difference p50 ${paired.toFixed(1)} ms) | ≤ 10 ms | bare spawn of the same CLI p50 ${bareP50.toFixed(1)} ms |`,
    );
    console.log(
      `| cancel → whole group gone p50 (CLI + grandchild ignore SIGTERM) | ${p50(cancelStubborn).toFixed(0)} ms (grace + ${(p50(cancelStubborn) - EXEC_KILL_GRACE_MS).toFixed(0)} ms); ${leftovers}/${2 * CANCEL_RUNS} runs left a process | ≤ 300 ms | bare SIGKILL to the group p50 ${p50(bareKill).toFixed(1)} ms |`,
    );
    console.log(
      `| cancel → whole group gone p50 (SIGTERM honoured) | ${p50(cancelPolite).toFixed(0)} ms | ≤ 300 ms | bare SIGKILL p50 ${p50(bareKill).toFixed(1)} ms |`,
    );
    // The same figures for bench/run-all.ts (protocol in bench/report.ts).
    const stubborn = p50(cancelStubborn);
    emitFigure({
      figure: `gate cost per call (mix of ${CALLS.length}: ${g.allowed} allowed, ${CALLS.length - g.allowed} denied)`,
      value: round(g.gateUs),
      unit: 'µs',
      goal: null,
      baseline: `JSON.parse of the same arguments: ${g.parseUs.toFixed(2)} µs/call`,
      met: null,
      note: `${(g.gateUs / g.parseUs).toFixed(1)}× JSON.parse; ${Math.round(1e6 / g.gateUs).toLocaleString('en')} calls/s`,
    });
    emitFigure({
      figure: 'exec overhead p50 (exec service − bare spawn of the fake CLI `note list`)',
      value: round(oursP50 - bareP50),
      unit: 'ms',
      goal: '≤ 10 ms',
      baseline: `bare spawn of the same CLI: p50 ${bareP50.toFixed(1)} ms`,
      met: atMost(oursP50 - bareP50, 10),
      note: `ratio ${(oursP50 / bareP50).toFixed(2)}; paired-difference p50 ${paired.toFixed(1)} ms; n=${EXEC_RUNS} each`,
    });
    emitFigure({
      figure: `cancel → whole group gone p50 (CLI + grandchild ignore SIGTERM, grace ${EXEC_KILL_GRACE_MS} ms)`,
      value: round(stubborn),
      unit: 'ms',
      goal: '≤ 300 ms, no process left',
      baseline: `bare SIGKILL to the group: p50 ${p50(bareKill).toFixed(1)} ms`,
      met: leftovers === 0 && stubborn <= 300,
      note: `${leftovers}/${2 * CANCEL_RUNS} runs left a process`,
    });
    emitFigure({
      figure: 'cancel → whole group gone p50 (SIGTERM honoured)',
      value: round(p50(cancelPolite)),
      unit: 'ms',
      goal: '≤ 300 ms',
      baseline: `bare SIGKILL to the group: p50 ${p50(bareKill).toFixed(1)} ms`,
      met: atMost(p50(cancelPolite), 300),
    });
  } finally {
    killGroups(groups);
    fake.cleanup();
  }
}

await main();
