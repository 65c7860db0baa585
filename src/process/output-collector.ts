import { StringDecoder } from 'node:string_decoder';

/** What the runner needs from one captured stream (stdout or stderr). */
export interface OutputCollector {
  /** Feeds one raw chunk from the pipe. */
  push(chunk: Buffer): void;
  /** Flushes the decoders and the last partial line; call once, after the stream ended. */
  finish(): void;
  /** The kept text: the first `maxBytes` bytes, cut on a character boundary when truncated. */
  text(): string;
  /** Every byte seen, kept or not. */
  readonly bytes: number;
  /** True when more than `maxBytes` bytes arrived. */
  readonly truncated: boolean;
}

/** Options of `createOutputCollector`. */
export interface OutputCollectorOptions {
  maxBytes: number;
  /** Every decoded piece of text, all of it (the cap only limits what is kept in memory). */
  onText?: ((text: string) => void) | undefined;
  /** Complete lines without the `\n`; the last partial line comes from `finish()`. */
  onLine?: ((line: string) => void) | undefined;
  /** A callback threw; the collector goes on so the child is still drained. */
  onCallbackError: (err: unknown) => void;
}

/**
 * Captures one output stream of a child: counts every byte, keeps the first `maxBytes`, and hands
 * decoded text and lines to callbacks.
 *
 * Why two decoders: the streaming callbacks must see all output decoded across chunk boundaries
 * (a CJK character or an emoji often straddles two reads), while the kept copy stops at the cap and
 * must not end in half a character. Each `StringDecoder` holds back an incomplete sequence until the
 * next chunk completes it.
 *
 * @example
 *   const out = createOutputCollector({ maxBytes: 1024, onLine: (l) => parse(l), onCallbackError: note });
 *   child.stdout.on('data', (c) => out.push(c)); child.on('close', () => out.finish());
 */
export function createOutputCollector(options: OutputCollectorOptions): OutputCollector {
  const { maxBytes, onText, onLine, onCallbackError } = options;
  const keepDecoder = new StringDecoder('utf8');
  const streamDecoder = onText || onLine ? new StringDecoder('utf8') : null;
  const kept: string[] = [];
  let keptBytes = 0;
  let bytes = 0;
  let partialLine = '';
  let finished = false;

  const call = <T>(fn: ((value: T) => void) | undefined, value: T): void => {
    if (!fn) return;
    try {
      fn(value);
    } catch (err) {
      onCallbackError(err);
    }
  };

  const emit = (text: string): void => {
    if (text.length === 0) return;
    call(onText, text);
    if (!onLine) return;
    let start = 0;
    let nl = text.indexOf('\n');
    if (nl < 0) {
      partialLine += text;
      return;
    }
    while (nl >= 0) {
      const line = partialLine + text.slice(start, nl);
      partialLine = '';
      call(onLine, line);
      start = nl + 1;
      nl = text.indexOf('\n', start);
    }
    partialLine = text.slice(start);
  };

  return {
    push(chunk) {
      if (finished || chunk.length === 0) return;
      bytes += chunk.length;
      const room = maxBytes - keptBytes;
      if (room > 0) {
        const part = chunk.length <= room ? chunk : chunk.subarray(0, room);
        keptBytes += part.length;
        kept.push(keepDecoder.write(part));
      }
      if (streamDecoder) emit(streamDecoder.write(chunk));
    },
    finish() {
      if (finished) return;
      finished = true;
      // When truncated, an incomplete trailing sequence is the cap's doing, not the child's: drop it.
      if (bytes <= maxBytes) kept.push(keepDecoder.end());
      if (streamDecoder) emit(streamDecoder.end());
      if (onLine && partialLine.length > 0) {
        const line = partialLine;
        partialLine = '';
        call(onLine, line);
      }
    },
    text: () => kept.join(''),
    get bytes() {
      return bytes;
    },
    get truncated() {
      return bytes > maxBytes;
    },
  };
}
