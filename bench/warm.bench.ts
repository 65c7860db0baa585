// Warm sessions (sdk mode) against a bare `claude -p`, with the REAL bundled Claude Code against
// the in-repo fake Anthropic API, the REAL Bridge and the REAL Feishu channel against the fake
// Feishu server (fully offline):
//  1. warm: a follow-up message → the CardKit update carrying the first answer text, timed from
//     pushing the event at the fake to the fake recording that update, against a bare
//     `claude -p --resume=<twin> --output-format stream-json --verbose --include-partial-messages`
//     of the same prompt (spawn → its first text delta on stdout); goal ≤ 0.5×;
//  2. cold (`runtime.warm_idle_ms = 0`, a fresh child per message): the same, first text and whole
//     answer, against the same bare run; goal ≤ bare + 50 ms (paired-difference p50);
//  3. RSS of each warm child's process group, of three warm sessions, and of a whole
//     `cc-linker start` daemon holding three warm sessions (report only; see warm-daemon-rss.ts).
// The engine seam (engine.send → its first `text` event, → its result) is recorded on the same
// turns and reported alongside, so the channel's share is visible.
// The bare run resumes a TWIN session (seeded and grown with the same prompts), not the bridge's:
// a line written to the bridge's session by another process makes its warm child stale (by design,
// src/claude/warm-staleness.ts), so resuming the same session would turn every warm turn cold.
// Pairs are interleaved (the order alternates) after WARMUP pairs; never asserted, only reported.
// Run: node --import tsx bench/warm.bench.ts [--quick]   (the daemon figure needs `npm run build`)
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { createEngine } from '../src/claude/create-engine.js';
import { createFeishuChannel, type FeishuChannel } from '../src/channels/feishu/feishu-channel.js';
import type { Config } from '../src/core/config-schema.js';
import { silentLogger } from '../src/core/logger.js';
import type { ChildTracker } from '../src/process/child-tracker.js';
import { bridgeHarness, OWNER, type BridgeHarness } from '../test/fakes/bridge-harness.js';
import { bundledClaudePath, claudeTestEnv } from '../test/fakes/fake-anthropic/claude-env.js';
import { startFakeAnthropic } from '../test/fakes/fake-anthropic/fake-anthropic-server.js';
import {
  startFakeFeishuServer,
  textMessageEvent,
  type FakeFeishu,
} from '../test/fakes/fake-feishu/fake-feishu-server.js';
import { bareResume } from './bare-resume.js';
import { groupRssMb, rssMb } from './group-rss.js';
import { SeamEngine } from './seam-engine.js';
import { atMost, emitFigure, isQuick, percentile, round, type BenchFigure } from './report.js';
import { warmDaemonRss } from './warm-daemon-rss.js';

const QUICK = isQuick();
const RUNS = QUICK ? 4 : 10;
const WARMUP = 2;
/** High-resolution wall clock shared by the bench and the fake Feishu's records. */
const clock = (): number => performance.timeOrigin + performance.now();
const p50 = (values: number[]) => percentile(values, 50);
const ms = (n: number) => `${round(n)} ms`;

/** One turn's times from its start, in ms: first answer text and whole answer. */
interface Times {
  first: number;
  whole: number;
}

/** One message through the bridge and the Feishu channel, plus the engine seam's times. */
interface CardTurn {
  card: Times;
  engine: Times;
  spawned: number;
}

interface Rig {
  h: BridgeHarness;
  fake: FakeFeishu;
  seam: SeamEngine;
  /** Children spawned so far and the live process groups (from the engine's child tracker). */
  spawns: { count: number; live: Set<number> };
  /** How many children stay alive after a turn (1 warm, 0 cold). */
  keep: number;
}

