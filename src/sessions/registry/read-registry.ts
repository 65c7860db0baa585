import fs from 'node:fs';
import type { Paths } from '../../core/paths.js';
import { readJsonFile } from '../../store/read-json-file.js';
import { StoreError } from '../../store/store-error.js';
import { checkRegistry, emptyRegistry, isUsableRegistry, REGISTRY_SCHEMA, type Registry } from './registry-schema.js';
import type { ScanWarning } from '../scan/scan-warning.js';
import { SessionsError } from '../sessions-error.js';

/** The paths the registry lives at (a subset of `Paths`, so tests can pass plain objects). */
export type RegistryPaths = Pick<Paths, 'registryFile' | 'registryBackupDir' | 'locksDir'>;

/** A registry as read: `exists` false means no file yet (an empty registry is returned). */
export interface LoadedRegistry {
  registry: Registry;
  exists: boolean;
  /** Identity of the file read (inode, size, mtime), to tell later whether it was replaced. */
  stamp: string | null;
  /** Set when the file was unusable and this registry came from a backup. */
  recoveredFrom: string | null;
  warnings: ScanWarning[];
}

/**
 * Reads and validates the registry. Never writes.
 * - missing file → an empty registry, `exists: false`;
 * - written by a newer cc-linker → `StoreError` `STORE_NEWER_SCHEMA` (and nothing may write it);
 * - half-written / not a registry → the newest valid backup, with a `registry_recovered`
 *   warning; without one, `SessionsError` `REGISTRY_UNRECOVERABLE` (one line, exit 65).
 */
export async function readRegistry(paths: RegistryPaths): Promise<LoadedRegistry> {
  const file = paths.registryFile;
  let problem: string;
  const stamp = await registryStamp(file); // before reading: a replacement after it changes the stamp
  try {
    const r = await readJsonFile(file);
    if (!r.exists) return { registry: emptyRegistry(), exists: false, stamp: null, recoveredFrom: null, warnings: [] };
    const check = checkRegistry(r.value);
    if (check.ok) {
      const warnings: ScanWarning[] =
        check.dropped.length > 0 ? [{ code: 'registry_dropped', file, detail: check.dropped.length }] : [];
      return { registry: check.registry, exists: true, stamp, recoveredFrom: null, warnings };
    }
    if (check.reason === 'newer')
      throw new StoreError('STORE_NEWER_SCHEMA', { file, found: check.found, supported: REGISTRY_SCHEMA });
    problem = check.detail;
  } catch (err) {
    if (!(err instanceof StoreError) || err.code !== 'STORE_CORRUPT') throw err;
    problem = String(err.params.reason ?? 'invalid JSON');
  }
  const { latestValidBackup } = await import('../../store/rolling-backup.js');
  const backup = await latestValidBackup<unknown>(file, paths.registryBackupDir, isUsableRegistry);
  const check = backup ? checkRegistry(backup.value) : null;
  if (!backup || !check?.ok) throw new SessionsError('REGISTRY_UNRECOVERABLE', { file, reason: problem });
  return {
    registry: check.registry,
    exists: true,
    stamp: null,
    recoveredFrom: backup.file,
    warnings: [{ code: 'registry_recovered', file, detail: backup.file }],
  };
}

/** `readRegistry` for read commands: a missing registry is `REGISTRY_MISSING` ("run init first"). */
export async function requireRegistry(paths: RegistryPaths): Promise<LoadedRegistry> {
  const loaded = await readRegistry(paths);
  if (!loaded.exists) throw new SessionsError('REGISTRY_MISSING', { file: paths.registryFile });
  return loaded;
}

/**
 * `inode:size:mtime` of the registry file, or null when it does not exist. A synchronous `stat`
 * (a few microseconds) behind the async signature: each `sync` asks several times, and a
 * thread-pool round trip costs more than the call.
 */
export async function registryStamp(file: string): Promise<string | null> {
  try {
    const st = fs.statSync(file);
    return `${st.ino}:${st.size}:${st.mtimeMs}`;
  } catch {
    return null;
  }
}
