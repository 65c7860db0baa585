import readline from 'node:readline';
import { isAppError } from '../../core/app-error.js';
import type { CommandSpec } from './command-spec.js';
import { openGateway, targetOf, liveWriter, type ChatCommandOptions } from './ask.js';
import { chatHistoryCommand } from './chat-history.js';
import { chatMessages, createChatPrinter } from './chat-render.js';

/** Where the REPL reads questions and writes its prompt; tests pass streams. */
export interface ChatReplIo {
  readonly input?: NodeJS.ReadableStream;
  /** Prompt and echo; stderr by default so stdout carries answers only. */
  readonly output?: NodeJS.WritableStream;
}

const EXIT_WORDS = new Set(['/exit', '/quit', 'exit', 'quit']);

/**
 * `cc-linker chat [--provider <id>] [--model <name>]` — a REPL over one cc_exec conversation,
 * plus `cc-linker chat history`. Each line is a question; the conversation is kept between
 * questions. Ctrl-C while a question runs cancels it (the running CLI's group is killed) and returns
 * to the prompt; Ctrl-C at the prompt asks for a second one, which quits; `/exit` or end of input quits.
 * Lines typed while an answer runs are queued and answered in order.
 */
export function chatCommand(io: ChatReplIo = {}): CommandSpec {
  return {
    name: 'chat',
    description: 'Chat with the cc_exec gateway about your ChainlessChain data (REPL); see also `chat history`',
    options: [
      {
        flags: '--provider <id>',
        description: 'model service from [ccexec.providers] (default: ccexec.default_provider)',
      },
      { flags: '--model <name>', description: 'model name (default: the provider’s model)' },
    ],
    subcommands: [chatHistoryCommand],
    action: async (ctx, opts: ChatCommandOptions) => {
      const t = chatMessages(ctx.lang);
      const gateway = await openGateway(ctx);
      const target = targetOf(opts);
      const session = gateway.newChat(target);
      const availability = await gateway.availability(target);
      ctx.out.progress(t('header', { provider: session.provider.id, model: session.provider.model }));
      ctx.out.progress(availability.reason);
      ctx.out.progress(t('replHelp'));

      const input = io.input ?? process.stdin;
      const rl = readline.createInterface({
        input,
        output: io.output ?? process.stderr,
        terminal: (input as { isTTY?: boolean }).isTTY === true,
      });
      rl.setPrompt(t('prompt'));
      let armed = false; // one Ctrl-C at the prompt seen
      const onInterrupt = (): void => {
        if (session.running) {
          ctx.out.progress(t('cancelling'));
          session.cancel();
          return;
        }
        if (armed) {
          rl.close();
          return;
        }
        armed = true;
        ctx.out.progress(t('pressAgain'));
        rl.prompt();
      };
      rl.on('SIGINT', onInterrupt);
      const lines = lineQueue(rl);
      // Not a terminal: readline sees no Ctrl-C keypress, the process gets the signal instead.
      const viaProcess = !rl.terminal;
      if (viaProcess) process.on('SIGINT', onInterrupt);
      const printer = createChatPrinter(ctx.out, ctx.lang, liveWriter(ctx));
      let failures = 0;
      try {
        rl.prompt();
        for (let raw = await lines.next(); raw !== null; raw = await lines.next()) {
          armed = false;
          const line = raw.trim();
          if (EXIT_WORDS.has(line)) break;
          if (line !== '') {
            try {
              const result = await session.run(line, { onEvent: printer.onEvent });
              if (result.state === 'FAILED') failures++;
            } catch (err) {
              if (!isAppError(err)) throw err;
              ctx.out.progress(t('failed', { message: err.userMessage }));
            }
          }
          if (!lines.closed) rl.prompt();
        }
      } finally {
        if (viaProcess) process.off('SIGINT', onInterrupt);
        rl.close();
        // A terminal stdin left reading keeps the process alive.
        input.pause();
        await gateway.flushed();
      }
      return failures > 0 ? 1 : 0;
    },
  };
}

/**
 * Lines of `rl` one at a time, `null` once input ended or the REPL was closed: lines that arrive while
 * an answer runs wait their turn, and a close (Ctrl-C twice, end of input) ends the loop after them.
 */
function lineQueue(rl: readline.Interface): { next(): Promise<string | null>; readonly closed: boolean } {
  const queued: string[] = [];
  let closed = false;
  let wake: (() => void) | null = null;
  const notify = (): void => {
    wake?.();
    wake = null;
  };
  rl.on('line', (line) => {
    queued.push(line);
    notify();
  });
  rl.on('close', () => {
    closed = true;
    notify();
  });
  return {
    get closed() {
      return closed;
    },
    async next() {
      while (queued.length === 0 && !closed) await new Promise<void>((resolve) => (wake = resolve));
      return queued.shift() ?? null;
    },
  };
}
