import type { DirSafetyOptions } from './dir-safety.js';
import type { CommandContext } from './command-context.js';

/**
 * The directory-safety settings of this user's request: `security.allowed_roots` /
 * `denied_roots` from the config, `~` = the user's home. `base` resolves relative input (the
 * folder /listDir is showing).
 */
export function dirPolicy(ctx: Pick<CommandContext, 'config' | 'paths' | 'lang'>, base?: string): DirSafetyOptions {
  const policy: DirSafetyOptions = {
    allowedRoots: ctx.config.security.allowed_roots,
    deniedRoots: ctx.config.security.denied_roots,
    home: ctx.paths.userHome,
    lang: ctx.lang,
  };
  if (base !== undefined) policy.base = base;
  return policy;
}
