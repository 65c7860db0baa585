import type { Command } from 'commander';
import { registerCleanCommand } from './clean.js';
import { registerDoctorCommand } from './doctor.js';
import { registerExportCommand } from './export.js';
import { registerHookCommand } from './hook.js';
import { registerInitCommand } from './init.js';
import { registerListCommand } from './list.js';
import { registerRepairCommand } from './repair.js';
import { registerResumeCommand } from './resume.js';
import { registerSearchCommand } from './search.js';
import { registerShowCommand } from './show.js';
import { registerStatusCommand } from './status.js';
import { registerSyncCommand } from './sync.js';

/**
 * Registers the terminal session commands in the design's order (§2.2): init, list, resume, show,
 * sync, search, export, clean, status, then repair, hook, doctor. Each module is small and imports
 * its heavy dependencies inside its action, so registering them all costs almost nothing.
 */
export function registerSessionCommands(program: Command): void {
  registerInitCommand(program);
  registerListCommand(program);
  registerResumeCommand(program);
  registerShowCommand(program);
  registerSyncCommand(program);
  registerSearchCommand(program);
  registerExportCommand(program);
  registerCleanCommand(program);
  registerStatusCommand(program);
  registerRepairCommand(program);
  registerHookCommand(program);
  registerDoctorCommand(program);
}
