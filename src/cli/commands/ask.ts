import type { Logger } from '../../core/logger.js';
import type { ChatRunResult } from '../../ccexec/chat-session.js';
import type { Gateway } from '../../ccexec/create-gateway.js';
import type { CliContext } from '../context/cli-context.js';
import type { CommandSpec } from './command-spec.js';
import { chatMessages, createChatPrinter, type RawWrite } from './chat-render.js';

/** `--provider` / `--model` of `ask` and `chat`. */
export interface ChatCommandOptions {
  provider?: string;
  model?: string;
}

/** Exit codes: answered, failed, cancelled by Ctrl-C (128 + SIGINT). */
export const EXIT_ANSWERED = 0;
export const EXIT_FAILED = 1;
export const EXIT_CANCELLED = 130;

/**
 * `cc-linker ask "<question>" [--provider <id>] [--model <name>]` — one question to the cc_exec
 * gateway. The answer goes to stdout, states and tool cards to stderr, so
 * `cc-linker ask "列一下最近的笔记" > answer.txt` captures the answer only. Ctrl-C cancels the
 * question (the running CLI's whole process group is killed) and exits 130.
 */
export const askCommand: CommandSpec = {
  name: 'ask',
  description: 'Ask the cc_exec gateway one question about your ChainlessChain data',
  args: [{ name: '<question...>', description: 'the question (quote it, or give it as several words)' }],
  options: [
    {
      flags: '--provider <id>',
      description: 'model service from [ccexec.providers] (default: ccexec.default_provider)',
    },
    { flags: '--model <name>', description: 'model name (default: the provider’s model)' },
  ],
  action: async (ctx, words: string[], opts: ChatCommandOptions) => {
    const gateway = await openGateway(ctx);
    const target = targetOf(opts);
    const chat = gateway.newChat(target);
    const availability = await gateway.availability(target);
    if (availability.status !== 'available') ctx.out.progress(availability.reason);
    const controller = new AbortController();
    const onSigint = (): void => {
      if (controller.signal.aborted) return;
      ctx.out.progress(chatMessages(ctx.lang)('cancelling'));
      controller.abort();
    };
    process.on('SIGINT', onSigint);
    try {
      const result = await chat.run(words.join(' '), {
        signal: controller.signal,
        onEvent: createChatPrinter(ctx.out, ctx.lang, liveWriter(ctx)).onEvent,
      });
      return exitCodeOf(result);
    } finally {
      process.off('SIGINT', onSigint);
      await gateway.flushed();
    }
  },
};

/**
 * The gateway for a command, loaded lazily so other commands start fast. The CLI's probed version is
 * kept in `paths.ccexecVersionFile`, so a question does not start the CLI just to read its version.
 * `logger` replaces the command's own (`doctor` passes a silent one: its check line says it all).
 */
export async function openGateway(ctx: CliContext, logger: Logger = ctx.logger): Promise<Gateway> {
  const [{ createGateway }, { cliVersionFile }] = await Promise.all([
    import('../../ccexec/create-gateway.js'),
    import('./cli-version-file.js'),
  ]);
  return createGateway({
    config: ctx.config,
    paths: ctx.paths,
    env: ctx.env,
    lang: ctx.lang,
    logger,
    versionStore: cliVersionFile(ctx.paths.ccexecVersionFile),
  });
}

/** `{provider, model}` without empty values. */
export function targetOf(opts: ChatCommandOptions): { provider?: string; model?: string } {
  return { ...(opts.provider ? { provider: opts.provider } : {}), ...(opts.model ? { model: opts.model } : {}) };
}

/**
 * Streams the answer when both stdout and our progress stream are terminals (a person watching);
 * otherwise undefined and the answer is printed once at the end. In-process tests use a memory
 * `Output` (not a TTY), so they always get the captured, non-streamed form.
 */
export function liveWriter(ctx: CliContext): RawWrite | undefined {
  return ctx.out.isTTY && process.stdout.isTTY ? (text) => void process.stdout.write(text) : undefined;
}

/** The process exit code for a finished question: 0 answered, 130 cancelled, 1 failed. */
export function exitCodeOf(result: ChatRunResult): number {
  return result.state === 'COMPLETE' ? EXIT_ANSWERED : result.state === 'CANCELLED' ? EXIT_CANCELLED : EXIT_FAILED;
}
