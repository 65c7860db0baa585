import { bridgeMessages } from '../../src/bridge/bridge-messages.js';
import { pipelineMessages } from '../../src/bridge/pipeline/pipeline-messages.js';
import { sleep } from './bridge-process.js';
import type { ChatButton, ChatUser, ChaosMessage } from './chat-user.js';
import type { ChaosFaults } from './faults.js';
import type { Rng } from './rng.js';

/** How the user stops a message: `/stop` typed, the running card's Stop, or a queued card's Cancel. */
export type StopHow = 'typed' | 'button' | 'cancel';

/** One stop the scenario asks for (see `Scenario.step`). */
export interface StopPlan {
  /** The message stopped (for `cancel`, the one waiting behind a running message). */
  target: ChaosMessage;
  how: StopHow;
  /** SIGKILL the bridge as soon as the stop was accepted (the stop must hold after the restart). */
  kill: boolean;
  /** The user is late: the stop comes after the answer is already final. */
  late: boolean;
}

/** What happened to one stop, as the user saw it. */
export interface StopAttempt {
  n: number;
  messageId: string;
  how: StopHow;
  kill: boolean;
  late: boolean;
  /**
   * The bridge's answer: `accepted` ("Stopping…", "Cancelled", "/stop: stopped"), `finished`
   * ("already finished", "nothing is running"), `none` (no answer or an unknown one), `not-sent`
   * (the running or queued card never showed in time, so the user had nothing to stop).
   */
  reply: 'accepted' | 'finished' | 'none' | 'not-sent';
  sentAt?: number;
  /** When the harness saw the bridge accept the stop (the click's ack, or the `/stop` notice). */
  repliedAt?: number;
  /** The bridge was SIGKILLed right after the accepted stop. */
  killed: boolean;
  detail: string;
}

const P = pipelineMessages('en');
const B = bridgeMessages('en');
const ACCEPTED = [P('stopAccepted'), P('cancelAccepted'), P('alreadyStopping'), B('stopDone')];
const FINISHED = [P('alreadyFinished'), B('stopNothing'), B('stopNothingElsewhere', { n: 0 }).split('0')[0] as string];

/**
 * The user's stops: waits until the target's card runs (or, `cancel`, shows "Queued"), stops it by
 * typing `/stop` or clicking the card's button, reads the bridge's answer, and — for a `kill`
 * plan — SIGKILLs the bridge at once once the stop was accepted. Every attempt is recorded for
 * the verdict (`judgeStops`).
 */
export class Stopper {
  readonly attempts: StopAttempt[] = [];

  constructor(
    private readonly user: ChatUser,
    private readonly rng: Rng,
    private readonly faults: ChaosFaults,
    private readonly engine: 'fake' | 'real',
    private readonly log: (line: string) => void,
  ) {}

  async run(p: StopPlan): Promise<void> {
    const a: StopAttempt = {
      n: p.target.n,
      messageId: p.target.messageId,
      how: p.how,
      kill: p.kill,
      late: p.late,
      reply: 'not-sent',
      killed: false,
      detail: '',
    };
    this.attempts.push(a);
    const wait = this.engine === 'real' ? 30_000 : 15_000;
    const which = p.how === 'cancel' ? 'queued' : 'running';
    // A late `/stop` needs no button: the answer may be final before its running card was ever seen.
    const lateTyped = () => (p.late && p.how === 'typed' && p.target.finalSeenAt !== undefined ? true : undefined);
    // A message answered before its card ran (e.g. "a new session is being created") has nothing to stop.
    const over = () => (!p.late && p.target.finalSeenAt !== undefined ? false : undefined);
    const card = await this.waitFor(() => this.user.stopButton(p.target, which) ?? lateTyped() ?? over(), wait);
    const button = typeof card === 'object' ? card.button : undefined;
    if (!card || (p.how !== 'typed' && !button)) {
      a.detail =
        card === false
          ? 'answered before a card to stop showed'
          : `no ${p.how === 'cancel' ? 'queued' : 'running'} card${card ? ' button' : ''} in time`;
      this.log(`stop #${p.target.n}: ${a.detail}`);
      return;
    }
    if (p.late) await this.waitFor(() => (p.target.finalSeenAt !== undefined ? true : undefined), wait);
    else if (p.how !== 'cancel') await sleep(this.rng.int(100, 1_200));
    a.sentAt = Date.now();
    if (p.how === 'typed') {
      const cmd = this.user.send('command', '/stop');
      const text = await this.waitFor(() => this.user.noticeOf(cmd), wait);
      this.classify(a, text);
    } else {
      const ack = await this.user.click(button as ChatButton, p.how);
      this.classify(a, ack.code === 200 ? JSON.stringify(ack.data ?? '') : undefined);
      if (ack.code !== 200) a.detail = `click ack ${ack.code}`;
    }
    this.log(`stop #${p.target.n} (${p.how}${p.late ? ', late' : ''}) → ${a.reply}`);
    if (p.kill && a.reply === 'accepted') {
      await this.faults.killBridge('anytime', () => undefined);
      a.killed = true;
    }
  }

  private classify(a: StopAttempt, text: string | undefined): void {
    a.repliedAt = Date.now();
    if (text === undefined) a.reply = 'none';
    else if (ACCEPTED.some((s) => text.includes(s))) a.reply = 'accepted';
    else if (FINISHED.some((s) => text.includes(s))) a.reply = 'finished';
    else {
      a.reply = 'none';
      a.detail = `unknown answer ${text.slice(0, 80)}`;
    }
  }

  private async waitFor<T>(probe: () => T | undefined, timeoutMs: number): Promise<T | undefined> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const v = probe();
      if (v !== undefined || Date.now() >= deadline) return v;
      await sleep(20);
    }
  }
}