/** Pushes `echo: <marker> …` at the fake and reads the card's ops once the bridge is idle. */
async function cardTurn(rig: Rig, marker: string): Promise<CardTurn> {
  const { h, fake, seam, spawns } = rig;
  const event = textMessageEvent({ openId: OWNER, text: `echo: ${marker} is the answer to this follow-up` });
  const omId = (event.event.message as { message_id: string }).message_id;
  const spawnedBefore = spawns.count;
  const t0 = clock();
  const { ack } = await fake.pushEvent(event);
  if (ack.code !== 200) throw new Error(`event not acked: ${JSON.stringify(ack)}`);
  await h.bridge.whenIdle();
  // A cold turn's child exits after its answer (under the session lock): let it go before the next
  // run, so it does not load the machine under the bare run that follows.
  const deadline = Date.now() + 10_000;
  while (spawns.live.size > rig.keep && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
  const reply = fake.sent.find((m) => m.parent_id === omId);
  const cardId = (reply?.content as { data?: { card_id?: string } } | undefined)?.data?.card_id;
  if (!cardId) throw new Error(`no CardKit reply for ${omId}: ${JSON.stringify(reply)}`);
  const ops = fake.cardkit.filter((o) => o.card_id === cardId);
  const firstWords = ops.find((o) => o.op === 'content' && (o.content ?? '').includes(marker));
  if (!firstWords) throw new Error(`card ${cardId}: no update carries "${marker}": ${JSON.stringify(ops)}`);
  const engine = seam.last;
  if (!engine) throw new Error('the engine seam saw no turn');
  return {
    card: { first: firstWords.at - t0, whole: Math.max(...ops.map((o) => o.at)) - t0 },
    engine,
    spawned: spawns.count - spawnedBefore,
  };
}

/** WARMUP + RUNS interleaved pairs of (bridge turn, bare resume of the twin); warm-ups dropped. */
async function pairs(
  rig: Rig,
  label: string,
  bare: (prompt: string) => Promise<Times>,
): Promise<{ ours: CardTurn[]; bare: Times[] }> {
  const ours: CardTurn[] = [];
  const base: Times[] = [];
  for (let i = 0; i < WARMUP + RUNS; i += 1) {
    const marker = `${label}-${i}`;
    // Alternate which goes first so drift on a shared machine hits both sides alike.
    let b: Times;
    let o: CardTurn;
    if (i % 2 === 0) {
      b = await bare(`echo: ${marker} is the answer to this follow-up`);
      o = await cardTurn(rig, marker);
    } else {
      o = await cardTurn(rig, marker);
      b = await bare(`echo: ${marker} is the answer to this follow-up`);
    }
    if (i < WARMUP) continue;
    ours.push(o);
    base.push(b);
  }
  return { ours, bare: base };
}

const diffs = (a: number[], b: number[]) => a.map((x, i) => x - (b[i] as number));

async function main(): Promise<void> {
  const bin = bundledClaudePath();
  if (!bin) throw new Error('no bundled Claude Code binary for this platform');
  const anthropic = await startFakeAnthropic();
  const fake = await startFakeFeishuServer({ clock });
  const seam = new SeamEngine(clock);
  const h = await bridgeHarness({ bridge: { engine: seam, heartbeatMs: 2000 } });
  const spawns = { count: 0, live: new Set<number>() };
  const tracker: ChildTracker = {
    add: (c) => {
      spawns.count += 1;
      spawns.live.add(c.pgid);
    },
    remove: (pgid) => void spawns.live.delete(pgid),
  };
  // Claude Code's HOME is the harness's, so its transcripts are where the engine's staleness check looks.
  const env = claudeTestEnv({ home: h.home, baseUrl: anthropic.url });
  const cwd = path.join(h.home, 'Git/alpha');
  const engineWith = (warmIdleMs: number) => {
    const config: Config = structuredClone(h.config);
    config.claude.mode = 'sdk';
    config.runtime.warm_idle_ms = warmIdleMs;
    return createEngine(config, { paths: h.paths, logger: silentLogger, lang: 'zh', env, tracker });
  };
  let channel: FeishuChannel | undefined;
  const figures: BenchFigure[] = [];
  try {
    // The bridge's session and the bare run's twin, seeded with the same first turn.
    const session = randomUUID();
    const twin = randomUUID();
    await bareResume(bin, { cwd, env, prompt: 'echo: seed', newSessionId: session });
    await bareResume(bin, { cwd, env, prompt: 'echo: seed', newSessionId: twin });
    const bare = (prompt: string) => bareResume(bin, { cwd, env, prompt, sessionId: twin });
    await h.mapping.setSession(OWNER, { sessionUuid: session, cwd });
    channel = createFeishuChannel({
      appId: `cli_${randomUUID().replace(/-/g, '').slice(0, 16)}`,
      appSecret: fake.appSecret,
      domain: fake.baseUrl,
      lang: 'zh',
      logger: silentLogger,
      imagesDir: h.paths.imagesDir,
      images: h.config.images,
      attachmentsDir: h.paths.attachmentsDir,
      files: h.config.files,
      stream: h.config.stream,
      runtimeDir: h.paths.runtimeDir,
    });
    h.bridge.addChannel(channel);
    await channel.start(h.bridge);
    await fake.waitForConnection();
    const rig: Rig = { h, fake, seam, spawns, keep: 1 };

    // 1. Warm: the first warm-up starts the child; every measured turn must reuse it.
    const warmEngine = engineWith(600_000);
    seam.target = warmEngine;
    const warm = await pairs(rig, 'warm', bare);
    const coldTurns = warm.ours.filter((t) => t.spawned > 0).length;
    const card = warm.ours.map((t) => t.card.first);
    const seamFirst = warm.ours.map((t) => t.engine.first);
    const bareFirst = warm.bare.map((t) => t.first);
    const ratio = p50(card) / p50(bareFirst);
    const pairedRatio = p50(card.map((c, i) => c / (bareFirst[i] as number)));
    const bareLabel = `bare \`claude -p --resume=<twin> --output-format stream-json --verbose --include-partial-messages\`, prompt on stdin, spawn → first text delta: p50 ${ms(p50(bareFirst))}`;
    figures.push({
      figure:
        'warm follow-up → first answer text in the card p50, as a ratio to a bare `claude -p` (real Claude Code, bridge, Feishu channel)',
      value: round(ratio),
      unit: '×',
      goal: '≤ 0.5×',
      baseline: bareLabel,
      met: coldTurns === 0 ? atMost(ratio, 0.5) : false,
      note: `in the card p50 ${ms(p50(card))} (p90 ${ms(percentile(card, 90))}); paired-ratio p50 ${pairedRatio.toFixed(2)}; engine seam (send → first text event) p50 ${ms(p50(seamFirst))} = ${(p50(seamFirst) / p50(bareFirst)).toFixed(2)}×; ${coldTurns}/${RUNS} measured turns spawned a child; n=${RUNS} pairs after ${WARMUP} warm-ups`,
    });

    // 3a. RSS of the warm child, then of three warm sessions (two more opened at the engine seam).
    const groups = [...spawns.live];
    const one = groups.length === 1 ? groupRssMb(groups[0] as number) : null;
    figures.push({
      figure: 'RSS of one warm Claude Code child (its whole process group, idle between turns)',
      value: one ? round(one.mb) : null,
      unit: 'MB',
      goal: null,
      baseline: null,
      met: null,
      note: one ? `${one.processes} process(es), VmRSS summed` : `expected one live group, saw ${groups.length}`,
    });
    for (const dir of ['Git/beta', 'Workspace'])
      await warmEngine.send({ prompt: 'echo: open', cwd: path.join(h.home, dir), newSessionId: randomUUID() });
    const three = [...spawns.live].map((g) => groupRssMb(g));
    const self = rssMb(process.pid) ?? Number.NaN;
    figures.push({
      figure: "RSS of three warm sessions' children (sum of their process groups)",
      value: round(three.reduce((s, g) => s + g.mb, 0)),
      unit: 'MB',
      goal: null,
      baseline: null,
      met: null,
      note: `${three.length} groups: ${three.map((g) => `${round(g.mb)} MB/${g.processes}p`).join(', ')}; this bench's own process (bridge + channel + engine + fakes, in-process) ${round(self)} MB`,
    });
    await warmEngine.close?.();

    // 2. Cold: a fresh child per message, same session and twin.
    seam.target = engineWith(0);
    rig.keep = 0;
    const cold = await pairs(rig, 'cold', bare);
    const coldFigure = (what: string, ours: number[], base: number[], seamVals: number[]): BenchFigure => {
      const d = p50(diffs(ours, base));
      return {
        figure: `cold (warm_idle_ms = 0) message → ${what} in the card, minus a bare \`claude -p\`, paired p50`,
        value: round(d),
        unit: 'ms',
        goal: '≤ 50 ms',
        baseline: `the same bare \`claude -p\` resume, spawn → ${what}: p50 ${ms(p50(base))}`,
        met: atMost(d, 50),
        note: `in the card p50 ${ms(p50(ours))}; p50 difference ${ms(p50(ours) - p50(base))}; engine seam (send → ${what}) minus bare, paired p50 ${ms(p50(diffs(seamVals, base)))}; n=${RUNS} pairs after ${WARMUP} warm-ups`,
      };
    };
    figures.push(
      coldFigure(
        'first answer text',
        cold.ours.map((t) => t.card.first),
        cold.bare.map((t) => t.first),
        cold.ours.map((t) => t.engine.first),
      ),
      coldFigure(
        'whole answer',
        cold.ours.map((t) => t.card.whole),
        cold.bare.map((t) => t.whole),
        cold.ours.map((t) => t.engine.whole),
      ),
    );
  } finally {
    await channel?.stop();
    await seam.target?.close?.();
    await h.cleanup();
  }

  // 3b. A whole daemon holding three warm sessions.
  try {
    figures.push(...(await warmDaemonRss({ fake, anthropicUrl: anthropic.url })));
  } catch (err) {
    figures.push({
      figure: 'RSS of a `cc-linker start` daemon holding 3 warm sessions (daemon + its Claude Code children)',
      value: null,
      unit: 'MB',
      goal: null,
      baseline: null,
      met: null,
      note: `not measured: ${String(err).split('\n')[0]}`,
    });
  }
  await fake.close();
  await anthropic.close();

  console.log(
    `# warm-session benchmark (node ${process.version}${QUICK ? ', --quick' : ''}; Claude Code ${bin.split('/').slice(-2, -1)[0]}; ${RUNS} interleaved pairs after ${WARMUP} warm-ups)\n`,
  );
  console.log('| figure | value | goal | baseline |');
  console.log('|---|---|---|---|');
  for (const f of figures)
    console.log(
      `| ${f.figure} | ${f.value ?? 'n/a'} ${f.unit}${f.note ? ` (${f.note})` : ''} | ${f.goal ?? '-'} | ${f.baseline ?? '-'} |`,
    );
  for (const f of figures) emitFigure(f); // for bench/run-all.ts (protocol in bench/report.ts)
}

await main();
