import { parseArgs } from 'node:util';
import { optionShape, type CommandSpec, type OptionShape, type OptionSpec } from './command-spec.js';

type ParseArgsOptions = NonNullable<Parameters<typeof parseArgs>[0]>['options'];

/**
 * Parses `argv` (after the command name) for `spec` with Node's own `util.parseArgs`, giving the
 * values commander would pass to the action — or null whenever the input is anything but plainly
 * well formed (help asked, unknown option, bad choice, wrong number of arguments, a value that
 * looks like an option, `--`, an optional or variadic option). On null the caller hands the run
 * to commander, which prints help or the exact usage error; so this never decides an error
 * itself, it only saves loading commander (≈ 12 ms of a 60 ms `cc-linker list`).
 * `fast-parse.test.ts` checks it against commander on every command.
 */
export function fastParse(spec: CommandSpec, argv: readonly string[]): unknown[] | null {
  if (!spec.action || spec.subcommands?.length) return null;
  if (argv.some((a) => a === '-h' || a === '--help' || a === '--')) return null;
  const declared = (spec.options ?? []).map((o) => ({ o, shape: optionShape(o.flags) }));
  if (declared.some(({ shape }) => shape.variadic || shape.value === 'optional')) return null;

  const options: ParseArgsOptions = {};
  for (const { shape } of declared)
    options[shape.long] = {
      type: shape.value === 'none' ? 'boolean' : 'string',
      ...(shape.short ? { short: shape.short } : {}),
    };
  let tokens;
  try {
    tokens = parseArgs({ args: [...argv], options, allowPositionals: true, strict: true, tokens: true }).tokens;
  } catch {
    return null;
  }

  const opts: Record<string, unknown> = defaults(declared);
  const positionals: string[] = [];
  for (const token of tokens) {
    if (token.kind === 'positional') {
      positionals.push(token.value);
      continue;
    }
    if (token.kind !== 'option') return null;
    const found = declared.find(({ shape }) => shape.long === token.name);
    if (!found) return null;
    const value = optionValue(found.o, found.shape, token.value);
    if (value === REFUSED) return null;
    opts[found.shape.key] = value;
  }
  const args = positionalValues(spec, positionals);
  return args ? [...args, opts] : null;
}

const REFUSED = Symbol('refused');

/** Commander's defaults: the declared ones, and `true` for a `--no-x` without a `--x`. */
function defaults(declared: { o: OptionSpec; shape: OptionShape }[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const { o, shape } of declared) {
    if (o.default !== undefined) out[shape.key] = o.default;
    else if (shape.negated && !declared.some((d) => !d.shape.negated && d.shape.key === shape.key))
      out[shape.key] = true;
  }
  return out;
}

function optionValue(o: OptionSpec, shape: OptionShape, raw: string | undefined): unknown {
  if (shape.value === 'none') return !shape.negated;
  if (raw === undefined) return REFUSED;
  if (o.choices && !o.choices.includes(raw)) return REFUSED;
  if (!o.parse) return raw;
  try {
    return o.parse(raw);
  } catch {
    return REFUSED;
  }
}

/** The action's positional values (an array for a variadic last one), or null on a wrong count. */
function positionalValues(spec: CommandSpec, given: string[]): unknown[] | null {
  const args = spec.args ?? [];
  const out: unknown[] = [];
  for (let i = 0; i < args.length; i += 1) {
    const name = (args[i] as { name: string }).name;
    const required = name.startsWith('<');
    if (name.endsWith('...>') || name.endsWith('...]')) {
      const rest = given.slice(i);
      if (required && rest.length === 0) return null;
      out.push(rest);
      return out;
    }
    const value = given[i];
    if (value === undefined && required) return null;
    out.push(value);
  }
  return given.length > args.length ? null : out;
}
