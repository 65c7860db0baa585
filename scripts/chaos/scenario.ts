import fs from 'node:fs';
import path from 'node:path';
import type { ChatUser, ChaosMessage, MessageKind } from './chat-user.js';
import type { Rng } from './rng.js';
import type { Sandbox } from './sandbox.js';
import type { StopHow, StopPlan } from './stopper.js';

type StepKind =
  | 'text'
  | 'burst'
  | 'new-prompt'
  | 'new-bare'
  | 'switch'
  | 'list-switch'
  | 'command'
  | 'image'
  | 'post'
  | 'tool'
  | 'slow'
  | 'stop';

const FAKE_WEIGHTS: Partial<Record<StepKind, number>> = {
  text: 40,
  burst: 6,
  'new-prompt': 5,
  'new-bare': 3,
  switch: 8,
  'list-switch': 2,
  command: 4,
  image: 4,
  post: 4,
  stop: 8,
};
const REAL_WEIGHTS: Partial<Record<StepKind, number>> = {
  text: 30,
  'new-prompt': 8,
  'new-bare': 3,
  switch: 5,
  command: 3,
  image: 4,
  tool: 16,
  slow: 8,
  stop: 12,
};
const COMMANDS = ['/status', '/help', '/list', '/whoami'];

/**
 * The simulated owner's behaviour: a seeded mix of plain texts to the current session, `/new`
 * with and without a prompt (with texts racing the new session's creation), `/switch` races,
 * commands, images, and — with the real engine — tool calls that ask for permission and slow
 * streamed answers — and stops: a long answer stopped while it runs (`/stop` typed or its card's
 * Stop button, sometimes followed at once by a bridge SIGKILL, sometimes only after the answer was
 * final), or a message waiting behind it cancelled from its "Queued" card. Every answerable text
 * carries a unique token the answer must echo.
 */
export class Scenario {
  constructor(
    private readonly rng: Rng,
    private readonly user: ChatUser,
    private readonly sb: Sandbox,
    private readonly engine: 'fake' | 'real',
  ) {}

  /**
   * Sends the messages of one step (1–5 of them, never more than `budget`). `waitFor` is set when
   * the user, like most people, waits for a new session's first answer before typing on (texts
   * sent meanwhile would only be told "a new session is being created").
   */
  step(budget: number): { sent: ChaosMessage[]; waitFor?: ChaosMessage; stop?: StopPlan } {
    const rng = this.rng;
    const out: ChaosMessage[] = [];
    let claimer: ChaosMessage | undefined;
    let stop: StopPlan | undefined;
    const send = (kind: MessageKind, text: string, token?: string) => {
      if (out.length < budget) out.push(this.user.send(kind, text, token));
      return out[out.length - 1];
    };
    if (this.user.messages.length === 0) {
      const t = this.token();
      return { sent: out, waitFor: send('new-prompt', `/new ${this.sb.projects[0]} -- ${this.prompt(t)}`, t) };
    }
    const kind = rng.weighted(this.engine === 'fake' ? FAKE_WEIGHTS : REAL_WEIGHTS);
    switch (kind) {
      case 'text':
        this.text(send);
        break;
      case 'burst':
        for (let i = rng.int(3, 5); i > 0; i -= 1) this.text(send);
        break;
      case 'new-prompt': {
        const t = this.token();
        claimer = send('new-prompt', `/new ${rng.pick(this.sb.projects)} -- ${this.prompt(t)}`, t);
        break;
      }
      case 'new-bare':
        // The first text claims the new session; one sent right behind it races the claim.
        send('new-bare', `/new ${rng.pick(this.sb.projects)}`);
        claimer = this.text(send);
        if (rng.chance(0.5)) this.text(send);
        break;
      case 'switch': {
        const sessions = this.knownSessions();
        if (sessions.length === 0) return this.step(budget);
        send('switch', `/switch ${rng.pick(sessions).slice(0, 8)}`);
        if (rng.chance(0.3)) send('switch', `/switch ${rng.pick(sessions).slice(0, 8)}`);
        if (rng.chance(0.6)) this.text(send);
        break;
      }
      case 'list-switch':
        send('command', '/list');
        send('switch', `/switch ${rng.int(1, 3)}`);
        break;
      case 'command':
        send('command', rng.pick(COMMANDS));
        break;
      case 'image':
        send('image', '');
        break;
      case 'post': {
        const t = this.token();
        send('post', this.prompt(t), t);
        break;
      }
      case 'tool':
        send('tool', `tool: Bash touch f-${this.token()}`);
        break;
      case 'slow':
        send('slow', `slow: ${rng.int(40, 120)}`);
        break;
      case 'stop': {
        // An app without Stop / Cancel buttons (DingTalk) is stopped by typing `/stop` only.
        const how = this.user.typedStopsOnly
          ? 'typed'
          : rng.weighted<StopHow>({ typed: 2, button: 2, cancel: budget >= 2 ? 1.5 : 0 });
        const late = how !== 'cancel' && rng.chance(0.15);
        const kill = rng.chance(0.3);
        // `cancel`: a long answer runs, and the message sent right behind it waits (its card says "Queued").
        const first = this.longText(send, late);
        const target = how === 'cancel' ? this.text(send) : first;
        if (target) stop = { target, how, kill, late };
        break;
      }
    }
    return {
      sent: out,
      ...(claimer && rng.chance(0.7) ? { waitFor: claimer } : {}),
      ...(stop ? { stop } : {}),
    };
  }

