import { createInterface, type Interface } from 'node:readline/promises';
import { Writable } from 'node:stream';

/** Where questions are read and written. */
export interface PromptIo {
  input: NodeJS.ReadableStream;
  output: NodeJS.WritableStream;
  /**
   * Whether `input` is a terminal. Then readline echoes what is typed (muted while a secret is
   * typed), supports line editing, and turns Ctrl+C into a cancel. Piped or scripted input is read
   * line by line and never echoed.
   */
  terminal: boolean;
}

/** Why no answer came: the input ended (EOF, Ctrl+D) or the user pressed Ctrl+C. */
export type PromptClosedReason = 'eof' | 'interrupt';

/**
 * Asks questions one line at a time over any pair of streams, so the setup wizard runs the same
 * on a terminal and on a test's scripted stream.
 *
 * Lines are read through readline's async iterator, which buffers lines that arrive before a
 * question is asked (a piped answer file is not lost). A secret is read with the echo muted: the
 * output readline writes while the line is typed is dropped, and history is off.
 *
 * @example
 *   const p = new Prompter({ input: process.stdin, output: process.stdout, terminal: true }, () => new Error('closed'));
 *   const id = await p.ask('App ID [cli_…]');
 *   const secret = await p.askSecret('App Secret');
 *   p.close();
 */
export class Prompter {
  private muted = false;
  private interrupted = false;
  private readonly rl: Interface;
  private readonly lines: AsyncIterator<string>;

  constructor(
    private readonly io: PromptIo,
    private readonly closedError: (reason: PromptClosedReason) => Error,
  ) {
    const sink = new Writable({
      write: (chunk: Buffer, _encoding, done) => {
        if (!this.muted) io.output.write(chunk);
        done();
      },
    });
    this.rl = createInterface({ input: io.input, output: sink, terminal: io.terminal, historySize: 0 });
    this.rl.on('SIGINT', () => {
      this.interrupted = true;
      io.output.write('\n');
      this.rl.close();
    });
    this.lines = this.rl[Symbol.asyncIterator]();
  }

  /** Writes a line of explanation between questions. */
  say(text: string): void {
    this.io.output.write(`${text}\n`);
  }

  /** Asks `question` and resolves with the trimmed answer; rejects with `closedError` when input ends. */
  async ask(question: string): Promise<string> {
    return (await this.read(question, false)).trim();
  }

  /** Like `ask`, but nothing typed is echoed. */
  async askSecret(question: string): Promise<string> {
    return (await this.read(question, true)).trim();
  }

  /** Releases the input (a paused stdin lets the process exit). */
  close(): void {
    this.rl.close();
  }

  private async read(question: string, secret: boolean): Promise<string> {
    const prompt = `${question}: `;
    if (this.io.terminal) {
      this.rl.setPrompt(prompt);
      this.rl.prompt();
    } else {
      this.io.output.write(prompt);
    }
    this.muted = secret;
    try {
      const next = await this.lines.next();
      if (next.done) throw this.closedError(this.interrupted ? 'interrupt' : 'eof');
      return next.value;
    } finally {
      this.muted = false;
      // Nothing echoed the Enter key: end the prompt's line ourselves.
      if (secret || !this.io.terminal) this.io.output.write('\n');
    }
  }
}
