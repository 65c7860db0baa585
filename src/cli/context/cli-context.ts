import type { Config } from '../../core/config-schema.js';
import type { Language } from '../../core/i18n.js';
import { createLogger, type Logger } from '../../core/logger.js';
import { loadConfig } from '../../core/config.js';
import { ConfigError } from '../../core/config-error.js';
import { resolvePaths, type Paths } from '../../core/paths.js';
import { tightenPrivateDirSync } from '../../core/private-dir.js';
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
  /**
   * Why the config could not be loaded, for a command that runs anyway (`survivesBadConfig`:
   * `doctor`); `config` is then the embedded defaults. Absent for every other command, which
   * stops on the error instead.
   */
  configError?: ConfigError;
}

/**
 * Loads paths and config for a command. Config warnings (unknown keys) are printed once on stderr;
 * a fatal config problem throws a `ConfigError`, which `withContext` turns into one line and exit 78
 * — except for a command that `survivesBadConfig`, which gets the defaults and `configError`.
 * The logger writes to stderr at `warn` for terminal commands (the log file is for `start`).
 * `~/.cc-linker` is tightened to 0700 first when it exists (a user who made it by hand to write
 * `config.toml` got 0755), so nothing any command writes inside is listable by others.
 */
export async function loadCliContext(options: {
  env?: NodeJS.ProcessEnv;
  out: Output;
  now?: () => Date;
  survivesBadConfig?: boolean;
}): Promise<CliContext> {
  const env = options.env ?? process.env;
  const paths = resolvePaths(env);
  tightenPrivateDirSync(paths.home);
  let loaded: Awaited<ReturnType<typeof loadConfig>>;
  let configError: ConfigError | undefined;
  try {
    loaded = await loadConfig({ paths, env });
  } catch (err) {
    if (!options.survivesBadConfig || !(err instanceof ConfigError)) throw err;
    configError = err;
    // The defaults, with the environment's overrides when those are fine (the language, say).
    loaded = await loadConfig({ paths, env, ignoreFile: true }).catch(() =>
      loadConfig({ paths, env: {}, ignoreFile: true }),
    );
  }
  const { config, warnings } = loaded;
  for (const w of warnings) options.out.progress(`⚠️  ${w}`);
  const logLevel = env.CC_LINKER_LOG_LEVEL ? config.general.log_level : 'warn';
  return {
    paths,
    config,
    warnings,
    lang: config.general.language,
    // stderr is looked up at the first log line, not now: making `process.stderr` costs ≈ 2–3 ms
    // of a start, and most commands never log.
    logger: createLogger({
      level: logLevel,
      sink: {
        get stream() {
          return process.stderr;
        },
      },
    }),
    out: options.out,
    env,
    now: options.now ?? (() => new Date()),
    ...(configError ? { configError } : {}),
  };
}
