import fs from 'node:fs';
import { sleep, type BridgeProcess } from './bridge-process.js';
import type { ChatUser } from './chat-user.js';
import { findProcesses, killPid } from './processes.js';
import type { Rng } from './rng.js';
import { fillSpool, type Sandbox } from './sandbox.js';

/** Counts of every fault the run injected (only those that really happened). */
export interface FaultCounts {
  bridgeKills: number;
  /** Bridge SIGKILLs while an answer was visible in a card that was not finalised yet (real engine). */
  killsWhileAnswerShown: number;
  /** Bridge SIGKILLs aimed right after the platform answered a send or edit (the bridge has not recorded it yet). */
  killsAfterWriteAnswered: number;
  /** Bridge SIGKILLs while the platform's POST of an update was in the bridge's hands, never answered (webhook). */
  killsDuringDelivery: number;
  /** Bridge SIGKILLs right after the bridge answered a POST 2xx (webhook: the update must be safe by then). */
  killsAfterDeliveryAnswered: number;
  claudeKills: number;
  /** The platform's API faults by name (`ChatUser.faultNames`: 429, 5xx, …). */
  platform: Record<string, number>;
  wsDrops: number;
  duplicatePushes: number;
  diskFull: number;
  clockJumps: number;
  permissionClicks: number;
  permissionNever: number;
}

/**
 * Where a bridge kill is aimed. `answer-shown` (real engine): while a reply card already shows
 * its answer streaming and the message is not finalised — the window where a re-run would send
 * the prompt to the model a second time.
 */
export type KillMoment =
  | 'anytime'
  | 'during-engine'
  | 'after-send'
  | 'after-send-answered'
  | 'during-startup'
  | 'during-accept'
  | 'during-delivery'
  | 'after-delivery-answered'
  | 'answer-shown';

const HOUR = 3_600_000;
/** Clock jumps: past the claim stale time (30 min), past done retention (24 h), backwards, and back to true time. */
const CLOCK_OFFSETS = [90 * 60_000, 26 * HOUR, -2 * HOUR, 0];

/**
 * The faults of the chaos run. Each method injects one fault (or waits briefly for a moment when
 * it can land, e.g. a Claude child running) and counts it.
 */
export class ChaosFaults {
  readonly counts: FaultCounts = {
    bridgeKills: 0,
    killsWhileAnswerShown: 0,
    killsAfterWriteAnswered: 0,
    killsDuringDelivery: 0,
    killsAfterDeliveryAnswered: 0,
    claudeKills: 0,
    platform: {},
    wsDrops: 0,
    duplicatePushes: 0,
    diskFull: 0,
    clockJumps: 0,
    permissionClicks: 0,
    permissionNever: 0,
  };
  /** Undo of a disk-full fault in progress (restored on abort). */
  private diskUndo: (() => void) | undefined;

  constructor(
    private readonly o: {
      user: ChatUser;
      bridge: BridgeProcess;
      sandbox: Sandbox;
      rng: Rng;
      /** Path fragment in the command line of a Claude child (the fake or the bundled binary). */
      claudeCmd: string;
      /** True while some answer is visible in a card that is not finalised (see `answerStreaming`). */
      answerStreaming: () => boolean;
      log: (line: string) => void;
    },
  ) {}

