import fs from 'node:fs';

/** Bytes of the start and of the end of a line kept when the line is longer than `maxLineBytes`. */
export const LONG_LINE_WINDOW = 4096;

/** Default read size; also the largest line handled without copying. */
export const DEFAULT_CHUNK = 1024 * 1024;

/**
 * Where bytes come from: the next bytes of the file into `buf[offset, offset+length)`, returning
 * how many were read (0 at the end). Sync (`fs.readSync`) or async (`FileHandle.read`).
 */
export type ByteSource = (buf: Buffer, offset: number, length: number) => number | Promise<number>;

/** A `ByteSource` reading an open fd sequentially with `fs.readSync`. */
export function fdSource(fd: number): ByteSource {
  return (buf, offset, length) => fs.readSync(fd, buf, offset, length, null);
}

/** A `ByteSource` reading an open `FileHandle` sequentially. */
export function handleSource(fh: fs.promises.FileHandle): ByteSource {
  return async (buf, offset, length) => (await fh.read(buf, offset, length, null)).bytesRead;
}

/** Options of `readJsonlLines`. */
export interface ReadLinesOptions {
  /** A reusable read buffer (its length is the chunk size, ≥ 64 KiB); one is allocated otherwise. */
  buffer?: Buffer;
  /**
   * Longest line delivered whole (default 8 MiB). A longer line is never buffered: the sink gets
   * only its first and last `LONG_LINE_WINDOW` bytes, with `truncated: true`, so one 2 GB line costs
   * no more memory than a short one.
   */
  maxLineBytes?: number;
  /** The file size when known: reading stops there without an extra end-of-file read. */
  size?: number;
  /** Stops reading between chunks once `aborted` (an `AbortSignal`, or any object with that flag). */
  signal?: { readonly aborted: boolean };
}

/**
 * One line as a view into a shared buffer: `buf[start, end)`, without the newline (and without a
 * trailing `\r`). The object and the view are only valid during the call (both are reused); copy
 * what you keep. `truncated` means the middle of an over-long line is missing (see
 * `maxLineBytes`); `last` marks a final line that had no newline (possibly still being written).
 * Blank lines are not delivered.
 */
export interface LineView {
  buf: Buffer;
  start: number;
  end: number;
  /** Byte offset of the line in the file. */
  offset: number;
  /** Real length of the line in the file (larger than `end - start` when truncated). */
  length: number;
  truncated: boolean;
  last: boolean;
}

/** Counts from one pass over a file. */
export interface ReadLinesStats {
  lines: number;
  bytes: number;
  truncatedLines: number;
}

/**
 * Streams the lines of a JSONL file to `sink` with bounded memory: the file is read in chunks
 * into one (reusable) buffer and split with a native newline search; lines are passed as buffer
 * views (no string is made unless the sink asks for one), and an over-long line is reduced to its
 * two ends instead of being collected.
 *
 * Why not `readline`: on a 500 MB session tree it is ~10x slower than this loop (it decodes every
 * byte to a string) and it buffers a whole line however long it is. With a sync source (`fdSource`)
 * a pass costs about what `wc -l` costs; `readJsonlLinesSync` is the same pass without a promise.
 *
 * @example
 *   await readJsonlLines(fdSource(fd), (l) => { if (l.buf[l.start] === 0x7b) JSON.parse(l.buf.toString('utf8', l.start, l.end)); });
 */
export async function readJsonlLines(
  source: ByteSource,
  sink: (line: LineView) => void,
  options: ReadLinesOptions = {},
): Promise<ReadLinesStats> {
  const split = new LineSplitter({ line: sink }, options);
  while (!options.signal?.aborted) {
    let got = split.atKnownEnd() ? 0 : source(split.buf, split.fill, split.buf.length - split.fill);
    if (typeof got !== 'number') got = await got;
    if (split.take(got)) break;
  }
  return split.stats;
}

/** Takes lines one by one (see `readJsonlLinesSync`). */
export interface LineSink {
  line(l: LineView): void;
}

/**
 * `readJsonlLines` over an open file descriptor, read synchronously, without a promise or a
 * closure per file: the scanner reads thousands of small session files in a row, and for those
 * the async form's per-file overhead is a measurable part of `init`. The sink is an object so
 * that the per-line call stays monomorphic (and inlined) across files.
 *
 * @example
 *   readJsonlLinesSync(fd, summary, { buffer, size: stat.size });
 */
export function readJsonlLinesSync(fd: number, sink: LineSink, options: ReadLinesOptions = {}): ReadLinesStats {
  const split = new LineSplitter(sink, options);
  while (!options.signal?.aborted) {
    if (
      split.take(split.atKnownEnd() ? 0 : fs.readSync(fd, split.buf, split.fill, split.buf.length - split.fill, null))
    )
      break;
  }
  return split.stats;
}

/**
 * The state of one pass: bytes `[0, fill)` of `buf` are read and not yet delivered (the start of
 * an unfinished line); `take` gets the next bytes read at `fill` and delivers the lines they end.
 */
class LineSplitter {
  readonly buf: Buffer;
  fill = 0;
  readonly stats: ReadLinesStats = { lines: 0, bytes: 0, truncatedLines: 0 };
  /** File offset of buf[0]. */
  private fileOffset = 0;
  private readonly maxLine: number;
  private readonly size: number | undefined;
  private readonly view: LineView;
  /** A line longer than the buffer: collected parts while <= maxLine, else only its two ends. */
  private long: { parts: Buffer[]; size: number; head: Buffer | null; tail: Buffer; offset: number } | null = null;

