// The Feishu channel's costs, with the REAL Feishu channel (official SDK: WSClient,
// EventDispatcher, Client) + the REAL Bridge (spool with fsync) + a scripted engine, against the
// in-repo fake Feishu server on 127.0.0.1 (fully offline):
//  1. event → first card: from `pushEvent` (the frame leaves the fake) to the reply carrying the
//     streaming card arriving at the fake (goal ≤ 30 ms p50). Claude is excluded by construction:
//     the card is sent before the engine runs. The CardKit entity's create is reported alongside.
//  2. Claude's first text delta → the CardKit element update carrying it, as timestamped by the
//     fake (goal ≤ 300 ms). The engine emits its first delta a known time after the card is up.
//  3. idle RSS of a real `cc-linker start` (dist build, temp HOME, Feishu credentials pointing at
//     the fake, long connection up), sampled from /proc/<pid>/status over ~5 s (goal ≤ 100 MB).
// Baselines, same run: one bare SDK REST call (`im.v1.message.create`) to the same fake before each
// message, and the idle RSS of a bare `node` process sampled the same way. Reference rows: the RSS
// that loading the two heaviest dependencies adds to a bare node process.
// Run: node --import tsx bench/feishu.bench.ts [--quick]   (part 3 needs `npm run build`)
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as Lark from '@larksuiteoapi/node-sdk';
import type { AgentEngine, EngineRequest, EngineResult, EngineSendOptions } from '../src/engine/engine-types.js';
import { createFeishuChannel, type FeishuChannel } from '../src/channels/feishu/feishu-channel.js';
import { silentLogger } from '../src/core/logger.js';
import { bridgeHarness, OWNER } from '../test/fakes/bridge-harness.js';
import {
  startFakeFeishuServer,
  textMessageEvent,
  type FakeFeishu,
} from '../test/fakes/fake-feishu/fake-feishu-server.js';
import { atMost, emitFigure, isQuick, percentile, round, type BenchFigure } from './report.js';

const QUICK = isQuick();
const RUNS = QUICK ? 10 : 50;
const WARMUP = 3;
/** The scripted Claude's first words come this long after the run starts (the card is up by then). */
const FIRST_DELTA_AFTER_MS = 300;
const RSS_SAMPLES = 6;
const CLI = path.resolve(import.meta.dirname, '..', 'dist', 'cli', 'launcher', 'cc-linker.js');

/** High-resolution wall clock shared by the bench and the fake's records. */
const clock = (): number => performance.timeOrigin + performance.now();
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
const newAppId = () => `cli_${randomBytes(8).toString('hex')}`;
const ms = (n: number) => `${round(n)} ms`;

/**
 * Claude stand-in: reports a session, then after a known pause streams a marked answer. For a
 * prompt containing "busy", a tool starts 20 ms before the first words, so the card has just been
 * updated and the first words wait out the per-card CardKit gap (the throttle's worst case).
 */
class ScriptedEngine implements AgentEngine {
  readonly agent = 'claude';
  readonly mode = 'sdk' as const;
  /** prompt → clock() when its first text delta was emitted. */
  readonly firstDeltaAt = new Map<string, number>();

  async send(request: EngineRequest, options: EngineSendOptions = {}): Promise<EngineResult> {
    const sessionId = request.sessionId ?? request.newSessionId ?? randomUUID();
    options.onEvent?.({ type: 'session', sessionId });
    await sleep(FIRST_DELTA_AFTER_MS);
    if (request.prompt.includes('busy')) {
      options.onEvent?.({ type: 'tool_use', id: 'toolu_1', name: 'Bash', summary: 'ls -la' });
      await sleep(20);
    }
    const parts = [`${markerOf(request.prompt)} `, '这个项目是一个', '把飞书和本机 Claude Code ', '会话连接起来的桥。'];
    this.firstDeltaAt.set(request.prompt, clock());
    for (const [i, delta] of parts.entries()) {
      if (i > 0) await sleep(40);
      options.onEvent?.({ type: 'text', delta });
    }
    return {
      text: parts.join(''),
      sessionId,
      costUsd: 0.001,
      durationMs: 500,
      numTurns: 1,
      stopReason: 'end_turn',
      permissionDenials: [],
      isNewSession: !request.sessionId,
    };
  }
}

const markerOf = (prompt: string) => `answer-${/#(\d+)/.exec(prompt)?.[1] ?? '?'}`;

/** VmRSS of a process in KB, or null once it is gone. */
function rssKb(pid: number): number | null {
  try {
    const m = /VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) : null;
  } catch {
    return null;
  }
}

async function sampleRss(pid: number): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < RSS_SAMPLES; i += 1) {
    await sleep(1000);
    const kb = rssKb(pid);
    if (kb === null) throw new Error(`process ${pid} exited while sampling`);
    out.push(kb / 1024);
  }
  return out;
}

/** SIGTERM, then SIGKILL after 10 s; resolves once the child has exited. */
async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

