import type { Config } from '../core/config-schema.js';
import type { Language } from '../core/i18n.js';
import { createLogger, type Logger } from '../core/logger.js';
import { loadConfig } from '../core/config.js';
import { resolvePaths, type Paths } from '../core/paths.js';
import type { Output } from './output.js';

/** Everything a command needs, resolved once: where things live, the config, the language, output. */
export interface CliContext {
  paths: Paths;
  config: Config;
  warnings: string[];
  lang: Language;
  logger: Logger;
  out: Output;
  env: NodeJS.ProcessEnv;
  /** Injected clock, so golden tests of relative times ("3 分钟前") are stable. */
  now: () => Date;
}

/**
 * Loads paths and config for a command. Config warnings (unknown keys) are printed once on stderr;
 * a fatal config problem throws a `ConfigError`, which `withContext` turns into one line and exit 78.
 * The logger writes to stderr at `warn` for terminal commands (the log file is for `start`).
 */
export async function loadCliContext(options: { env?: NodeJS.ProcessEnv; out: Output; now?: () => Date }): Promise<CliContext> {
  const env = options.env ?? process.env;
  const paths = resolvePaths(env);
  const { config, warnings } = await loadConfig({ paths, env });
  for (const w of warnings) options.out.progress(`⚠️  ${w}`);
  const logLevel = env.CC_LINKER_LOG_LEVEL ? config.general.log_level : 'warn';
  return {
    paths,
    config,
    warnings,
    lang: config.general.language,
    logger: createLogger({ level: logLevel, sink: { stream: process.stderr } }),
    out: options.out,
    env,
    now: options.now ?? (() => new Date()),
  };
}
