import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { bundledClaudePath, claudeTestEnv } from '../../test/fakes/fake-anthropic/claude-env.js';
import { startFakeAnthropic, type FakeAnthropic } from '../../test/fakes/fake-anthropic/fake-anthropic-server.js';
import { BridgeProcess, sleep, type Life } from './bridge-process.js';
import { chaosModelScript } from './chaos-model.js';
import type { ChaosChannel } from './chat-user.js';
import { ChaosFaults, type FaultCounts, type KillMoment } from './faults.js';
import type { ChaosOptions } from './options.js';
import { findProcesses, killPid, type FoundProcess } from './processes.js';
import { PromptClicker } from './prompt-clicker.js';
import { Rng } from './rng.js';
import { createSandbox, type DiskFullMethod, type Sandbox } from './sandbox.js';
import { Scenario } from './scenario.js';
import type { SendWindowVerdict } from './send-window.js';
import { startChatUser } from './start-chat-user.js';
import { Stopper } from './stopper.js';
import type { WebhookDeliveryStats } from './telegram-webhook-delivery.js';
import { judgeStops, type StopVerdict } from './stop-verdict.js';
import { answerStreaming, judge, observeFinals, readClaudeCalls, type EngineCall, type Verdict } from './verdict.js';

/** Everything a chaos run measured; `passed` is false when any goal was missed. */
export interface ChaosReport {
  seed: number;
  channel: ChaosChannel;
  /** The chat app's name, and the names of its API faults in `faults.platform`. */
  platform: { label: string; faultNames: readonly string[]; mode?: string };
  engine: 'fake' | 'real';
  mode: 'sdk' | 'stream-json';
  requested: { messages: number; kills: number };
  durationMs: number;
  passed: boolean;
  goals: Record<
    | 'lost'
    | 'duplicated'
    | 'misanswered'
    | 'rerunsAfterAnswer'
    | 'recallsAfterShown'
    | 'stopsNotHonoured'
    | 'leftoverProcesses',
    { value: number; goal: number; ok: boolean }
  >;
  verdict: Verdict;
  /** Platforms without an idempotency key for sends (Telegram): the duplicate window, measured. */
  sendWindow?: SendWindowVerdict;
  stops: StopVerdict;
  faults: FaultCounts;
  lives: {
    count: number;
    unexpectedExits: Array<Pick<Life, 'index' | 'exitCode' | 'signal' | 'clockOffsetMs'> & { logTail: string }>;
  };
  spoolAfterStop: Record<'pending' | 'processing' | 'replied' | 'done' | 'failed', number>;
  failedReasons: Record<string, number>;
  leftovers: FoundProcess[];
  cleanStopExitCode: number | null;
  /** Requests the chat app's fake served, and how many it answered with an injected error. */
  platformRequests: { total: number; injectedErrors: number };
  /** Delivery by POST (Telegram's webhook): POSTs made, failed, and updates given up. */
  webhook?: WebhookDeliveryStats;
  diskFullMethod: DiskFullMethod;
  replay: string;
  sandbox?: string;
}

const REPO = path.resolve(import.meta.dirname, '../..');
const PRELOAD = path.join(import.meta.dirname, 'clock-shift.mjs');
const SPOOL_STATES = ['pending', 'processing', 'replied', 'done', 'failed'] as const;

/** Newest modification time of the files `npm run build` compiles. */
function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(p));
    else if (!entry.name.endsWith('.test.ts')) newest = Math.max(newest, fs.statSync(p).mtimeMs);
  }
  return newest;
}

/** Runs `npm run build` when dist is missing or older than any source file. */
export function ensureBuilt(log: (line: string) => void): void {
  const main = path.join(REPO, 'dist/cli/launcher/cc-linker.js');
  const built = fs.existsSync(main) ? fs.statSync(main).mtimeMs : 0;
  if (built >= newestSource(path.join(REPO, 'src'))) return;
  log('dist is stale: npm run build');
  const r = spawnSync('npm', ['run', 'build'], { cwd: REPO, stdio: ['ignore', 'inherit', 'inherit'] });
  if (r.status !== 0) throw new Error('npm run build failed; fix the build before running the chaos test');
}

