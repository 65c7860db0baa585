import { sleep } from './bridge-process.js';
import type { ChatUser } from './chat-user.js';
import type { ChaosFaults } from './faults.js';
import type { Rng } from './rng.js';

/**
 * The user's thumb on permission prompts: each new prompt is allowed at once, allowed late
 * (4–10 s), denied, answered by typing `/allow` / `/deny` / `/always`, or never answered (the
 * bridge denies it after `sdk.timeout_ms`).
 */
export class PromptClicker {
  private timer: NodeJS.Timeout | undefined;
  private typing = true;

  constructor(
    private readonly user: ChatUser,
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
    for (const prompt of this.user.newPermissionPrompts()) {
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
      const button = choice === 'deny' ? prompt.deny : prompt.allow;
      if (!button) continue;
      const delay = choice === 'late' ? this.rng.int(4_000, 10_000) : this.rng.int(200, 1_500);
      void sleep(delay).then(() => {
        this.faults.counts.permissionClicks += 1;
        void this.user.click(button, choice);
      });
    }
  }
}
