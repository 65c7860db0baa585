import path from 'node:path';
import { sameFingerprint, type CliFingerprint, type FileStamp } from './cli-fingerprint.js';
import { parseSemver } from './version-gate.js';

/** What the cache file holds (`paths.ccexecVersionFile`); anything else is ignored and rewritten. */
export interface CliVersionDoc {
  readonly format: typeof DOC_FORMAT;
  readonly entries: readonly CliVersionEntry[];
}

/** One probed CLI: its fingerprint and the version its `--version` printed. */
export interface CliVersionEntry extends CliFingerprint {
  readonly version: string;
  readonly probedAt: string;
}

/**
 * Where the cache is kept between processes (the `ask` command's file); the daemon keeps it in memory
 * only. `load` returns the parsed file, or undefined when there is none or it cannot be read; `save`
 * replaces it atomically (0600, in a 0700 directory).
 */
export interface CliVersionStore {
  load(): unknown;
  save(doc: CliVersionDoc): Promise<void>;
}

/** `--version` results by CLI fingerprint: only a version that parsed is ever stored. */
export interface CliVersionCache {
  /** The version probed for exactly this fingerprint, or undefined. */
  get(fingerprint: CliFingerprint): string | undefined;
  /** Records a probed version; the store is written in the background (`onError` on failure). */
  put(fingerprint: CliFingerprint, version: string): void;
  /** Resolves when the last background save has finished (tests, and a command before it exits). */
  flushed(): Promise<void>;
}

const DOC_FORMAT = 'cc-linker/cli-version-cache/1';
/** A few configured CLIs (profiles, a test install) fit; the oldest entry goes first. */
const MAX_ENTRIES = 8;

/**
 * The CLI version cache. What is cached is only a version the probe read (`available` and
 * `cli-too-old` alike: it is classified again against the current minimum on every hit); a CLI that
 * was not found or did not answer properly is probed again next time, so a cached answer can only be
 * as wrong as the fingerprint — and that changes whenever any file that decides the version is
 * rewritten, replaced or re-pointed (`cli-fingerprint.ts`).
 */
export function createCliVersionCache(
  options: { store?: CliVersionStore; onError?: (err: unknown) => void; now?: () => Date } = {},
): CliVersionCache {
  let entries: CliVersionEntry[] | undefined;
  let saving: Promise<void> = Promise.resolve();
  const loaded = (): CliVersionEntry[] => (entries ??= readDoc(options.store?.load()));

  return {
    get(fingerprint) {
      return loaded().find((e) => sameFingerprint(fingerprintOf(e), fingerprint))?.version;
    },
    put(fingerprint, version) {
      const entry: CliVersionEntry = {
        cli: [...fingerprint.cli],
        files: fingerprint.files.map((f) => ({ ...f })),
        version,
        probedAt: (options.now?.() ?? new Date()).toISOString(),
      };
      const sameCli = JSON.stringify(entry.cli);
      entries = [entry, ...loaded().filter((e) => JSON.stringify(e.cli) !== sameCli)].slice(0, MAX_ENTRIES);
      const store = options.store;
      if (!store) return;
      const doc: CliVersionDoc = { format: DOC_FORMAT, entries };
      saving = saving.then(() => store.save(doc)).catch((err: unknown) => options.onError?.(err));
    },
    flushed: () => saving,
  };
}

/** The entries of a stored document; anything not exactly ours (corrupt, foreign, older format) is none. */
export function readDoc(value: unknown): CliVersionEntry[] {
  if (!isRecord(value) || value.format !== DOC_FORMAT || !Array.isArray(value.entries)) return [];
  const entries = value.entries as unknown[];
  return entries.every(isEntry) ? entries.slice(0, MAX_ENTRIES) : [];
}

function fingerprintOf(e: CliVersionEntry): CliFingerprint {
  return {
    cli: e.cli,
    files: e.files.map((f) => ({ path: f.path, ino: f.ino, size: f.size, mtimeMs: f.mtimeMs, ctimeMs: f.ctimeMs })),
  };
}

function isEntry(value: unknown): value is CliVersionEntry {
  if (!isRecord(value)) return false;
  const { cli, files, version, probedAt } = value;
  return (
    Array.isArray(cli) &&
    cli.length > 0 &&
    cli.every((p) => typeof p === 'string' && p !== '') &&
    Array.isArray(files) &&
    files.length > 0 &&
    files.every(isStamp) &&
    typeof version === 'string' &&
    parseSemver(version) !== null &&
    typeof probedAt === 'string'
  );
}

function isStamp(value: unknown): value is FileStamp {
  if (!isRecord(value) || typeof value.path !== 'string' || !path.isAbsolute(value.path)) return false;
  return [value.ino, value.size, value.mtimeMs, value.ctimeMs].every(
    (n) => typeof n === 'number' && Number.isFinite(n),
  );
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
