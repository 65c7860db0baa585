import path from 'node:path';
import type { Paths } from '../../core/paths.js';

/**
 * The daemon's local request socket (docs/design.md, "The session registry"): the write commands
 * that `start` would otherwise refuse (`sync`, `clean`, `repair`) ask the running daemon to do the
 * work. One request a connection, each message one JSON line: the client sends a `ControlRequest`,
 * the daemon answers `{"accepted":true}` at once, then one `ControlAnswer` when the work is done.
 */
export type ControlRequest = { op: 'sync' } | { op: 'clean' } | { op: 'repair'; id: string };

/** The work's result, or the error it stopped with, in both languages (the CLI picks the user's). */
export type ControlAnswer =
  { ok: true; result: unknown } | { ok: false; error: { code: string; exitCode: number; zh: string; en: string } };

/** Longest request line the daemon reads. */
export const MAX_REQUEST_BYTES = 4096;

/** `runtime/daemon.sock`: in the 0700 runtime folder, itself 0600. */
export function controlSocketPath(paths: Pick<Paths, 'runtimeDir'>): string {
  return path.join(paths.runtimeDir, 'daemon.sock');
}

/** True for a well-formed request. */
export function isControlRequest(v: unknown): v is ControlRequest {
  if (typeof v !== 'object' || v === null) return false;
  const r = v as Record<string, unknown>;
  if (r.op === 'sync' || r.op === 'clean') return true;
  return r.op === 'repair' && typeof r.id === 'string' && r.id.length > 0 && r.id.length <= 64;
}
