import {
  ALLOWLIST,
  MAX_ARG_LENGTH,
  MAX_SUBARGS,
  type CmdSpec,
  type FlagSpec,
  type PositionalSpec,
  type RunSpec,
} from './allowlist.js';

/**
 * The cc_exec gate: the real line of defence between a model's tool call and the ChainlessChain CLI
 * (the tool's description only asks the model to behave; the argv runner, with no shell, is the last
 * backstop). A pure function of `(command, subargs)`: it allows only what the allowlist data
 * describes and denies everything else, with a short English reason the model can act on.
 *
 * Rules (all fail closed):
 * - `command` and subcommand words are ASCII lower-case kebab (`^[a-z][a-z0-9-]*$`), so homoglyphs
 *   (`nоte` with Cyrillic о) and fullwidth letters never match. Subcommand words come first in `subargs`.
 * - `subargs` is an array of at most `MAX_SUBARGS` strings; a string (or anything else) is denied.
 * - Every argument is non-empty, at most `MAX_ARG_LENGTH` long, has no leading/trailing whitespace and
 *   no forbidden character: the shell metacharacters `; & | $ \` < > \n \r`, U+FFFD, and every Unicode
 *   control (Cc, incl. NUL and tab), format (Cf: zero-width, BiDi, tag characters), surrogate (Cs),
 *   private-use (Co) and line/paragraph separator (Zl, Zp) character. `$OPENAI_API_KEY` is therefore
 *   denied; nothing is ever expanded here (there is no shell downstream either).
 * - Flags: `--name value`, `--name=value`, and the short alias split form `-n 5`. Attached short
 *   values (`-n5`, `-n=5`) are denied. A flag may appear once (repeats are denied, even with equal
 *   values, and `-n` + `--limit` count as the same flag). `bool` flags take no value (`--json=true` is
 *   denied). `int` values are canonical decimals (`0` or `[1-9][0-9]*`) within the range, so `-1`, `1e9`,
 *   `0x10`, ` 5`, `05` are denied; `decimal` adds an optional `.` and up to 6 digits; `enum` values match
 *   exactly; `string` values respect `maxLen`. No value may start with `-` or a look-alike dash.
 * - Positionals: required ones present, no more than declared, none starting with `-` or a look-alike
 *   dash; bare `--` is denied; `id` positionals are one token of `[A-Za-z0-9.:-]`.
 *
 * On allow, `argv` is `[command, ...subargs]` exactly as given (copied; never normalized), without the
 * CLI prefix; `spec` is the matched `RunSpec` for `applyDefaults`; `path` the matched command words.
 */
export type GateDecision = GateAllow | GateDeny;

/** An allowed call: the argv to run (without the CLI prefix) and the spec it matched. */
export interface GateAllow {
  readonly allow: true;
  readonly argv: string[];
  readonly path: readonly string[];
  readonly spec: RunSpec;
}

/** A denied call and why, in one short English sentence for the model and the audit log. */
export interface GateDeny {
  readonly allow: false;
  readonly reason: string;
}

