// The durable pipeline's costs, with the REAL Bridge (spool with fsync on, user mapping,
// dispatcher, deliveries) over a temp home, a zero-latency fake engine and the in-memory fake channel:
//  1. accept() latency, N messages one after another, and N messages from 50 concurrent senders
//     (goal p99 ≤ 100 ms: Feishu re-pushes an event not acked within 3 s). The dispatcher runs
//     meanwhile, as it does in production, so accept competes with it for the disk.
//  2. dispatcher overhead per message: accept() called → record in done/, minus the time spent in
//     the engine, one message at a time (goal ≤ 5 ms p50).
// Baseline, same run, same disk: a bare open+writeFile+fsync+close+rename of a file the size of one
// spool record (accept does two atomic writes plus directory fsyncs, so expect a ratio of ≥ 2).
// Run: node --import tsx bench/bridge.bench.ts [--quick]
import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { AgentEngine, EngineRequest, EngineResult, EngineSendOptions } from '../src/engine/engine-types.js';
import type { InboundMessage } from '../src/bridge/inbound-message.js';
import { Spool } from '../src/bridge/spool/spool.js';
import type { SpoolState } from '../src/bridge/spool/spool-record.js';
import { bridgeHarness, OWNER } from '../test/fakes/bridge-harness.js';
import { FakeEngine } from '../test/fakes/fake-engine.js';
import { atMost, emitFigure, isQuick, percentile, round, type BenchFigure } from './report.js';

const QUICK = isQuick();
const ACCEPTS = QUICK ? 100 : 1000;
const SENDERS = 50;
const E2E_RUNS = QUICK ? 30 : 200;
const WARMUP = 10;
const TEXT =
  '帮我看看这个仓库的构建为什么在 CI 上失败了，顺便把 README 里的安装步骤更新一下。Please also check the lint errors.';

/** Times every engine call (keyed by prompt, which is unique per message here). */
class TimedEngine implements AgentEngine {
  readonly agent = 'claude';
  readonly mode = 'sdk' as const;
  readonly ms = new Map<string, number>();
  constructor(private readonly inner: AgentEngine) {}
  async send(request: EngineRequest, options?: EngineSendOptions): Promise<EngineResult> {
    const t0 = performance.now();
    try {
      return await this.inner.send(request, options);
    } finally {
      this.ms.set(request.prompt, performance.now() - t0);
    }
  }
}

/** The real spool, noting when each message reaches a final state. */
class TimedSpool extends Spool {
  readonly finishedAt = new Map<string, number>();
  readonly failed = new Set<string>();
  private readonly waiters = new Map<string, () => void>();

  override async move(messageId: string, from: SpoolState, to: SpoolState): Promise<void> {
    await super.move(messageId, from, to);
    if (to !== 'done' && to !== 'failed') return;
    if (to === 'failed') this.failed.add(messageId);
    this.finishedAt.set(messageId, performance.now());
    this.waiters.get(messageId)?.();
    this.waiters.delete(messageId);
  }

  finished(messageId: string): Promise<void> {
    if (this.finishedAt.has(messageId)) return Promise.resolve();
    return new Promise((resolve) => this.waiters.set(messageId, resolve));
  }
}

/** A bare durable-ish write: what one atomic file write costs on this disk, without our code. */
async function bareWrite(dir: string, name: string, data: string): Promise<number> {
  const t0 = performance.now();
  const tmp = path.join(dir, `.${name}.tmp`);
  const handle = await fs.open(tmp, 'wx', 0o600);
  await handle.writeFile(data);
  await handle.sync();
  await handle.close();
  await fs.rename(tmp, path.join(dir, name));
  return performance.now() - t0;
}

/** Runs `task(i)` for i < n with `width` concurrent workers. */
async function pool(n: number, width: number, task: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < n) {
        const i = next;
        next += 1;
        await task(i);
      }
    }),
  );
}

const ms = (n: number) => `${round(n)} ms`;

