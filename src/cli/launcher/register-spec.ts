import { InvalidArgumentError, Option, type Command } from 'commander';
import { OptionValueError, type CommandSpec } from '../commands/command-spec.js';
import { withContext } from '../context/with-context.js';

/**
 * Adds `spec` (and its subcommands) to a commander program: commander then owns `--help`, usage
 * errors and "did you mean" suggestions. The action runs under `withContext` and receives the
 * context, the positionals and the options merged with those of parent commands (`chat --provider
 * x history`) — never the commander object, so a command module does not depend on commander.
 */
export function registerSpec(parent: Command, spec: CommandSpec): Command {
  const cmd = parent.command(spec.name).description(spec.description);
  for (const a of spec.args ?? []) cmd.argument(a.name, a.description);
  for (const o of spec.options ?? []) {
    const opt = new Option(o.flags, o.description);
    if (o.choices) opt.choices(o.choices);
    const parse = o.parse;
    if (parse)
      opt.argParser((value: string) => {
        try {
          return parse(value);
        } catch (err) {
          if (err instanceof OptionValueError) throw new InvalidArgumentError(err.message);
          throw err;
        }
      });
    if (o.default !== undefined) opt.default(o.default);
    cmd.addOption(opt);
  }
  for (const sub of spec.subcommands ?? []) registerSpec(cmd, sub);
  const action = spec.action;
  if (action) {
    const run = withContext(action, { survivesBadConfig: spec.survivesBadConfig });
    cmd.action(async (...values: unknown[]) => {
      const command = values.at(-1) as Command;
      await run(...values.slice(0, -2), command.optsWithGlobals());
    });
  }
  return cmd;
}
