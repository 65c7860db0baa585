import fs from 'node:fs';
import { readJsonlLinesSync, type LineView } from '../read-jsonl-lines.js';
import { scanReadBuffer } from '../scan-jsonl.js';

/** What one pass over a JSONL file saw, for the health of its summary. */
export interface JsonLinesPass {
  /** Lines that are JSON objects. */
  objects: number;
  /** Lines that are not (a partial last line, still being written, is not counted). */
  invalid: number;
  /** Lines over the line limit: skipped unread. */
  overLong: number;
}

/**
 * Calls `each` with every line of `file` that is a JSON object, in order, reading synchronously
 * into the scanner's shared buffer with bounded memory (`readJsonlLines`: an over-long line is
 * skipped, never collected). Returning `false` from `each` stops the pass. Throws when the file
 * cannot be opened or read.
 */
export function forEachJsonLine(
  file: string,
  each: (value: Record<string, unknown>) => boolean | void,
  opts: { maxLineBytes?: number; size?: number } = {},
): JsonLinesPass {
  const pass: JsonLinesPass = { objects: 0, invalid: 0, overLong: 0 };
  const stop = { aborted: false };
  const fd = fs.openSync(file, fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0));
  try {
    readJsonlLinesSync(
      fd,
      {
        line(l: LineView) {
          if (stop.aborted) return;
          if (l.truncated) {
            pass.overLong += 1;
            return;
          }
          let v: unknown;
          try {
            v = JSON.parse(l.buf.toString('utf8', l.start, l.end));
          } catch {
            if (!l.last) pass.invalid += 1;
            return;
          }
          if (typeof v !== 'object' || v === null || Array.isArray(v)) {
            pass.invalid += 1;
            return;
          }
          pass.objects += 1;
          if (each(v as Record<string, unknown>) === false) stop.aborted = true;
        },
      },
      { buffer: scanReadBuffer(), maxLineBytes: opts.maxLineBytes, size: opts.size, signal: stop },
    );
  } finally {
    fs.closeSync(fd);
  }
  return pass;
}

/** `v` as an object, or null. */
export function asObject(v: unknown): Record<string, unknown> | null {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
}

/** `v` when it is a string, else null. */
export function asString(v: unknown): string | null {
  return typeof v === 'string' ? v : null;
}