async function main(): Promise<void> {
  const engine = new TimedEngine(new FakeEngine());
  // The harness picks the spool dir inside its temp home; `configure` runs before the bridge is
  // built, and the getter lets the bridge take our timed spool over that dir.
  let spoolDir = '';
  let timedSpool: TimedSpool | undefined;
  const h = await bridgeHarness({
    configure: (c) => {
      c.queue.max_pending = 1_000_000; // measure accept, not the overload refusal
      spoolDir = c.queue.spool_dir;
    },
    bridge: {
      engine,
      heartbeatMs: 2000,
      get spool() {
        return (timedSpool ??= new TimedSpool(spoolDir));
      },
    },
  });
  try {
    if (!timedSpool) throw new Error('bench spool was not used by the bridge');
    await h.mapping.setSession(OWNER, { sessionUuid: randomUUID(), cwd: path.join(h.home, 'Git/alpha') });
    const bareDir = path.join(h.home, 'bare');
    await fs.mkdir(bareDir, { recursive: true });
    let n = 0;
    const message = (): InboundMessage => {
      n += 1;
      return h.msg(`${TEXT} #${n}`);
    };
    const recordBytes = JSON.stringify({
      schema: 1,
      message: message(),
      target: { kind: 'session', sessionId: randomUUID(), cwd: path.join(h.home, 'Git/alpha') },
      acceptedAt: new Date().toISOString(),
      seq: 1,
      attempts: 0,
    }).length;
    const payload = 'x'.repeat(recordBytes);

    const accept = async (m: InboundMessage): Promise<number> => {
      const t0 = performance.now();
      const r = await h.bridge.accept(m);
      const took = performance.now() - t0;
      if (r.status !== 'accepted') throw new Error(`accept gave ${JSON.stringify(r)}`);
      return took;
    };

    for (let i = 0; i < WARMUP; i += 1) {
      await bareWrite(bareDir, `w${i}`, payload);
      await accept(message());
    }
    await h.bridge.whenIdle();

    // 1a. Sequential, interleaved with the baseline so drift on a shared machine hits both alike.
    const seq: number[] = [];
    const seqBare: number[] = [];
    for (let i = 0; i < ACCEPTS; i += 1) {
      seqBare.push(await bareWrite(bareDir, `s${i}`, payload));
      seq.push(await accept(message()));
    }
    const drain0 = performance.now();
    await h.bridge.whenIdle();
    const drainSeq = performance.now() - drain0;

    // 1b. 50 concurrent senders: the baseline with 50 concurrent bare writers, then accept.
    const conBare: number[] = [];
    await pool(ACCEPTS, SENDERS, async (i) => void conBare.push(await bareWrite(bareDir, `c${i}`, payload)));
    const con: number[] = [];
    await pool(ACCEPTS, SENDERS, async () => void con.push(await accept(message())));
    await h.bridge.whenIdle();

    // 2. One message at a time: accept → done, minus the engine's own time.
    const overhead: number[] = [];
    const afterAccept: number[] = [];
    const engineMs: number[] = [];
    const e2eBare: number[] = [];
    for (let i = 0; i < E2E_RUNS; i += 1) {
      e2eBare.push(await bareWrite(bareDir, `e${i}`, payload));
      const m = message();
      const t0 = performance.now();
      const acceptMs = await accept(m);
      await timedSpool.finished(m.id);
      const e2e = (timedSpool.finishedAt.get(m.id) as number) - t0;
      const inEngine = engine.ms.get(m.text);
      if (inEngine === undefined) throw new Error(`engine never ran for ${m.id}`);
      engineMs.push(inEngine);
      overhead.push(e2e - inEngine);
      afterAccept.push(e2e - acceptMs - inEngine);
    }
    await h.bridge.whenIdle();

    const total = WARMUP + 2 * ACCEPTS + E2E_RUNS;
    const replies = h.channel.messages.length;
    if (timedSpool.failed.size > 0 || timedSpool.finishedAt.size !== total || replies !== total) {
      throw new Error(
        `pipeline lost track: ${timedSpool.finishedAt.size}/${total} finished, ${timedSpool.failed.size} failed, ${replies} replies`,
      );
    }

    const bareLabel = (values: number[], what: string) =>
      `bare writeFile+fsync+rename of ${recordBytes} B, ${what}: p50 ${ms(percentile(values, 50))}, p99 ${ms(percentile(values, 99))}`;
    const ratio = (a: number, b: number) => `${(a / b).toFixed(1)}× the baseline`;
    const figures: BenchFigure[] = [];
    const acceptFigures = (label: string, values: number[], bare: number[], bareWhat: string) => {
      const p50 = percentile(values, 50);
      const p99 = percentile(values, 99);
      figures.push({
        figure: `accept() p50, ${label}`,
        value: round(p50),
        unit: 'ms',
        goal: null,
        baseline: bareLabel(bare, bareWhat),
        met: null,
        note: `${ratio(p50, percentile(bare, 50))}; n=${values.length}, fsync on, dispatcher running`,
      });
      figures.push({
        figure: `accept() p99, ${label}`,
        value: round(p99),
        unit: 'ms',
        goal: '≤ 100 ms',
        baseline: bareLabel(bare, bareWhat),
        met: atMost(p99, 100),
        note: `max ${ms(Math.max(...values))}; ${ratio(p99, percentile(bare, 99))}`,
      });
    };
    acceptFigures(`${ACCEPTS} messages sequential`, seq, seqBare, 'sequential');
    acceptFigures(
      `${ACCEPTS} messages from ${SENDERS} concurrent senders`,
      con,
      conBare,
      `${SENDERS} concurrent writers`,
    );
    const ovP50 = percentile(overhead, 50);
    figures.push({
      figure: 'dispatcher overhead per message p50 (accept → done/, minus engine time; zero-latency engine)',
      value: round(ovP50),
      unit: 'ms',
      goal: '≤ 5 ms',
      baseline: bareLabel(e2eBare, 'sequential'),
      met: atMost(ovP50, 5),
      note: `${ratio(ovP50, percentile(e2eBare, 50))}; p99 ${ms(percentile(overhead, 99))}; after accept() returns p50 ${ms(percentile(afterAccept, 50))}; engine p50 ${ms(percentile(engineMs, 50))}; n=${E2E_RUNS}`,
    });

    console.log(
      `# bridge benchmark (node ${process.version}${QUICK ? ', --quick' : ''}; record ${recordBytes} B; ${total} messages in all, every one replied once, backlog of the sequential run drained in ${round(drainSeq)} ms)\n`,
    );
    console.log('| figure | value | goal | baseline |');
    console.log('|---|---|---|---|');
    for (const f of figures)
      console.log(
        `| ${f.figure} | ${f.value} ${f.unit}${f.note ? ` (${f.note})` : ''} | ${f.goal ?? '-'} | ${f.baseline ?? '-'} |`,
      );
    for (const f of figures) emitFigure(f);
  } finally {
    await h.cleanup();
  }
}

await main();
