import { createHash } from 'node:crypto';
import type { CardAction } from '../../bridge/reply-model.js';
import type { JsonLedger } from '../../core/json-ledger.js';
import { TOKEN_ALPHABET, TOKEN_LENGTH, type ChoiceText } from './option-tap.js';

/** One prompt message whose options may still be chosen. */
export interface OfferedPrompt {
  /** The prompt's short name in a tap's text (`1 #k3f9`). */
  token: string;
  /** The delivery key of the prompt message (a retried send keeps its token). */
  key: string;
  /** Option n (1-based) is `actions[n - 1]`. */
  actions: CardAction[];
}

/** One user's open prompts, oldest first, and the tokens no longer open. */
export interface UserPrompts {
  prompts: OfferedPrompt[];
  /** The prompt a number alone answers; absent once it was answered. */
  newest?: string;
  /** Tokens answered or dropped, newest last: a tap on one is "expired", and none is given out again. */
  closed?: string[];
}

/** What the ledger holds per user; `{ actions }` was kept before prompts had tokens (the newest prompt only). */
export type StoredPrompts = UserPrompts | { actions: CardAction[] };

/** What a choice reply stands for. */
export type ChoiceLookup =
  | { kind: 'option'; action: CardAction; token: string }
  /** A tap naming an open prompt with fewer options. */
  | { kind: 'no-such-option'; n: number }
  /** A tap naming a prompt that is not open: answered, expired, dropped, or never offered to this user. */
  | { kind: 'closed' };

/** Open prompts kept per user; beyond this the oldest is dropped (its taps then answer "expired"; `evictOldest`). */
export const MAX_OPEN_PROMPTS = 20;
/** Closed tokens remembered per user, so an old tap never lands on a new prompt. */
const MAX_CLOSED = 200;

/** Actions a choice may stand for: answers to a prompt the bridge is waiting on. */
const ANSWERS = new Set<CardAction['type']>(['permission', 'question', 'recovery', 'force_send']);

/** The token a seed (a delivery key) gives, before collisions are avoided. */
export function tokenOf(seed: string): string {
  const bytes = createHash('sha256').update(seed).digest();
  let token = '';
  for (let i = 0; i < TOKEN_LENGTH; i += 1) token += TOKEN_ALPHABET[(bytes[i] ?? 0) % TOKEN_ALPHABET.length];
  return token;
}

/**
 * Takes the prompts beyond `MAX_OPEN_PROMPTS` out of `prompts` (oldest first, the newest never) and
 * returns them: other buttons (every reply's Stop, a "Queued" message's Cancel, /list) go before
 * a prompt's answers, so a prompt still waiting for the owner stays answerable.
 */
function evictOldest(prompts: OfferedPrompt[]): OfferedPrompt[] {
  const over = prompts.length - MAX_OPEN_PROMPTS;
  if (over <= 0) return [];
  const older = prompts.slice(0, -1);
  const order = [
    ...older.filter((p) => !OptionStore.offers(p.actions)),
    ...older.filter((p) => OptionStore.offers(p.actions)),
  ];
  const gone = new Set(order.slice(0, over));
  const dropped = prompts.filter((p) => gone.has(p));
  prompts.splice(0, prompts.length, ...prompts.filter((p) => !gone.has(p)));
  return dropped;
}

/**
 * DingTalk's robot markdown messages have no buttons, so a prompt's options are tappable links and
 * a numbered list (docs/design.md#dingtalk). This keeps, per user, every open prompt by its token
 * (the newest `MAX_OPEN_PROMPTS`), which one a number alone answers, and the tokens already closed;
 * in the runtime folder, so it survives a restart. Every button set is offered (Stop, Cancel, /list
 * and /listDir too); only a prompt's answers take a number alone. Whether a
 * choice still counts — the owner's, the prompt still pending — stays the bridge's decision (its
 * nonces), so a stranger's number or a stale one changes nothing. Calls run one at a time.
 */
