// Stop → process group gone, for a REAL Claude Code turn (sdk mode, through the bridge) running a
// Bash `sleep 30` tool against the fake Anthropic API: the clock starts when the owner's Stop click
// reaches `bridge.handleAction` and stops when neither the Claude Code child's group nor the group
// its Bash tool shell moved to (setsid) has a live process left: `process.kill(-pgid, 0)` until
// ESRCH, or, once only zombies are left (an orphan whose new parent does not reap), a /proc scan
// (`isGroupAlive`). Baseline, same script: a plain `sleep 30` group started and killed with the
// runner (`startProcess` + `kill()`), measured the same way. Goal: ≤ 300 ms.
// Run: node --import tsx bench/stop.bench.ts [--quick]
import fs from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import type { CardAction } from '../src/bridge/reply-model.js';
import { startProcess } from '../src/process/run-process.js';
import { isGroupAlive } from '../src/process/terminate-group.js';
import { bridgeHarness, OWNER, type BridgeHarness } from '../test/fakes/bridge-harness.js';
import { CLAUDE_BIN, leftovers, startEngineHarness, until, type EngineHarness } from '../test/e2e/claude-harness.js';
import { atMost, emitFigure, isQuick, percentile, round } from './report.js';
import { allowPrompts } from '../test/helpers/allow-prompts.js';

const RUNS = isQuick() ? 3 : 8;
const GOAL_MS = 300;

/** Milliseconds from `t0` until every group in `pgids` is gone (polled every millisecond). */
async function untilGone(pgids: number[], t0: number): Promise<number> {
  for (;;) {
    const left = pgids.filter((pgid) => {
      try {
        process.kill(-pgid, 0);
      } catch (err) {
        return (err as NodeJS.ErrnoException).code !== 'ESRCH';
      }
      return isGroupAlive(pgid); // only zombies left counts as gone
    });
    if (left.length === 0) return performance.now() - t0;
    if (performance.now() - t0 > 10_000) throw new Error(`groups ${left.join(', ')} still alive after 10 s`);
    await sleep(1);
  }
}

/** The sleep processes of the sandbox (pid and group). */
function sleeps(home: string): Array<{ pid: number; pgid: number }> {
  const found: Array<{ pid: number; pgid: number }> = [];
  for (const pid of leftovers(home)) {
    try {
      if (fs.readFileSync(`/proc/${pid}/comm`, 'utf8').trim() !== 'sleep') continue;
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      found.push({ pid, pgid: Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]) });
    } catch {
      // gone
    }
  }
  return found;
}

/** One real turn: start `sleep 30` through Bash, click Stop once it runs, time until its groups are gone. */
async function stopOnce(e: EngineHarness, b: BridgeHarness): Promise<{ ms: number; groups: number }> {
  await b.mapping.setPendingNew(OWNER, { cwd: e.sb.cwd });
  const before = e.pgids.length;
  const m = b.msg('tool: Bash echo started && sleep 30 && echo finished');
  await b.bridge.accept(m);
  const clicked = new Set<string>();
  await until(() => {
    void allowPrompts(b, clicked);
    return sleeps(e.sb.home).length > 0;
  }, 30_000);
  const groups = [...new Set([...e.pgids.slice(before), ...sleeps(e.sb.home).map((s) => s.pgid)])];
  const stream = b.channel.messages.find((x) => x.streamButtons?.length && !x.finished);
  const stop = stream?.streamButtons?.[0]?.action as CardAction;
  const t0 = performance.now();
  await b.bridge.handleAction({ channel: 'fake', userId: OWNER, action: stop });
  const ms = await untilGone(groups, t0);
  await b.bridge.whenIdle();
  if ((await b.spool.locate(m.id)) !== 'cancelled') throw new Error('the stopped message did not end cancelled');
  return { ms, groups: groups.length };
}

/** Baseline: a plain `sleep 30` group, killed with the runner, timed the same way. */
async function baselineOnce(): Promise<number> {
  const run = startProcess(['sleep', '30']);
  await sleep(50);
  const t0 = performance.now();
  run.kill('aborted');
  const ms = await untilGone([run.pid as number], t0);
  await run.done;
  return ms;
}

async function main(): Promise<void> {
  if (!CLAUDE_BIN || process.platform !== 'linux') {
    emitFigure({
      figure: 'stop → process groups gone (real Claude Code, Bash sleep)',
      value: null,
      unit: 'ms',
      goal: `≤ ${GOAL_MS} ms`,
      baseline: null,
      met: null,
      note: 'needs Linux and the bundled Claude Code binary',
    });
    return;
  }
  const e = await startEngineHarness();
  const b = await bridgeHarness({ bridge: { engine: e.engine('sdk'), lang: 'en' } });
  const ours: number[] = [];
  const base: number[] = [];
  let groupsPerRun = 0;
  try {
    for (let i = 0; i < RUNS; i += 1) {
      const r = await stopOnce(e, b);
      ours.push(r.ms);
      groupsPerRun = Math.max(groupsPerRun, r.groups);
      base.push(await baselineOnce());
    }
  } finally {
    await b.cleanup();
    await e.close();
  }
  const p50 = percentile(ours, 50);
  const max = Math.max(...ours);
  const b50 = percentile(base, 50);
  const ratio = p50 / b50;
  console.log(
    `# stop benchmark (node ${process.version}, ${RUNS} real Claude Code turns, each stopped in Bash sleep)\n`,
  );
  console.log('| figure | value | goal | baseline |');
  console.log('|---|---|---|---|');
  console.log(
    `| Stop click → groups gone (Claude Code + its Bash tool group) | p50 ${p50.toFixed(1)} ms, max ${max.toFixed(1)} ms (ratio ${ratio.toFixed(2)}) | ≤ ${GOAL_MS} ms | runner kill of a plain sleep group: p50 ${b50.toFixed(1)} ms, max ${Math.max(...base).toFixed(1)} ms |`,
  );
  emitFigure({
    figure: 'Stop click → process groups gone p50 (real Claude Code running Bash sleep)',
    value: round(p50),
    unit: 'ms',
    goal: `≤ ${GOAL_MS} ms`,
    baseline: `runner kill of a plain sleep group: p50 ${b50.toFixed(1)} ms, max ${Math.max(...base).toFixed(1)} ms`,
    met: atMost(max, GOAL_MS),
    note: `max ${max.toFixed(1)} ms; ratio to baseline ${ratio.toFixed(2)}; ${groupsPerRun} groups per turn; n=${RUNS}`,
  });
}

await main();