/** Part 1 + 2: the in-process channel and bridge. */
async function latencies(fake: FakeFeishu): Promise<BenchFigure[]> {
  const engine = new ScriptedEngine();
  const h = await bridgeHarness({ bridge: { engine, heartbeatMs: 2000 } });
  let channel: FeishuChannel | undefined;
  try {
    await h.mapping.setSession(OWNER, { sessionUuid: randomUUID(), cwd: path.join(h.home, 'Git/alpha') });
    channel = createFeishuChannel({
      appId: newAppId(),
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

    const bareClient = new Lark.Client({
      appId: newAppId(),
      appSecret: fake.appSecret,
      domain: fake.baseUrl,
      loggerLevel: Lark.LoggerLevel.error,
      logger: {
        error: () => undefined,
        warn: () => undefined,
        info: () => undefined,
        debug: () => undefined,
        trace: () => undefined,
      },
    });
    const bareCall = async (): Promise<number> => {
      const t0 = clock();
      const r = await bareClient.im.v1.message.create({
        params: { receive_id_type: 'open_id' },
        data: { receive_id: OWNER, msg_type: 'text', content: JSON.stringify({ text: 'baseline' }) },
      });
      if (r.code !== 0) throw new Error(`bare create failed: ${r.code}`);
      return clock() - t0;
    };

    const toCard: number[] = [];
    const toCreate: number[] = [];
    const toAck: number[] = [];
    const deltaIdle: number[] = [];
    const deltaBusy: number[] = [];
    const bare: number[] = [];
    for (let i = 0; i < WARMUP + RUNS; i += 1) {
      const b = await bareCall();
      const prompt = `讲讲这个项目${i % 2 === 1 ? ' (busy)' : ''} #${i}`;
      const event = textMessageEvent({ openId: OWNER, text: prompt });
      const omId = (event.event.message as { message_id: string }).message_id;
      const t0 = clock();
      const { ack } = await fake.pushEvent(event);
      const ackAt = clock();
      if (ack.code !== 200) throw new Error(`event not acked: ${JSON.stringify(ack)}`);
      await h.bridge.whenIdle();
      const reply = fake.sent.find((m) => m.parent_id === omId);
      const cardId = (reply?.content as { data?: { card_id?: string } } | undefined)?.data?.card_id;
      if (!reply || !cardId) throw new Error(`no CardKit reply for ${omId}: ${JSON.stringify(reply)}`);
      const ops = fake.cardkit.filter((o) => o.card_id === cardId);
      const create = ops.find((o) => o.op === 'create');
      const firstWords = ops.find((o) => o.op === 'content' && (o.content ?? '').includes(markerOf(prompt)));
      const deltaAt = engine.firstDeltaAt.get(prompt);
      if (!create || !firstWords || deltaAt === undefined)
        throw new Error(`card ${cardId}: missing create or first-words update`);
      if (i < WARMUP) continue;
      bare.push(b);
      toCard.push(reply.at - t0);
      toCreate.push(create.at - t0);
      toAck.push(ackAt - t0);
      (i % 2 === 1 ? deltaBusy : deltaIdle).push(firstWords.at - deltaAt);
      await sleep(20);
    }

    const bareP50 = percentile(bare, 50);
    const bareLabel = `one bare SDK REST call (im.v1.message.create) to the same fake: p50 ${ms(bareP50)}`;
    const cardP50 = percentile(toCard, 50);
    const deltaFigure = (label: string, values: number[]): BenchFigure => {
      const p50 = percentile(values, 50);
      return {
        figure: `Claude's first text delta → CardKit update carrying it p50, ${label}`,
        value: round(p50),
        unit: 'ms',
        goal: '≤ 300 ms',
        baseline: bareLabel,
        met: atMost(p50, 300),
        note: `p99 ${ms(percentile(values, 99))}, max ${ms(Math.max(...values))}; n=${values.length}`,
      };
    };
    return [
      {
        figure: 'event → first card at Feishu p50 (excl. Claude; real SDK + bridge, fake Feishu)',
        value: round(cardP50),
        unit: 'ms',
        goal: '≤ 30 ms',
        baseline: bareLabel,
        met: atMost(cardP50, 30),
        note: `${(cardP50 / bareP50).toFixed(1)}× one bare call; p99 ${ms(percentile(toCard, 99))}; CardKit entity created at p50 ${ms(percentile(toCreate, 50))}; event acked at p50 ${ms(percentile(toAck, 50))}; n=${toCard.length}`,
      },
      deltaFigure('card idle', deltaIdle),
      deltaFigure('card updated 20 ms before (tool start; waits out the 120 ms CardKit gap)', deltaBusy),
    ];
  } finally {
    await channel?.stop();
    await h.cleanup();
  }
}

/** Part 3: a real `cc-linker start` connected to the fake, idle. */
async function idleRss(fake: FakeFeishu): Promise<BenchFigure> {
  const figure = 'idle RSS of `cc-linker start` (Feishu connected to the fake, web console on)';
  if (!fs.existsSync(CLI))
    return {
      figure,
      value: null,
      unit: 'MB',
      goal: '≤ 100 MB',
      baseline: null,
      met: null,
      note: `not measured: ${path.relative(process.cwd(), CLI)} missing (run npm run build)`,
    };
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cc-bench-feishu-'));
  const children: ChildProcess[] = [];
  try {
    const home = path.join(tmp, 'home');
    fs.mkdirSync(home, { recursive: true });
    const ready = path.join(tmp, 'ready.json');
    const before = fake.connectionsOpened;
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      LANG: 'C',
      HOME: home,
      CC_LINKER_HOME: path.join(home, '.cc-linker'),
      CLAUDE_CONFIG_DIR: path.join(home, '.claude'),
      CC_LINKER_FEISHU_APP_ID: newAppId(),
      CC_LINKER_FEISHU_APP_SECRET: fake.appSecret,
      CC_LINKER_FEISHU_DOMAIN: fake.baseUrl,
      CC_LINKER_FEISHU_OWNER_OPEN_ID: OWNER,
      CC_LINKER_DAEMON_READY: ready,
    };
    const start = spawn(process.execPath, [CLI, 'start', '--port', '0'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(start);
    let output = '';
    start.stdout?.on('data', (d: Buffer) => (output += d.toString()));
    start.stderr?.on('data', (d: Buffer) => (output += d.toString()));
    const deadline = Date.now() + 60_000;
    while (!(fs.existsSync(ready) && fake.connectionsOpened > before)) {
      if (start.exitCode !== null || Date.now() > deadline)
        throw new Error(`cc-linker start did not come up (exit ${start.exitCode}):\n${output}`);
      await sleep(100);
    }
    const bare = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    children.push(bare);
    await sleep(500);
    const [ours, base] = await Promise.all([sampleRss(start.pid as number), sampleRss(bare.pid as number)]);
    const peak = Math.max(...ours);
    return {
      figure,
      value: round(peak),
      unit: 'MB',
      goal: '≤ 100 MB',
      baseline: `idle bare \`node -e 'setInterval(…)'\`: ${round(percentile(base, 50))} MB`,
      met: atMost(peak, 100),
      note: `max of ${RSS_SAMPLES} samples over ~${RSS_SAMPLES} s after ready; median ${round(percentile(ours, 50))} MB; ${(peak / percentile(base, 50)).toFixed(1)}× bare node`,
    };
  } finally {
    for (const c of children) await stopChild(c);
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

/** Heavy dependencies whose load cost explains the idle RSS (reference rows, no goal). */
const MODULES: Array<[string, string]> = [
  ['@larksuiteoapi/node-sdk', ''],
  ['gpt-tokenizer', "m.encode('hello');"],
];

/** RSS in bytes a bare node process gains by loading `spec` with `require` or `import()` (and running `use`). */
function rssAfterLoading(spec: string, use: string, how: 'require' | 'import'): Promise<number> {
  const load =
    how === 'require'
      ? `(await import('node:module')).createRequire(process.cwd() + '/')(${JSON.stringify(spec)})`
      : `await import(${JSON.stringify(spec)})`;
  const script = `const b = process.memoryUsage().rss; const m = ${load}; ${use} globalThis.gc?.(); console.log(process.memoryUsage().rss - b);`;
  return new Promise<number>((resolve, reject) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
      cwd: path.resolve(import.meta.dirname, '..'),
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let text = '';
    child.stdout.on('data', (d: Buffer) => (text += d.toString()));
    child.on('close', (code) =>
      code === 0 ? resolve(Number(text.trim())) : reject(new Error(`loading ${spec} failed (${code})`)),
    );
  });
}

/**
 * RSS a bare node process gains by loading `spec` the way cc-linker does (`require`, on first
 * use), with what an ES `import()` of the same package would cost for comparison.
 */
async function moduleRss(spec: string, use: string): Promise<BenchFigure> {
  const required = await rssAfterLoading(spec, use, 'require');
  const imported = await rssAfterLoading(spec, use, 'import');
  const mb = (n: number) => round(n / 1024 / 1024);
  return {
    figure: `RSS added by loading \`${spec}\` (reference for the idle RSS)`,
    value: mb(required),
    unit: 'MB',
    goal: null,
    baseline: 'a bare node process before the load',
    met: null,
    note: `with require, as cc-linker loads it; an ES import() would add ${mb(imported)} MB`,
  };
}

async function main(): Promise<void> {
  const fake = await startFakeFeishuServer({ clock });
  try {
    const figures = await latencies(fake);
    figures.push(await idleRss(fake));
    for (const [spec, use] of MODULES) figures.push(await moduleRss(spec, use));
    console.log(
      `# feishu benchmark (node ${process.version}${QUICK ? ', --quick' : ''}; ${RUNS} messages after ${WARMUP} warm-ups; first delta ${FIRST_DELTA_AFTER_MS} ms into the run)\n`,
    );
    console.log('| figure | value | goal | baseline |');
    console.log('|---|---|---|---|');
    for (const f of figures)
      console.log(
        `| ${f.figure} | ${f.value ?? 'n/a'} ${f.unit}${f.note ? ` (${f.note})` : ''} | ${f.goal ?? '-'} | ${f.baseline ?? '-'} |`,
      );
    for (const f of figures) emitFigure(f);
  } finally {
    await fake.close();
  }
}

await main();