  constructor(
    private readonly sink: LineSink,
    options: ReadLinesOptions,
  ) {
    this.buf =
      options.buffer && options.buffer.length >= 64 * 1024 ? options.buffer : Buffer.allocUnsafe(DEFAULT_CHUNK);
    this.maxLine = Math.max(2 * LONG_LINE_WINDOW, options.maxLineBytes ?? 8 * 1024 * 1024);
    this.size = options.size;
    this.view = { buf: this.buf, start: 0, end: 0, offset: 0, length: 0, truncated: false, last: false };
  }

  /** Whether the known file size has been read (no end-of-file read needed). */
  atKnownEnd(): boolean {
    return this.size !== undefined && this.size > 0 && this.fileOffset + this.fill >= this.size;
  }

  /** Takes `got` bytes just read into `buf[fill…]` (0: end of file); true when the pass is over. */
  take(got: number): boolean {
    const buf = this.buf;
    this.stats.bytes += got;
    const eof = got === 0;
    this.fill += got;
    const fill = this.fill;
    let pos = 0;
    // A long line in progress ends at the first newline of this chunk.
    if (this.long) {
      const nl = buf.indexOf(0x0a, 0);
      if (nl < 0 || nl >= fill) {
        if (eof) {
          this.finishLong(Buffer.alloc(0), true);
          return true;
        }
        this.addLongPart(buf.subarray(0, fill));
        this.fileOffset += fill;
        this.fill = 0;
        return false;
      }
      this.finishLong(Buffer.from(buf.subarray(0, nl)), false);
      pos = nl + 1;
    }
    for (;;) {
      const nl = buf.indexOf(0x0a, pos);
      if (nl < 0 || nl >= fill) break;
      if (nl > pos) this.emit(buf, pos, nl, this.fileOffset + pos, nl - pos, false, false);
      pos = nl + 1;
    }
    if (eof) {
      if (fill > pos) this.emit(buf, pos, fill, this.fileOffset + pos, fill - pos, false, true);
      return true;
    }
    // Keep the unfinished line: move it to the front, or start a long line when it fills the buffer.
    const rest = fill - pos;
    if (pos === 0 && rest === buf.length) {
      this.long = { parts: [], size: 0, head: null, tail: Buffer.alloc(0), offset: this.fileOffset };
      this.addLongPart(buf.subarray(0, fill));
      this.fileOffset += fill;
      this.fill = 0;
      return false;
    }
    this.fileOffset += pos;
    this.fill = rest;
    if (rest > 0) buf.copy(buf, 0, pos, fill);
    return false;
  }

  private emit(
    b: Buffer,
    s: number,
    e: number,
    offset: number,
    length: number,
    truncated: boolean,
    last: boolean,
  ): void {
    let end = e;
    if (end > s && b[end - 1] === 0x0d) end -= 1;
    if (end === s && !truncated) return; // a blank line
    this.stats.lines += 1;
    if (truncated) this.stats.truncatedLines += 1;
    const view = this.view;
    view.buf = b;
    view.start = s;
    view.end = end;
    view.offset = offset;
    view.length = length;
    view.truncated = truncated;
    view.last = last;
    this.sink.line(view);
  }

  private addLongPart(part: Buffer): void {
    const long = this.long;
    if (!long) return;
    long.size += part.length;
    if (long.head === null && long.size <= this.maxLine) {
      long.parts.push(Buffer.from(part));
      long.tail = keepTail(long.tail, part);
      return;
    }
    if (long.head === null) {
      long.head = headOf(long.parts, part);
      long.parts = [];
    }
    long.tail = keepTail(long.tail, part);
  }

  private finishLong(lastPart: Buffer, last: boolean): void {
    const long = this.long;
    if (!long) return;
    const size = long.size + lastPart.length;
    if (long.head === null && size <= this.maxLine) {
      const whole = Buffer.concat([...long.parts, lastPart], size);
      this.emit(whole, 0, whole.length, long.offset, size, false, last);
    } else {
      const both = Buffer.concat([long.head ?? headOf(long.parts, lastPart), keepTail(long.tail, lastPart)]);
      this.emit(both, 0, both.length, long.offset, size, true, last);
    }
    this.long = null;
  }
}

/** A copy of the first `LONG_LINE_WINDOW` bytes of `parts` followed by `next`. */
function headOf(parts: Buffer[], next: Buffer): Buffer {
  const first = parts[0] ?? next;
  if (first.length >= LONG_LINE_WINDOW) return Buffer.from(first.subarray(0, LONG_LINE_WINDOW));
  return Buffer.from(Buffer.concat([...parts, next]).subarray(0, LONG_LINE_WINDOW));
}

/** The last `LONG_LINE_WINDOW` bytes of `prev` followed by `next`, copied. */
function keepTail(prev: Buffer, next: Buffer): Buffer {
  if (next.length >= LONG_LINE_WINDOW) return Buffer.from(next.subarray(next.length - LONG_LINE_WINDOW));
  const joined = Buffer.concat([prev, next]);
  return joined.length > LONG_LINE_WINDOW ? Buffer.from(joined.subarray(joined.length - LONG_LINE_WINDOW)) : joined;
}
