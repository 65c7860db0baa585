import fs from 'node:fs';
import path from 'node:path';
import { makePrivateDirSync } from './private-dir.js';
import { redact } from './redact.js';

/** Log levels in increasing severity. */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

/** Where log lines go: a file path (rotated by size) or a writable such as `process.stderr`. */
export type LogSink = { file: string; maxBytes?: number; keep?: number } | { stream: NodeJS.WritableStream };

/**
 * A small structured logger. Every line is redacted (`redact`) before it is written, so a secret
 * passed by mistake in a message or a field never reaches the disk. Children share the sink and
 * add a `scope` (the room or component) to every line.
 */
export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
  child(scope: string): Logger;
}

interface SinkWriter {
  write(line: string): void;
}

function fileWriter(file: string, maxBytes: number, keep: number): SinkWriter {
  makePrivateDirSync(path.dirname(file), { leaveExisting: true });
  let size = 0;
  try {
    size = fs.statSync(file).size;
  } catch {
    size = 0;
  }
  return {
    write(line) {
      if (size + line.length > maxBytes) {
        for (let i = keep - 1; i >= 1; i -= 1) {
          try {
            fs.renameSync(i === 1 ? file : `${file}.${i - 1}`, `${file}.${i}`);
          } catch {
            /* a missing generation is fine */
          }
        }
        size = 0;
      }
      try {
        fs.appendFileSync(file, line, { mode: 0o600 });
        size += Buffer.byteLength(line);
      } catch {
        // A log line that cannot be written (the folder was removed, the disk is full) is dropped:
        // logging must never be what fails the work it reports on.
      }
    },
  };
}

function serializeFields(fields: Record<string, unknown> | undefined): string {
  if (!fields || Object.keys(fields).length === 0) return '';
  const plain: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(fields)) {
    plain[k] = v instanceof Error ? { name: v.name, message: v.message, code: (v as { code?: unknown }).code } : v;
  }
  try {
    return ` ${JSON.stringify(plain)}`;
  } catch {
    return ' {"fields":"[unserializable]"}';
  }
}

/** Creates a logger. The default sink is stderr so that stdout stays clean for command output. */
export function createLogger(options: { level?: LogLevel; sink?: LogSink; scope?: string } = {}): Logger {
  const min = ORDER[options.level ?? 'info'];
  const sink = options.sink ?? { stream: process.stderr };
  const writer: SinkWriter =
    'file' in sink
      ? fileWriter(sink.file, sink.maxBytes ?? 10 * 1024 * 1024, sink.keep ?? 3)
      : { write: (line) => sink.stream.write(line) };
  const make = (scope: string | undefined): Logger => {
    const emit = (level: LogLevel, msg: string, fields?: Record<string, unknown>) => {
      if (ORDER[level] < min) return;
      const line = `${new Date().toISOString()} ${level.toUpperCase()}${scope ? ` [${scope}]` : ''} ${msg}${serializeFields(fields)}\n`;
      writer.write(redact(line));
    };
    return {
      debug: (m, f) => emit('debug', m, f),
      info: (m, f) => emit('info', m, f),
      warn: (m, f) => emit('warn', m, f),
      error: (m, f) => emit('error', m, f),
      child: (s) => make(scope ? `${scope}.${s}` : s),
    };
  };
  return make(options.scope);
}

/** A logger that drops everything; for tests and library callers that do not care. */
export const silentLogger: Logger = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
  child: () => silentLogger,
};
