import type { HookTarget } from '../../sessions/hook/claude-hook.js';
import type { CliContext } from '../context/cli-context.js';

/**
 * The hook target of this install: Claude's settings file, our backup dir, and — when cc-linker
 * runs with a relocated `CC_LINKER_HOME` — that home, so the hook's events land where we read them.
 */
export function hookTargetFor(ctx: Pick<CliContext, 'paths' | 'env'>): HookTarget {
  return {
    settingsFile: ctx.paths.claudeSettingsFile,
    backupDir: ctx.paths.registryBackupDir,
    ccLinkerHome: ctx.env.CC_LINKER_HOME ? ctx.paths.home : undefined,
  };
}