  /** Sends one text with a token to the current session now (an answer that will stream, with the real engine). */
  textNow(): void {
    this.text((kind, text, token) => this.user.send(kind, text, token));
  }

  /** Pause before the next step. */
  gapMs(): number {
    return this.engine === 'fake' ? this.rng.int(40, 500) : this.rng.int(300, 1_500);
  }

  private text(
    send: (kind: MessageKind, text: string, token?: string) => ChaosMessage | undefined,
  ): ChaosMessage | undefined {
    const t = this.token();
    return send('text', this.prompt(t), t);
  }

  /** A text whose answer takes seconds (the user can stop it); `short` answers within a second. */
  private longText(
    send: (kind: MessageKind, text: string, token?: string) => ChaosMessage | undefined,
    short: boolean,
  ): ChaosMessage | undefined {
    const t = this.token();
    if (this.engine === 'real') return send('text', `${short ? 'echo' : 'long'}: ${t}`, t);
    return send('text', `question ${t} sleep=${short ? this.rng.int(300, 800) : this.rng.int(3_000, 6_000)}`, t);
  }

  private token(): string {
    return `tok${this.user.messages.length + 1}x${this.rng.int(0, 36 ** 4 - 1).toString(36)}`;
  }

  /** The prompt: the fake claude echoes it (and sleeps `sleep=` ms); the fake Anthropic API echoes `echo:`. */
  private prompt(token: string): string {
    if (this.engine === 'real') return `echo: ${token}`;
    const r = this.rng.next();
    const ms = r < 0.7 ? this.rng.int(0, 200) : r < 0.95 ? this.rng.int(200, 1_500) : this.rng.int(1_500, 4_000);
    return `question ${token} sleep=${ms}`;
  }

  /** Session ids Claude Code has files for (what `/switch <prefix>` can reach). */
  private knownSessions(): string[] {
    const projectsDir = path.join(this.sb.home, '.claude', 'projects');
    const ids: string[] = [];
    try {
      for (const dir of fs.readdirSync(projectsDir).sort()) {
        for (const f of fs.readdirSync(path.join(projectsDir, dir)).sort())
          if (f.endsWith('.jsonl')) ids.push(f.slice(0, -'.jsonl'.length));
      }
    } catch {
      // no sessions yet
    }
    return ids;
  }
}