function spoolCounts(sb: Sandbox): ChaosReport['spoolAfterStop'] {
  const counts = { pending: 0, processing: 0, replied: 0, done: 0, failed: 0 };
  for (const s of SPOOL_STATES) {
    try {
      counts[s] = fs
        .readdirSync(path.join(sb.spoolDir, s))
        .filter((n) => n.endsWith('.json') && !n.startsWith('.')).length;
    } catch {
      counts[s] = 0;
    }
  }
  return counts;
}

function failedReasons(sb: Sandbox): Record<string, number> {
  const reasons: Record<string, number> = {};
  const dir = path.join(sb.spoolDir, 'failed');
  for (const name of fs.existsSync(dir)
    ? fs.readdirSync(dir).filter((n) => n.endsWith('.json') && !n.startsWith('.'))
    : []) {
    try {
      const r = JSON.parse(fs.readFileSync(path.join(dir, name), 'utf8')) as { failure?: { code?: string } };
      const code = r.failure?.code ?? 'unknown';
      reasons[code] = (reasons[code] ?? 0) + 1;
    } catch {
      reasons.unreadable = (reasons.unreadable ?? 0) + 1;
    }
  }
  return reasons;
}

function tail(file: string, lines = 15): string {
  try {
    return fs.readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n');
  } catch {
    return '';
  }
}

/** Indexes of the messages (0-based, by send order) after which a fault is injected. */
function schedule(rng: Rng, n: number, count: number): Set<number> {
  return new Set(rng.sample(Math.max(1, n - 1), count).map((i) => i + 1));
}

/**
 * One chaos run: the real `cc-linker start` process against the chat app's fake server
 * (`--channel`: Feishu or Telegram; and, for `engine: real`, the bundled Claude Code against the fake Anthropic API), a
 * seeded randomized mix of user messages and faults, then quiescence, a clean stop and the
 * verdict. Never throws for a finding — findings are in the report.
 */
