import { Command } from 'commander';
import { registerAskCommand } from './commands/ask.js';
import { registerChatCommand } from './commands/chat.js';
import { registerPermissionsCommand } from './commands/permissions.js';
import { registerServiceCommand } from './commands/service.js';
import { registerSessionCommands } from './commands/session-commands.js';
import { registerSetupCommand } from './commands/setup.js';
import { registerStartCommand } from './commands/start.js';
import { registerStopCommand } from './commands/stop.js';
import { readPackageVersion } from './package-version.js';

/**
 * Builds the `cc-linker` commander program. Each command lives in `commands/<name>.ts` and is
 * registered here; command modules import their heavy dependencies lazily inside their actions so
 * `cc-linker list` starts fast.
 */
export function buildProgram(): Command {
  const program = new Command();
  program
    .name('cc-linker')
    .description('Reach the Claude Code sessions on this machine from Feishu/Lark or a local web console.')
    .version(readPackageVersion(), '-V, --version')
    .showHelpAfterError('(run with --help for usage)')
    .configureHelp({ sortSubcommands: false });
  registerSetupCommand(program);
  registerStartCommand(program);
  registerStopCommand(program);
  registerServiceCommand(program);
  registerSessionCommands(program);
  registerPermissionsCommand(program);
  registerAskCommand(program);
  registerChatCommand(program);
  return program;
}
