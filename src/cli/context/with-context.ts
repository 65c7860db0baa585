import { isAppError } from '../../core/app-error.js';
import type { Language } from '../../core/i18n.js';
import { redact } from '../../core/redact.js';
import { loadCliContext, type CliContext } from './cli-context.js';
import { processOutput, type Output } from './output.js';

/** Overrides for running commands in-process (tests): environment, output sink and clock. */
export interface CliRuntime {
  env?: NodeJS.ProcessEnv;
  out?: Output;
  now?: () => Date;
  /** Receives the exit code instead of setting `process.exitCode`. */
  setExitCode?: (code: number) => void;
}

let runtime: CliRuntime = {};

/** Installs in-process overrides (tests call this before `program.parseAsync`). */
export function setCliRuntime(next: CliRuntime): void {
  runtime = next;
}

/**
 * Wraps a command action: loads the context, runs the action, and turns any `AppError` into one
 * line on stderr with its exit code — never a stack trace. Unexpected errors print a short
 * "internal error" line (redacted) and exit 70; set `CC_LINKER_DEBUG=1` to see the stack.
 */
export function withContext<A extends unknown[]>(
  fn: (ctx: CliContext, ...args: A) => Promise<number | void>,
  options: { survivesBadConfig?: boolean } = {},
): (...args: A) => Promise<void> {
  return async (...args: A) => {
    const out = runtime.out ?? processOutput();
    const setExit = runtime.setExitCode ?? ((code: number) => (process.exitCode = code));
    let lang: Language | undefined;
    try {
      const ctx = await loadCliContext({
        env: runtime.env,
        out,
        now: runtime.now,
        survivesBadConfig: options.survivesBadConfig,
      });
      lang = ctx.lang;
      const code = await fn(ctx, ...args);
      setExit(typeof code === 'number' ? code : 0);
    } catch (err) {
      if (isAppError(err)) {
        // A message may hold several problems, one a line (e.g. every bad config key): mark each.
        out.progress(
          redact(lang ? err.localize(lang) : err.userMessage)
            .split('\n')
            .map((line) => `✖ ${line}`)
            .join('\n'),
        );
        setExit(err.exitCode);
        return;
      }
      const env = runtime.env ?? process.env;
      const message = err instanceof Error ? err.message : String(err);
      out.progress(`✖ internal error: ${redact(message)}`);
      if (env.CC_LINKER_DEBUG === '1' && err instanceof Error && err.stack) out.progress(redact(err.stack));
      setExit(70);
    }
  };
}