const NAME = /^[a-z][a-z0-9-]*$/;
const LONG_FLAG = /^--[a-z][a-z0-9-]*$/;
const SHORT_FLAG = /^-[a-zA-Z]$/;
const MAX_NAME_LENGTH = 64;
const FORBIDDEN = /[;&|$`<>\r\n\uFFFD\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Zl}\p{Zp}]/u;
const INVISIBLE = /[\uFFFD\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Zl}\p{Zp}]/u;
const INVISIBLE_ALL = new RegExp(INVISIBLE.source, 'gu');
const EDGE_SPACE = /^\s|\s$/u;
/** ASCII `-` and its look-alikes (every Pd dash, fullwidth `－`, minus sign `−`). */
const DASH_LIKE = /^[\p{Pd}\u2212]/u;
const ID_TOKEN = /^[A-Za-z0-9][A-Za-z0-9.:-]*$/;
const INT = /^(0|[1-9][0-9]{0,8})$/;
const DECIMAL = /^(0|[1-9][0-9]{0,8})(\.[0-9]{1,6})?$/;
const SHOWN_CHARS = 40;

/**
 * Decides whether the model's `cc_exec` call may run. Never throws: anything unreadable is a deny.
 *
 * @example
 *   gate('note', ['list', '--limit', '10'])  // { allow: true, argv: ['note', 'list', '--limit', '10'], … }
 *   gate('search', ['RAG', '--limit', '5'])  // { allow: false, reason: "unknown flag --limit for 'search'; allowed: --mode, --top-k, --threshold, --json" }
 */
export function gate(command: string, subargs: unknown, allowlist: readonly CmdSpec[] = ALLOWLIST): GateDecision {
  try {
    return decide(command, subargs, allowlist);
  } catch {
    return deny('arguments could not be read');
  }
}

/**
 * Quotes a model-supplied string for a reason or log line: at most 40 code points, with control,
 * format and other invisible characters shown as `\u{…}` escapes so a reason can never carry them.
 */
export function quoteForReason(value: string): string {
  const chars = Array.from(value);
  const cut = chars.length > SHOWN_CHARS ? `${chars.slice(0, SHOWN_CHARS).join('')}…` : value;
  return `'${cut.replace(INVISIBLE_ALL, (c) => `\\u{${hex(c)}}`)}'`;
}

function decide(command: string, subargs: unknown, allowlist: readonly CmdSpec[]): GateDecision {
  if (typeof command !== 'string') return deny(`command must be a string, got ${typeOf(command)}`);
  const badName = checkName(command, 'command');
  if (badName) return deny(badName);
  const root = allowlist.find((c) => c.name === command);
  if (!root)
    return deny(
      `command ${quoteForReason(command)} is not allowed; allowed: ${allowlist.map((c) => c.name).join(', ')}`,
    );

  if (!Array.isArray(subargs)) return deny(`subargs must be an array of strings, got ${typeOf(subargs)}`);
  const count = subargs.length;
  if (count > MAX_SUBARGS) return deny(`too many arguments (${count} > ${MAX_SUBARGS})`);
  const args: string[] = [];
  for (let i = 0; i < count; i++) {
    const arg: unknown = subargs[i];
    if (typeof arg !== 'string') return deny(`subargs[${i}] must be a string, got ${typeOf(arg)}`);
    const bad = checkArg(arg);
    if (bad) return deny(`subargs[${i}] ${bad}`);
    args.push(arg);
  }

  let node = root;
  const path = [root.name];
  let next = 0;
  while (node.subcommands && node.subcommands.length > 0) {
    const word = args[next];
    const child = word === undefined ? undefined : node.subcommands.find((c) => c.name === word);
    if (child) {
      node = child;
      path.push(child.name);
      next++;
      continue;
    }
    if (node.run) break;
    const label = path.join(' ');
    const choices = node.subcommands.map((c) => c.name).join(', ');
    if (word === undefined) return deny(`'${label}' needs a subcommand: ${choices}`);
    if (word.startsWith('-')) return deny(`'${label}' needs its subcommand first (${choices}), before any flag`);
    return deny(
      checkName(word, 'subcommand') ?? `unknown subcommand ${quoteForReason(word)} for '${label}'; allowed: ${choices}`,
    );
  }
  if (!node.run) return deny(`'${path.join(' ')}' is not runnable`);

  const bad = checkRest(args.slice(next), node.run, path.join(' '));
  if (bad) return deny(bad);
  return { allow: true, argv: [command, ...args], path, spec: node.run };
}

/** Checks flags, values and positionals after the command words; returns a reason or undefined. */
function checkRest(rest: readonly string[], run: RunSpec, label: string): string | undefined {
  const seen = new Set<FlagSpec>();
  const positionals: string[] = [];
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i] as string;
    if (arg === '--') return "a bare '--' is not allowed";
    if (!arg.startsWith('-')) {
      if (DASH_LIKE.test(arg))
        return `${quoteForReason(arg)} starts with a non-ASCII dash (U+${hex(arg)}); flags are ASCII and values must not start with a dash`;
      positionals.push(arg);
      continue;
    }
    const found = findFlag(arg, run, label);
    if (typeof found === 'string') return found;
    const { flag, inline } = found;
    if (seen.has(flag)) return `flag ${flag.name} is given more than once`;
    seen.add(flag);
    if (flag.type.kind === 'bool') {
      if (inline !== undefined) return `flag ${flag.name} takes no value (got ${quoteForReason(`=${inline}`)})`;
      continue;
    }
    let value = inline;
    if (value === undefined) {
      value = rest[i + 1];
      if (value === undefined) return `flag ${flag.name} needs a value`;
      i++;
    }
    const bad = checkValue(flag, value);
    if (bad) return bad;
  }
  return checkPositionals(positionals, run.positionals, label);
}

/** Resolves an argument starting with `-` to a flag of `run` (plus its `=value`), or a reason. */
function findFlag(arg: string, run: RunSpec, label: string): { flag: FlagSpec; inline: string | undefined } | string {
  const allowed = run.flags.length > 0 ? `allowed: ${run.flags.map((f) => f.name).join(', ')}` : 'it takes no flags';
  if (arg.startsWith('--')) {
    const eq = arg.indexOf('=');
    const name = eq === -1 ? arg : arg.slice(0, eq);
    if (!LONG_FLAG.test(name))
      return `flag ${quoteForReason(name)} is not ASCII lower-case kebab${firstNonKebab(name)}`;
    const flag = run.flags.find((f) => f.name === name);
    if (!flag) return `unknown flag ${name} for '${label}'; ${allowed}`;
    return { flag, inline: eq === -1 ? undefined : arg.slice(eq + 1) };
  }
  if (SHORT_FLAG.test(arg)) {
    const flag = run.flags.find((f) => f.short === arg);
    if (!flag) return `unknown flag ${arg} for '${label}'; ${allowed}`;
    return { flag, inline: undefined };
  }
  const short = run.flags.find((f) => f.short !== undefined && arg.startsWith(f.short));
  if (short) return `write ${short.short} and its value as two arguments; ${quoteForReason(arg)} is not allowed`;
  return `${quoteForReason(arg)} starts with '-' but is not a flag of '${label}' (values must not start with '-'); ${allowed}`;
}

function checkValue(flag: FlagSpec, value: string): string | undefined {
  const type = flag.type;
  if (value === '') return `flag ${flag.name} needs a value`;
  if (EDGE_SPACE.test(value)) return `value of ${flag.name} has leading or trailing whitespace`;
  switch (type.kind) {
    case 'int':
    case 'decimal': {
      const shape = type.kind === 'int' ? INT : DECIMAL;
      const n = shape.test(value) ? Number(value) : NaN;
      if (!(n >= type.min && n <= type.max)) {
        const what = type.kind === 'int' ? 'a whole number' : 'a number';
        return `${flag.name} expects ${what} from ${type.min} to ${type.max}, got ${quoteForReason(value)}`;
      }
      return undefined;
    }
    case 'enum':
      return type.values.includes(value)
        ? undefined
        : `${flag.name} must be one of ${type.values.join(', ')}, got ${quoteForReason(value)}`;
    case 'string':
      if (DASH_LIKE.test(value)) return `value of ${flag.name} must not start with a dash`;
      return value.length > type.maxLen
        ? `value of ${flag.name} is too long (${value.length} > ${type.maxLen})`
        : undefined;
    case 'bool':
      return `flag ${flag.name} takes no value`;
  }
}

function checkPositionals(
  values: readonly string[],
  specs: readonly PositionalSpec[],
  label: string,
): string | undefined {
  if (values.length > specs.length) {
    const extra = quoteForReason(values[specs.length] as string);
    if (specs.length === 0) return `'${label}' takes no positional arguments (got ${extra})`;
    return `'${label}' takes ${specs.map((s) => `<${s.name}>`).join(' ')} only (extra ${extra}); put a whole query in one argument`;
  }
  for (let i = 0; i < specs.length; i++) {
    const spec = specs[i] as PositionalSpec;
    const value = values[i];
    if (value === undefined) {
      if (spec.required) return `'${label}' needs <${spec.name}> (${spec.help})`;
      continue;
    }
    if (value.length > spec.maxLen) return `<${spec.name}> is too long (${value.length} > ${spec.maxLen})`;
    if (spec.kind === 'id' && !ID_TOKEN.test(value))
      return `<${spec.name}> must be one token of letters, digits, '.', ':' and '-', got ${quoteForReason(value)}`;
  }
  return undefined;
}

/** Per-argument checks that do not depend on the command; returns a reason fragment or undefined. */
function checkArg(arg: string): string | undefined {
  if (arg === '') return 'is empty';
  if (arg.length > MAX_ARG_LENGTH) return `is too long (${arg.length} > ${MAX_ARG_LENGTH} characters)`;
  const bad = FORBIDDEN.exec(arg);
  if (bad) {
    const c = bad[0];
    const shown = INVISIBLE.test(c) ? `U+${hex(c)}` : `'${c}'`;
    return `contains a forbidden character ${shown} (shell metacharacters, control and invisible characters are not allowed)`;
  }
  if (EDGE_SPACE.test(arg)) return 'has leading or trailing whitespace';
  return undefined;
}

function checkName(word: string, what: 'command' | 'subcommand'): string | undefined {
  if (word.length <= MAX_NAME_LENGTH && NAME.test(word)) return undefined;
  return `${what} ${quoteForReason(word)} is not ASCII lower-case kebab${firstNonKebab(word)}`;
}

/** Names the first character that cannot be in a kebab name, e.g. ` (U+043E at 2)`, for homoglyph reasons. */
function firstNonKebab(word: string): string {
  const chars = Array.from(word);
  const at = chars.findIndex((c) => !/[a-z0-9-]/.test(c));
  return at === -1 ? '' : ` (U+${hex(chars[at] as string)} at ${at + 1})`;
}

function hex(char: string): string {
  return (char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0');
}

function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value;
}

function deny(reason: string): GateDeny {
  return { allow: false, reason };
}
