import type { CliContext } from '../context/cli-context.js';

/**
 * One option of a command, in commander's flag syntax: `--json`, `--limit <n>`, `-y, --yes`,
 * `--no-check`, `--allowed-root <dir...>`. Commander reads it (`launcher/register-spec.ts`); a
 * command module itself never imports commander, so its tests run it through the same program.
 */
export interface OptionSpec {
  flags: string;
  description: string;
  /** The only values accepted. */
  choices?: readonly string[];
  /** The value when the option is not given (after `parse`, so give it parsed). */
  default?: string | number | boolean;
  /** Turns the text given into the value; throws `OptionValueError` (its message is shown) when bad. */
  parse?: (value: string) => unknown;
}

/** One positional argument: `<id>` (required), `[dir]` (optional), `<words...>` (variadic, last). */
export interface ArgumentSpec {
  /** Commander syntax, e.g. `<id>`. */
  name: string;
  description: string;
}

/**
 * A `cc-linker` command as data. `action` receives the context, then the positional values in
 * order (an array for a variadic one), then the options object (camelCased keys, as commander
 * gives them). A command may have `subcommands` as well as an action of its own (`chat`, `chat
 * history`).
 */
export interface CommandSpec {
  name: string;
  description: string;
  args?: readonly ArgumentSpec[];
  options?: readonly OptionSpec[];
  subcommands?: readonly CommandSpec[];
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- each command types its own positionals and options
  action?: (ctx: CliContext, ...args: any[]) => Promise<number | void>;
  /**
   * Runs on the embedded defaults when the config cannot be loaded, with the error in
   * `ctx.configError` (`doctor`: a broken config is what it is there to report, next to the rest).
   */
  survivesBadConfig?: boolean;
}

/** A bad option value (`--limit 0`): the message is shown after the option's name. */
export class OptionValueError extends Error {
  override readonly name = 'OptionValueError';
}