export class OptionStore {
  private chain: Promise<unknown> = Promise.resolve();

  constructor(private readonly ledger: JsonLedger<StoredPrompts>) {}

  /** True when these actions are offered as choices (every one answers a prompt). */
  static offers(actions: CardAction[]): boolean {
    return actions.length > 0 && actions.every((a) => ANSWERS.has(a.type));
  }

  /**
   * Records the buttons sent under delivery `key` and returns their token (undefined: no buttons);
   * a prompt's answers become the newest, which a number alone answers. The token derives from the key (a retried send shows the
   * same one) and differs from every open or closed token of the user.
   */
  offer(userId: string, key: string, actions: CardAction[]): Promise<string | undefined> {
    if (actions.length === 0) return Promise.resolve(undefined);
    const answers = OptionStore.offers(actions);
    return this.serial(async () => {
      const user = await this.read(userId);
      const known = user.prompts.find((p) => p.key === key);
      const taken = new Set([...user.prompts.map((p) => p.token), ...(user.closed ?? [])]);
      let token = known?.token ?? tokenOf(key);
      for (let i = 1; !known && taken.has(token); i += 1) token = tokenOf(`${key}#${i}`);
      const prompts = [...user.prompts.filter((p) => p.key !== key), { token, key, actions }];
      const dropped = evictOldest(prompts);
      // Only a prompt's answers take a number alone; other buttons (Stop, Cancel, a session of
      // /list) are tapped, or typed with their token.
      const newest = answers ? token : prompts.some((p) => p.token === user.newest) ? user.newest : undefined;
      await this.write(userId, {
        prompts,
        ...(newest !== undefined ? { newest } : {}),
        closed: [...(user.closed ?? []), ...dropped.map((p) => p.token)],
      });
      return token;
    });
  }

  /**
   * What `choice` of `userId` stands for. A number alone answers the newest prompt; when there is
   * none or it has no such option, the result is undefined (the text is an ordinary message). A
   * tap names its prompt, and always gets an answer.
   */
  choice(userId: string, choice: ChoiceText): Promise<ChoiceLookup | undefined> {
    return this.serial(async () => {
      const user = await this.read(userId);
      const named = choice.token ?? user.newest;
      const prompt = named === undefined ? undefined : user.prompts.find((p) => p.token === named);
      const action = prompt?.actions[choice.n - 1];
      if (choice.token === undefined)
        return prompt && action ? { kind: 'option', action, token: prompt.token } : undefined;
      if (!prompt) return { kind: 'closed' };
      return action ? { kind: 'option', action, token: prompt.token } : { kind: 'no-such-option', n: choice.n };
    });
  }

  /** Closes prompt `token` of `userId` once one of its options was chosen. */
  close(userId: string, token: string): Promise<void> {
    return this.serial(async () => {
      const user = await this.read(userId);
      if (!user.prompts.some((p) => p.token === token)) return;
      await this.write(userId, {
        prompts: user.prompts.filter((p) => p.token !== token),
        ...(user.newest !== undefined && user.newest !== token ? { newest: user.newest } : {}),
        closed: [...(user.closed ?? []), token],
      });
    });
  }

  private async read(userId: string): Promise<UserPrompts> {
    const value = await this.ledger.get(userId);
    if (!value) return { prompts: [] };
    if ('prompts' in value) return value;
    // Kept by an earlier version: the newest prompt's options, answered by a number alone.
    return value.actions.length > 0
      ? { prompts: [{ token: '', key: '', actions: value.actions }], newest: '' }
      : { prompts: [] };
  }

  private write(userId: string, user: UserPrompts): Promise<void> {
    return this.ledger.set(userId, { ...user, closed: (user.closed ?? []).slice(-MAX_CLOSED) });
  }

  private serial<T>(step: () => Promise<T>): Promise<T> {
    const run = this.chain.then(step, step);
    this.chain = run.catch(() => undefined);
    return run;
  }
}
