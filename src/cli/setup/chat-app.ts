import type { Config } from '../../core/config-schema.js';
import type { LocalizedText } from '../../core/i18n.js';
import type { OptionSpec } from '../commands/command-spec.js';
import type { SetupFlags } from './setup-answers.js';
import type { SetupSession } from './setup-session.js';

type Plain = Record<string, unknown>;

/** One command-line option of a chat app (`--telegram-bot-token <token>`). */
export interface ChatAppOption extends OptionSpec {
  /** The key commander gives it in the options object (`--telegram-bot-token` → `telegramBotToken`). */
  key: string;
  /**
   * Whether it answers a question: given on a terminal, setup then asks only what is still missing
   * (as with `--app-id`). A setting that is never asked (an API address) is not an answer.
   */
  answer: boolean;
}

/** An environment variable that overrides a key setup writes, and the value written. */
export interface EnvOverrideWritten {
  env: string;
  key: string;
  value: string;
  /** A secret left in the variable on purpose (the file gets ''): no warning then. */
  keptInEnv?: boolean;
}

/**
 * What `cc-linker setup` needs to set up one chat app. `A` is the app's own answers, opaque to
 * the rest of setup. A run: `ask` (in the full wizard the credentials are checked at once, so a
 * refused one can be typed again), then — after the directories, when every answer is known to
 * be valid — `check` (outside the wizard: the network check runs last), then `apply` onto the new
 * file, then `summary`, `envOverrides` and `nextSteps` for what is printed. Adding an app is one
 * file exporting such an object (built with `chatApp`) and one line in `chat-apps.ts`.
 */
export interface ChatAppSetup<A = unknown> {
  /** Its name in `--channels` and in the wizard's answer (`telegram`). */
  readonly id: string;
  /** Other words accepted for it (`lark`, `飞书`). */
  readonly aliases: readonly string[];
  /** How it is named to the user, in each language (`飞书 / Lark`, `Feishu / Lark`); `--help` uses en. */
  readonly label: LocalizedText;
  /** Its own command-line options, after the common ones in `--help`. */
  readonly options: readonly ChatAppOption[];
  /** Whether the existing config already sets it up (the wizard's default; re-checked by a bare `--yes`). */
  configured(config: Config): boolean;
  /** Whether one of its answer flags was given (chooses it without `--channels`). */
  flagged(flags: SetupFlags): boolean;
  /** The variables that answer its questions (one set chooses it when no app's flag was given). */
  readonly env: readonly string[];
  ask(s: SetupSession, flags: SetupFlags, config: Config): Promise<A>;
  /** Runs the check `ask` left for last; throws a `SetupError` (nothing written) when it fails. */
  check(s: SetupSession, flags: SetupFlags, answers: A): Promise<A>;
  /** Writes the answers; `section(name)` is the new file's copy of that section (the same object on each call). */
  apply(section: (name: string) => Plain, answers: A): void;
  /** Rows of the wizard's final summary; a secret only as "set (hidden)". */
  summary(s: SetupSession, config: Config, answers: A): Array<[string, string]>;
  envOverrides(config: Config, answers: A): EnvOverrideWritten[];
  /** Lines printed after writing: how to start using it. */
  nextSteps(s: SetupSession, config: Config, answers: A): string[];
  /** How its credential check went: `ok`, `skipped` (`--no-check`) or `unchecked` (unreachable). */
  checked(answers: A): 'ok' | 'skipped' | 'unchecked' | 'pending';
}

/** Erases an app's answer type so that apps can share one list (`CHAT_APPS`). */
export function chatApp<A>(app: ChatAppSetup<A>): ChatAppSetup {
  return app as unknown as ChatAppSetup;
}
