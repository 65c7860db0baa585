import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { makePrivateDir } from '../core/private-dir.js';
import { redact } from '../core/redact.js';
import type { ToolCallDecision } from './chat-states.js';
import type { ToolCallRecord } from './tool-loop.js';

/**
 * One line of `~/.cc-linker/ccexec/audit.jsonl`, so the user can look back at what the AI ran, when,
 * and what came back (`cc-linker chat --history`, the console). Derived from the loop's
 * `ToolCallRecord` plus its `AuditContext`. The output itself is never stored, only its size and
 * SHA-256; every string the model supplied passes through `redact`.
 *
 * @example {"time":"2026-11-30T09:21:49.000Z","provider":"openai","model":"gpt-4o-mini","chat":"…","call":"call_1","command":"note","args":["list","--limit","20"],"decision":"allowed","exit":0,"durationMs":231,"bytes":180,"stdoutSha256":"9f…"}
 */
export interface AuditRecord {
  readonly time: string;
  readonly provider: string;
  readonly model: string;
  /** The chat session id. */
  readonly chat: string;
  /** The model's tool call id. */
  readonly call: string;
  /** The first word (`note`), or the tool name when the arguments could not be read. */
  readonly command: string;
  readonly args: readonly string[];
  readonly decision: ToolCallDecision;
  readonly exit: number;
  readonly durationMs: number;
  /** UTF-8 size of the (log-stripped) stdout. */
  readonly bytes: number;
  readonly stdoutSha256: string;
  readonly reason?: string;
}

/** Whose call a record is: the model that asked and the chat it was asked in. */
export interface AuditContext {
  readonly provider: string;
  readonly model: string;
  /** The chat session id. */
  readonly chat: string;
  /** Defaults to now. */
  readonly time?: Date;
}

/** The audit file of one installation. */
export interface AuditLog {
  readonly file: string;
  /** Appends one record (dir 0700, file 0600, never through a symlink). */
  append(call: ToolCallRecord, context: AuditContext): Promise<void>;
  read(options?: { limit?: number }): Promise<AuditRecord[]>;
}

const READ_CHUNK = 64 * 1024;
const DEFAULT_LIMIT = 50;

/** Opens (lazily creates) the audit log at `file` — normally `paths.auditFile`. */
export function createAuditLog(file: string): AuditLog {
  return {
    file,
    async append(call, context) {
      const line = `${JSON.stringify(toRecord(call, context))}\n`;
      const dir = path.dirname(file);
      await makePrivateDir(dir);
      // O_NOFOLLOW: a symlink planted at the audit path is refused, never written through.
      const handle = await fs.promises.open(
        file,
        fs.constants.O_WRONLY | fs.constants.O_APPEND | fs.constants.O_CREAT | fs.constants.O_NOFOLLOW,
        0o600,
      );
      try {
        const stat = await handle.stat();
        if ((stat.mode & 0o777) !== 0o600) await handle.chmod(0o600);
        await handle.write(line);
      } finally {
        await handle.close();
      }
    },
    read: (options) => readAudit(file, options),
  };
}

/**
 * The newest `limit` records (default 50), oldest first, read from the end of the file so a long
 * history costs no more than the lines returned. A missing file is an empty history; unreadable
 * lines (a torn write) are skipped.
 */
export async function readAudit(file: string, options: { limit?: number } = {}): Promise<AuditRecord[]> {
  const limit = Math.max(0, options.limit ?? DEFAULT_LIMIT);
  if (limit === 0) return [];
  let handle: fs.promises.FileHandle;
  try {
    handle = await fs.promises.open(file, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
  try {
    const size = (await handle.stat()).size;
    let position = size;
    let tail = Buffer.alloc(0);
    // Read backwards until the tail holds more than `limit` line breaks (or the whole file).
    while (position > 0 && countNewlines(tail) <= limit) {
      const length = Math.min(READ_CHUNK, position);
      position -= length;
      const chunk = Buffer.alloc(length);
      await handle.read(chunk, 0, length, position);
      tail = Buffer.concat([chunk, tail]);
    }
    const lines = tail.toString('utf8').split('\n');
    if (position > 0) lines.shift(); // the first line may be cut in the middle
    const records: AuditRecord[] = [];
    for (const line of lines) {
      if (line.trim() === '') continue;
      try {
        records.push(JSON.parse(line) as AuditRecord);
      } catch {
        // skip a torn line
      }
    }
    return records.slice(-limit);
  } finally {
    await handle.close();
  }
}

function toRecord(call: ToolCallRecord, context: AuditContext): AuditRecord {
  const [command, ...args] = call.argv ?? [call.name];
  return {
    time: (context.time ?? new Date()).toISOString(),
    provider: context.provider,
    model: context.model,
    chat: context.chat,
    call: redact(call.callId),
    command: redact(command ?? call.name),
    args: args.map(redact),
    decision: call.decision,
    exit: call.exitCode,
    durationMs: Math.round(call.durationMs),
    bytes: Buffer.byteLength(call.stdout),
    stdoutSha256: createHash('sha256').update(call.stdout).digest('hex'),
    ...(call.reason !== undefined ? { reason: redact(call.reason) } : {}),
  };
}

function countNewlines(buffer: Buffer): number {
  let n = 0;
  for (let i = buffer.indexOf(10); i !== -1; i = buffer.indexOf(10, i + 1)) n++;
  return n;
}
