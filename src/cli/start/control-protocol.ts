import path from 'node:path';
import type { Paths } from '../../core/paths.js';

/**
 * The daemon's local request socket (docs/design.md, "The session registry"): the write commands
 * that `start` would otherwise refuse (`sync`, `clean`, `repair`) ask the running daemon to do the
 * work, `cc-linker status` asks for its channels' states (`status`), and `cc-linker mcp` forwards an agent's `send_file` calls (`send_file`). One request a connection, each message one JSON line: the client sends a `ControlRequest`,
 * the daemon answers `{"accepted":true}` at once, then one `ControlAnswer` when the work is done.
 */
export type ControlRequest =
  { op: 'sync' } | { op: 'clean' } | { op: 'status' } | { op: 'repair'; id: string } | SendFileControlRequest;

/** The daemon's answer to `status`: its channels' states and its queue (`cc-linker status`). */
export interface DaemonStatusAnswer {
  pid: number;
  channels: Array<{ id: string; connected: boolean; detail?: string }>;
  pending: number;
  processing: number;
  failed: number;
  running: number;
}

/**
 * A `send_file` call of an agent, forwarded by its `cc-linker mcp` (docs/design.md#files-out): the
 * token names the agent child (and so the turn it runs now); the answer's `result` is the
 * `{ ok, text }` the agent reads.
 */
export interface SendFileControlRequest {
  op: 'send_file';
  token: string;
  path: string;
  caption?: string;
}

/** Longest path and caption a `send_file` request carries (a Linux path is at most 4096 bytes). */
export const MAX_SEND_FILE_PATH = 4096;
export const MAX_SEND_FILE_CAPTION = 2000;

/** The work's result, or the error it stopped with, in both languages (the CLI picks the user's). */
export type ControlAnswer =
  { ok: true; result: unknown } | { ok: false; error: { code: string; exitCode: number; zh: string; en: string } };

/** Longest request line the daemon reads (a `send_file` path and caption, JSON-escaped, fit). */
export const MAX_REQUEST_BYTES = 64 * 1024;

/** `runtime/daemon.sock`: in the 0700 runtime folder, itself 0600. */
export function controlSocketPath(paths: Pick<Paths, 'runtimeDir'>): string {
  return path.join(paths.runtimeDir, 'daemon.sock');
}

/** True for a well-formed request. */
export function isControlRequest(v: unknown): v is ControlRequest {
  if (typeof v !== 'object' || v === null) return false;
  const r = v as Record<string, unknown>;
  if (r.op === 'sync' || r.op === 'clean' || r.op === 'status') return true;
  if (r.op === 'send_file') return isSendFileRequest(r);
  return r.op === 'repair' && typeof r.id === 'string' && r.id.length > 0 && r.id.length <= 64;
}

function isSendFileRequest(r: Record<string, unknown>): boolean {
  return (
    typeof r.token === 'string' &&
    r.token.length <= 128 &&
    typeof r.path === 'string' &&
    r.path.length > 0 &&
    r.path.length <= MAX_SEND_FILE_PATH &&
    (r.caption === undefined || (typeof r.caption === 'string' && r.caption.length <= MAX_SEND_FILE_CAPTION))
  );
}
