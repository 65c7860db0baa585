import { Command } from 'commander';
import { COMMAND_LOADERS, loadCommandSpecs } from './command-loaders.js';
import { readPackageVersion } from './package-version.js';
import { registerSpec } from './register-spec.js';

const VERSION_FLAGS = new Set(['-V', '--version']);

/**
 * Builds the `cc-linker` commander program for `argv` (`process.argv`: node, script, words…).
 * Which command modules are loaded is the only thing decided before commander parses: when the
 * first word is a command's name, only that command's module (a cold `cc-linker list` loads no
 * other command); for `-V`/`--version` none; for anything else (`--help`, `help list`, a typo
 * commander should correct) all of them. Commander then reads the whole line, so help, usage
 * errors and suggestions are always its own.
 */
export async function buildProgram(argv: readonly string[] = process.argv): Promise<Command> {
  const program = new Command();
  program
    .name('cc-linker')
    .description('Reach the Claude Code sessions on this machine from Feishu/Lark or a local web console.')
    .version(readPackageVersion(), '-V, --version')
    .showHelpAfterError('(run with --help for usage)')
    .configureHelp({ sortSubcommands: false });
  const first = argv[2];
  if (first !== undefined && VERSION_FLAGS.has(first)) return program;
  const only = first !== undefined && COMMAND_LOADERS.some(([name]) => name === first) ? [first] : undefined;
  for (const spec of await loadCommandSpecs(only)) registerSpec(program, spec);
  return program;
}
