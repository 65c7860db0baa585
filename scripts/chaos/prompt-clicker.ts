import { promptMessages } from '../../src/bridge/prompts/prompt-messages.js';
import type { FakeFeishu, SentMessage } from '../../test/fakes/fake-feishu/fake-feishu-server.js';
import { sleep } from './bridge-process.js';
import type { ChaosFaults } from './faults.js';
import type { FeishuUser } from './feishu-user.js';
import type { Rng } from './rng.js';

const PERMISSION_TITLE = promptMessages('en')('permissionTitle');

/** The callback values of a card's buttons (`behaviors[].value`), in document order. */
export function buttonValues(card: unknown): Array<Record<string, unknown>> {
  const out: Array<Record<string, unknown>> = [];
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(walk);
    if (typeof node !== 'object' || node === null) return;
    const rec = node as Record<string, unknown>;
    if (Array.isArray(rec.behaviors)) {
      for (const b of rec.behaviors as Array<Record<string, unknown>>)
        if (b && typeof b.value === 'object' && b.value !== null) out.push(b.value as Record<string, unknown>);
    }
    Object.values(rec).forEach(walk);
  };
  walk(card);
  return out;
}

/**
 * The user's thumb on permission cards: each new permission card is allowed at once, allowed
 * late (4–10 s), denied, answered by typing `/allow` / `/deny` / `/always`, or never answered
 * (the bridge denies it after `sdk.timeout_ms`).
 */
export class PromptClicker {
  private readonly seen = new Set<string>();
  private timer: NodeJS.Timeout | undefined;
  private typing = true;

  constructor(
    private readonly fake: FakeFeishu,
    private readonly user: FeishuUser,
    private readonly rng: Rng,
    private readonly faults: ChaosFaults,
  ) {}

  start(): void {
    this.timer = setInterval(() => this.scan(), 250);
  }

  stop(): void {
    clearInterval(this.timer);
  }

  /** From now on prompts are only tapped, never answered by a new text (the run's messages are all sent). */
  stopTyping(): void {
    this.typing = false;
  }

  private scan(): void {
    for (const s of this.fake.sent) {
      if (this.seen.has(s.message_id) || s.msg_type !== 'interactive') continue;
      this.seen.add(s.message_id);
      if (!this.isPermissionCard(s)) continue;
      const choice = this.rng.weighted({ allow: 4, late: 2, deny: 1.5, never: 2.5, text: this.typing ? 1.5 : 0 });
      if (choice === 'never') {
        this.faults.counts.permissionNever += 1;
        continue;
      }
      if (choice === 'text') {
        // Answered by typing `/allow` (or `/deny`, `/always`) instead of tapping the card.
        const word = this.rng.pick(['/allow', '/deny', '/always']);
        void sleep(this.rng.int(300, 3_000)).then(() => {
          if (!this.typing) return;
          this.faults.counts.permissionClicks += 1;
          this.user.send('command', word);
        });
        continue;
      }
      const decision = choice === 'deny' ? 'deny' : 'allow';
      const value = buttonValues(s.content).find((v) => v.type === 'permission' && v.decision === decision);
      if (!value) continue;
      const delay = choice === 'late' ? this.rng.int(4_000, 10_000) : this.rng.int(200, 1_500);
      void sleep(delay).then(() => {
        this.faults.counts.permissionClicks += 1;
        this.user.click(s.message_id, value, `${choice}`);
      });
    }
  }

  private isPermissionCard(s: SentMessage): boolean {
    try {
      return this.fake.textOf(s).split('\n', 1)[0]?.includes(PERMISSION_TITLE) ?? false;
    } catch {
      return false;
    }
  }
}
