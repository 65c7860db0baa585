import type { CliContext } from './cli-context.js';

/**
 * One option of a command, in commander's flag syntax: `--json`, `--limit <n>`, `-y, --yes`,
 * `--no-check`, `--allowed-root <dir...>`. Declared as data so the same declaration drives both
 * the commander program (help, errors) and the fast parser that lets a well-formed
 * `cc-linker list` run without loading commander at all (`fast-parse.ts`).
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

/** The facts of one option's flags, parsed once from commander's syntax. */
export interface OptionShape {
  /** `limit`, `dry-run`, `no-check`: the long name without dashes. */
  long: string;
  short: string | null;
  /** The key in the options object: camelCase, without `no-` for a negated flag. */
  key: string;
  negated: boolean;
  /** `<value>` required, `[value]` optional, or a flag without value. */
  value: 'required' | 'optional' | 'none';
  variadic: boolean;
}

/** Reads commander's flag syntax (`-o, --output <file>`, `--no-check`, `--dir <d...>`). */
export function optionShape(flags: string): OptionShape {
  const m = /^(?:-([A-Za-z0-9]),\s*)?--([A-Za-z0-9][\w-]*)(?:\s+([<[])[^>\]]*?(\.\.\.)?[>\]])?$/.exec(flags.trim());
  if (!m) throw new Error(`unsupported option flags: ${flags}`);
  const long = m[2] as string;
  const negated = long.startsWith('no-');
  const base = negated ? long.slice(3) : long;
  return {
    long,
    short: m[1] ?? null,
    key: base.replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase()),
    negated,
    value: m[3] === '<' ? 'required' : m[3] === '[' ? 'optional' : 'none',
    variadic: Boolean(m[4]),
  };
}

/** A bad option value (`--limit 0`): the message is shown after the option's name. */
export class OptionValueError extends Error {
  override readonly name = 'OptionValueError';
}
