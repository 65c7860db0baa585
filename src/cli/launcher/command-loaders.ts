import type { CommandSpec } from '../commands/command-spec.js';

/** A command's name and a loader for its declaration. */
export type CommandLoader = readonly [name: string, load: () => Promise<CommandSpec>];

/**
 * Every top-level `cc-linker` command in `--help` order, with a loader for the module that
 * declares it. Loaders are dynamic imports so a run of `cc-linker list` loads the `list` module
 * and nothing else: module loading is most of a cold start, and a cold `list` should stay within
 * 2.5× of `node -e 0`.
 */
export const COMMAND_LOADERS: readonly CommandLoader[] = [
  ['setup', async () => (await import('../commands/setup.js')).setupCommand],
  ['start', async () => (await import('../commands/start.js')).startCommand],
  ['stop', async () => (await import('../commands/stop.js')).stopCommand],
  ['service', async () => (await import('../commands/service.js')).serviceCommand],
  ['web', async () => (await import('../commands/web.js')).webCommand],
  // The terminal session commands: the registry's life cycle first, then reading, upkeep and checks.
  ['init', async () => (await import('../commands/init.js')).initCommand],
  ['list', async () => (await import('../commands/list.js')).listCommand],
  ['resume', async () => (await import('../commands/resume.js')).resumeCommand],
  ['show', async () => (await import('../commands/show.js')).showCommand],
  ['sync', async () => (await import('../commands/sync.js')).syncCommand],
  ['search', async () => (await import('../commands/search.js')).searchCommand],
  ['export', async () => (await import('../commands/export.js')).exportCommand],
  ['clean', async () => (await import('../commands/clean.js')).cleanCommand],
  ['status', async () => (await import('../commands/status.js')).statusCommand],
  ['repair', async () => (await import('../commands/repair.js')).repairCommand],
  ['hook', async () => (await import('../commands/hook.js')).hookCommand],
  ['doctor', async () => (await import('../commands/doctor.js')).doctorCommand],
  ['permissions', async () => (await import('../commands/permissions.js')).permissionsCommand],
  ['ask', async () => (await import('../commands/ask.js')).askCommand],
  ['chat', async () => (await import('../commands/chat.js')).chatCommand()],
  // Started by cc-linker for its agents (send_file), not by users: last in --help.
  ['mcp', async () => (await import('../commands/mcp.js')).mcpCommand],
];

/** The names of the terminal session commands (`init` … `doctor`), which need no chat platform. */
export const SESSION_COMMANDS = [
  'init',
  'list',
  'resume',
  'show',
  'sync',
  'search',
  'export',
  'clean',
  'status',
  'repair',
  'hook',
  'doctor',
] as const;

/** Loads the declarations of the named commands (all by default), in `--help` order. */
export async function loadCommandSpecs(names?: readonly string[]): Promise<CommandSpec[]> {
  return Promise.all(COMMAND_LOADERS.filter(([name]) => !names || names.includes(name)).map(([, load]) => load()));
}