export async function runChaos(o: ChaosOptions, log: (line: string) => void): Promise<ChaosReport> {
  const started = Date.now();
  const verbose = (line: string) =>
    o.verbose ? log(`  [${((Date.now() - started) / 1000).toFixed(1)}s] ${line}`) : undefined;
  ensureBuilt(log);
  const rng = new Rng(o.seed);
  const user = await startChatUser(o.channel, Math.random, { telegramMode: o.telegramMode });
  let anthropic: FakeAnthropic | undefined;
  const sb = createSandbox({ engine: o.engine, mode: o.mode, projects: 4, extraConfig: user.config });
  user.useSandbox?.(sb);
  let claudeCmd = sb.claudeBin ?? '';
  // A failed run keeps its sandbox (bridge log, lives' output, spool) for the post-mortem.
  let keep = o.keep;
  try {
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin',
      HOME: sb.home,
      CC_LINKER_HOME: sb.ccHome,
      ...user.env,
      CHAOS_CLOCK_FILE: sb.clockFile,
    };
    if (o.engine === 'real') {
      const bin = bundledClaudePath();
      if (!bin)
        throw new Error(
          '--engine real needs the Claude Code binary bundled by @anthropic-ai/claude-agent-sdk (not installed for this platform)',
        );
      claudeCmd = bin;
      anthropic = await startFakeAnthropic({ script: chaosModelScript });
      Object.assign(env, claudeTestEnv({ home: sb.home, baseUrl: anthropic.url }));
    }
    const bridge = new BridgeProcess({
      repo: REPO,
      env,
      livesDir: sb.livesDir,
      startArgs: user.startArgs,
      preload: PRELOAD,
      connectionsOpened: () => user.connectionsOpened(),
      log: verbose,
    });
    const faults = new ChaosFaults({
      user,
      bridge,
      sandbox: sb,
      rng,
      claudeCmd,
      log: verbose,
      answerStreaming: () => answerStreaming(user, user.messages),
    });
    const scenario = new Scenario(rng, user, sb, o.engine);
    const clicker = new PromptClicker(user, rng, faults);
    const stopper = new Stopper(user, rng, faults, o.engine, verbose);
    if (o.engine === 'real') clicker.start();

    const first = await bridge.start();
    if (!first?.connectedAt)
      throw new Error(
        `cc-linker start did not connect to the fake ${user.label} server; see ${sb.livesDir}/life-001.log:\n${tail(path.join(sb.livesDir, 'life-001.log'))}`,
      );

    // Supervisor: restart a bridge that has been down for a while (an unexpected exit, a failed start).
    let stopping = false;
    let downSince: number | undefined;
    const supervisor = setInterval(() => {
      if (stopping || bridge.alive || bridge.starting) return void (downSince = undefined);
      downSince ??= Date.now();
      if (Date.now() - downSince > 1_500) {
        downSince = undefined;
        void bridge.start();
      }
    }, 250);
    // Real engine: a model request whose last user text is a prompt marks a run; stamped when first seen.
    const requestSeenAt: number[] = [];
    const stampRequests = () => {
      while (anthropic && requestSeenAt.length < anthropic.requests.length) requestSeenAt.push(Date.now());
    };
    const observer = setInterval(() => {
      stampRequests();
      observeFinals(user, user.messages);
    }, 200);
    const background = new Set<Promise<void>>();
    const inBackground = (p: Promise<void>) => {
      background.add(p);
      void p.finally(() => background.delete(p));
    };

    const n = o.messages;
    const plan = {
      kills: schedule(rng, n, o.kills),
      claudeKills: schedule(rng, n, Math.ceil(o.kills / 2)),
      platform: schedule(rng, n, Math.ceil(n / 10)),
      drops: schedule(rng, n, Math.max(1, Math.round(n / 60))),
      repush: schedule(rng, n, Math.ceil(n / 10)),
      disk: schedule(rng, n, Math.max(1, Math.round(n / 40))),
      clock: schedule(rng, n, Math.max(1, Math.round(n / 100))),
    };
    // `done` counts the plan's messages; a kill during accept and a typed /allow add a few more.
    let done = 0;
    while (done < n) {
      const { sent, waitFor, stop } = scenario.step(n - done);
      for (let i = done; i < done + sent.length; i += 1) {
        if (plan.platform.has(i)) faults.platformFault();
        if (plan.drops.has(i)) inBackground(faults.dropConnection());
        if (plan.disk.has(i)) inBackground(faults.diskFull());
        if (plan.clock.has(i)) faults.clockJump();
        if (plan.repush.has(i)) {
          const acked = user.messages.filter((m) => m.ackedAt !== undefined);
          if (acked.length > 0) {
            const times = rng.chance(0.2) ? 3 : 1;
            user.repush(rng.pick(acked), times);
            faults.counts.duplicatePushes += times;
          }
        }
        if (plan.claudeKills.has(i)) await faults.killClaude();
        if (plan.kills.has(i)) {
          const moment = rng.weighted<KillMoment>({
            anytime: 3,
            'during-engine': 3,
            'after-send': 3,
            'during-accept': 2,
            'during-startup': 1,
            ...(o.engine === 'real' ? { 'answer-shown': 4 } : {}),
            // No idempotency key for sends: aim at the window between the platform's answer and our record of it.
            ...(user.judgeSendWindow ? { 'after-send-answered': 4 } : {}),
            // Delivery by POST: aim at the bridge holding an update it has not answered yet.
            ...(user.nextDeliveryInFlight ? { 'during-delivery': 4, 'after-delivery-answered': 2 } : {}),
          });
          // Inside an answer's streaming window the message must be a text whose answer streams.
          await faults.killBridge(moment, () =>
            moment === 'answer-shown' ? scenario.textNow() : void scenario.step(1),
          );
        }
      }
      done += sent.length;
      if (stop) await stopper.run(stop);
      if (waitFor) {
        const until = Date.now() + (o.engine === 'real' ? 30_000 : 15_000);
        while (Date.now() < until && waitFor.finalSeenAt === undefined) {
          await sleep(100);
          observeFinals(user, user.messages);
        }
      }
      await sleep(scenario.gapMs());
    }
    verbose(`all ${n} messages sent; waiting for quiescence`);
    clicker.stopTyping();
    await Promise.all(background);
    faults.restoreDisk();

    // Quiescence: every message acked and answered, the spool empty; or nothing moving any more.
    const quietDeadline = Date.now() + (o.engine === 'real' ? 150_000 : 120_000);
    let lastActivity = Date.now();
    let activity = -1;
    const acksDone = user.drain(90_000);
    while (Date.now() < quietDeadline) {
      const open = observeFinals(user, user.messages);
      const counts = spoolCounts(sb);
      const busy = counts.pending + counts.processing + counts.replied;
      const now = user.writes() + user.messages.reduce((sum, m) => sum + m.acks.length, 0);
      if (now !== activity) {
        activity = now;
        lastActivity = Date.now();
      }
      if (open === 0 && user.unacked.length === 0 && busy === 0) break;
      if (busy === 0 && faults.claudeChildren().length === 0 && Date.now() - lastActivity > 20_000) break;
      await sleep(250);
    }
    await acksDone;
    clearInterval(observer);
    clicker.stop();
    observeFinals(user, user.messages);
    stopping = true;
    clearInterval(supervisor);
    while (bridge.starting) await sleep(50);
    const cleanStopExitCode = await bridge.stop(45_000);
    await sleep(1_000);
    const leftovers = findProcesses(sb.root);
    for (const p of leftovers) killPid(p.pid);
    stampRequests();
    const calls: EngineCall[] = anthropic
      ? anthropic.requests.flatMap((r, i) => {
          const prompt = r.method === 'POST' && r.path === '/v1/messages' ? (r.scriptRequest?.lastUserText ?? '') : '';
          // Stamped up to 200 ms late: only a request seen 500 ms after the answer counts as a re-run.
          return prompt ? [{ at: (requestSeenAt[i] ?? Date.now()) - 500, prompt }] : [];
        })
      : readClaudeCalls(sb.claudeLog);
    const window = user.judgeSendWindow?.(bridge.lives);
    const view = window?.view ?? user.replies();
    const verdict = judge(view, user.messages, calls);
    // A chunk shown twice outside the documented window is a duplicate like any other.
    if (window) verdict.duplicated.push(...window.verdict.outsideWindow);
    const stops = judgeStops(view, user.messages, stopper.attempts, calls);
    const leftoverCount = leftovers.length;
    const goal = (value: number) => ({ value, goal: 0, ok: value === 0 });
    const goals: ChaosReport['goals'] = {
      lost: goal(verdict.lost.length),
      duplicated: goal(verdict.duplicated.length),
      misanswered: goal(verdict.misanswered.length),
      rerunsAfterAnswer: goal(verdict.rerunsAfterAnswer.length),
      recallsAfterShown: goal(verdict.recallsAfterShown.length),
      stopsNotHonoured: goal(stops.accepted - stops.honoured),
      leftoverProcesses: goal(leftoverCount),
    };
    const passed = Object.values(goals).every((g) => g.ok);
    keep ||= !passed;
    if (keep) user.saveTranscript?.(path.join(sb.root, 'chat.json'));
    const report: ChaosReport = {
      seed: o.seed,
      channel: o.channel,
      platform: { label: user.label, faultNames: user.faultNames, ...(user.mode ? { mode: user.mode } : {}) },
      engine: o.engine,
      mode: o.mode,
      requested: { messages: o.messages, kills: o.kills },
      durationMs: Date.now() - started,
      passed,
      goals,
      verdict,
      ...(window ? { sendWindow: window.verdict } : {}),
      stops,
      faults: faults.counts,
      lives: {
        count: bridge.lives.length,
        unexpectedExits: bridge.unexpectedExits.map((l) => ({
          index: l.index,
          exitCode: l.exitCode ?? null,
          signal: l.signal ?? null,
          clockOffsetMs: l.clockOffsetMs,
          logTail: tail(path.join(sb.livesDir, `life-${String(l.index).padStart(3, '0')}.log`), 8),
        })),
      },
      spoolAfterStop: spoolCounts(sb),
      failedReasons: failedReasons(sb),
      leftovers,
      cleanStopExitCode,
      platformRequests: user.requestStats(),
      ...(user.deliveryStats?.() ? { webhook: user.deliveryStats() } : {}),
      diskFullMethod: sb.diskFull,
      replay: `npm run chaos -- ${o.channel === 'feishu' ? '' : `--channel ${o.channel} `}--seed ${o.seed} --messages ${o.messages} --kills ${o.kills} --engine ${o.engine}${o.telegramMode === 'webhook' ? ' --telegram-mode webhook' : ''}`,
      ...(keep ? { sandbox: sb.root } : {}),
    };
    return report;
  } finally {
    for (const p of findProcesses(sb.root)) killPid(p.pid);
    await user.close().catch(() => undefined);
    await anthropic?.close().catch(() => undefined);
    sb.cleanup(keep);
  }
}