  /**
   * SIGKILLs the bridge at `moment`, then restarts it after a supervisor-like delay.
   * `during-accept` sends a message (`sendOne`) and kills 0–30 ms later, inside the 3-second
   * window between the event arriving and its ack; `after-send-answered` sends one and kills as
   * soon as the platform answered the bridge's next send or edit; `during-delivery` (delivery by
   * POST) sends one and kills 0–3 ms after the platform POSTed it to the bridge, counted when that
   * POST then got no answer (the kill landed while the bridge held it); `after-delivery-answered`
   * kills as soon as the bridge answered that POST 2xx (it must have accepted the update by then).
   */
  async killBridge(moment: KillMoment, sendOne: () => void): Promise<void> {
    const { bridge, rng, user } = this.o;
    // The previous kill's restart may still be on its way: a supervisor would have it up in a moment.
    await this.waitFor(() => bridge.alive, 5_000);
    if (moment === 'during-accept') {
      sendOne();
      await sleep(rng.int(0, 30));
    }
    let shown = false;
    if (moment === 'answer-shown') {
      sendOne();
      await this.waitFor(() => this.o.answerStreaming(), 8_000);
      shown = this.o.answerStreaming();
    }
    if (moment === 'during-engine') await this.waitFor(() => this.claudeChildren().length > 0, 3_000);
    if (moment === 'after-send') {
      const before = user.writes();
      await this.waitFor(() => user.writes() > before, 3_000);
    }
    // A message makes the bridge write; the kill follows the platform's answer to the next write at
    // once, before the bridge may have recorded it.
    let answered = false;
    if (moment === 'after-send-answered') {
      // A life still connecting (or recovering) would take the message late: wait until it is up.
      await this.waitFor(() => bridge.current?.connectedAt !== undefined, 15_000);
      const next = user.afterNextWrite(10_000);
      sendOne();
      answered = await next;
    }
    if (answered) await sleep(rng.int(0, 5));
    let posted: { answer: Promise<number> } | undefined;
    let delivered = false;
    if (moment === 'during-delivery' || moment === 'after-delivery-answered') {
      await this.waitFor(() => bridge.current?.connectedAt !== undefined, 15_000);
      const next = user.nextDeliveryInFlight?.(10_000);
      sendOne();
      posted = await next;
      if (posted && moment === 'during-delivery') await sleep(rng.int(0, 3));
      if (posted && moment === 'after-delivery-answered') delivered = (await posted.answer) === 200;
    }
    if (await bridge.kill()) {
      this.counts.bridgeKills += 1;
      if (shown) this.counts.killsWhileAnswerShown += 1;
      if (answered) this.counts.killsAfterWriteAnswered += 1;
      if (moment === 'during-delivery' && posted && (await posted.answer) === 0) this.counts.killsDuringDelivery += 1;
      if (delivered) this.counts.killsAfterDeliveryAnswered += 1;
    }
    this.o.log(
      `kill bridge (${moment}${moment === 'answer-shown' && !shown ? ', none shown' : ''}) → life ${bridge.lives.length} ended`,
    );
    if (moment === 'during-startup') {
      void bridge.start();
      await sleep(rng.int(50, 600));
      if (await bridge.kill()) this.counts.bridgeKills += 1;
      this.o.log(`kill bridge while starting → life ${bridge.lives.length} ended`);
    }
    await sleep(rng.int(0, 800));
    void bridge.start();
  }

  /** Claude children of this run (the sandbox in their environment, the claude binary in their command line). */
  claudeChildren(): number[] {
    return findProcesses(this.o.sandbox.root, { inCmdline: this.o.claudeCmd }).map((p) => p.pid);
  }

  /** SIGKILLs one running Claude child (waits ≤ 3 s for one to exist). */
  async killClaude(): Promise<void> {
    await this.waitFor(() => this.claudeChildren().length > 0, 3_000);
    const pids = this.claudeChildren();
    if (pids.length === 0) return;
    if (killPid(this.o.rng.pick(pids))) this.counts.claudeKills += 1;
    this.o.log('kill a claude child');
  }

  /** One fault of the platform's API (see `ChatUser.platformFault`), counted by its name. */
  platformFault(): void {
    const name = this.o.user.platformFault(this.o.rng);
    this.counts.platform[name] = (this.counts.platform[name] ?? 0) + 1;
    this.o.log(`${this.o.user.label} fault ${name}`);
  }

  async dropConnection(): Promise<void> {
    await this.o.user.dropConnection();
    this.counts.wsDrops += 1;
    this.o.log('dropped the long connection');
  }

  /** The spool's disk is full (or nearly: 1–3 pages free) for 0.5–2.5 s. */
  async diskFull(): Promise<void> {
    const hold = this.o.rng.int(500, 2_500);
    const leaveFree = this.o.rng.pick([0, 0, 4_096, 8_192, 12_288]);
    try {
      this.diskUndo = fillSpool(this.o.sandbox, leaveFree);
    } catch (err) {
      this.o.log(`disk-full fault could not be set up: ${String(err)}`);
      return;
    }
    this.counts.diskFull += 1;
    this.o.log(`spool disk full for ${hold} ms (${this.o.sandbox.diskFull}, ${leaveFree} bytes left)`);
    await sleep(hold);
    this.restoreDisk();
  }

  restoreDisk(): void {
    const undo = this.diskUndo;
    this.diskUndo = undefined;
    undo?.();
  }

  /** Steps the bridge's wall clock (see clock-shift.mjs): forward past timeouts and retention, or back. */
  clockJump(): void {
    const current = Number(fs.readFileSync(this.o.sandbox.clockFile, 'utf8')) || 0;
    const next = this.o.rng.pick(CLOCK_OFFSETS.filter((o) => o !== current));
    fs.writeFileSync(this.o.sandbox.clockFile, String(next));
    this.counts.clockJumps += 1;
    this.o.log(`clock jump ${current / 60_000} min → ${next / 60_000} min`);
  }

  private async waitFor(predicate: () => boolean, timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!predicate() && Date.now() < deadline) await sleep(15);
  }
}
