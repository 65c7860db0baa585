import fs from 'node:fs/promises';
import path from 'node:path';
import { checkWorkingDirectory, type DirSafetyOptions } from '../../../bridge/commands/dir-safety.js';
import { expandHome } from '../../../core/expand-home.js';
import { tildify } from '../../../core/tildify.js';

/** One directory the picker offers. `path` is the real (symlink-free) path that passed the safety check. */
export interface PickerEntry {
  name: string;
  path: string;
  /** `~/…` form for display. */
  shown: string;
}

/** What the new-session directory picker shows: the allowed roots, or one directory's subdirectories. */
export interface PickerListing {
  /** The listed directory (real path), or null for the roots view. */
  path: string | null;
  shown: string | null;
  /** The parent, when it passes the check too (else the page goes back to the roots). */
  parent: string | null;
  entries: PickerEntry[];
  /** Subdirectories not shown because of the limit. */
  more: number;
  /** Why the directory could not be listed (the safety check's message). */
  error?: string;
}

/** Subdirectories one listing shows. */
export const PICKER_LIMIT = 200;
const collator = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });

/**
 * Lists directories for the "new session" picker, within `security.allowed_roots`. Without
 * `input` it lists the roots themselves; with one, the directory must pass `checkWorkingDirectory`
 * (symlinks resolved) and every subdirectory shown passes it too — so nothing outside the allowed
 * roots is ever offered. The bridge checks the chosen directory again when `/new` runs.
 *
 * @example
 *   await listPickerDirs('~/Git', { allowedRoots: ['~/Git'], deniedRoots: [], home, lang: 'en' })
 *   // { path: '/home/me/Git', entries: [{ name: 'cc-linker', path: '/home/me/Git/cc-linker', shown: '~/Git/cc-linker' }], … }
 */
export async function listPickerDirs(input: string | undefined, policy: DirSafetyOptions): Promise<PickerListing> {
  if (input === undefined || input.trim() === '') {
    const roots = policy.allowedRoots.length > 0 ? policy.allowedRoots : [policy.home];
    const entries: PickerEntry[] = [];
    for (const root of roots) {
      const r = await checkWorkingDirectory(root, policy);
      const real = r.ok
        ? r.realPath
        : policy.allowedRoots.length === 0
          ? path.resolve(expandHome(root, policy.home))
          : null;
      if (real && !entries.some((e) => e.path === real))
        entries.push({ name: tildify(real, policy.home), path: real, shown: tildify(real, policy.home) });
    }
    return { path: null, shown: null, parent: null, entries, more: 0 };
  }
  const r = await checkWorkingDirectory(input, policy);
  if (!r.ok) return { path: null, shown: null, parent: null, entries: [], more: 0, error: r.message };
  const dir = r.realPath;
  let names: string[];
  try {
    const dirents = await fs.readdir(dir, { withFileTypes: true });
    names = dirents
      .filter((d) => !d.name.startsWith('.') && (d.isDirectory() || d.isSymbolicLink()))
      .map((d) => d.name);
  } catch (err) {
    return {
      path: dir,
      shown: tildify(dir, policy.home),
      parent: null,
      entries: [],
      more: 0,
      error: (err as NodeJS.ErrnoException).code ?? String(err),
    };
  }
  names.sort(collator.compare);
  const entries: PickerEntry[] = [];
  let checked = 0;
  for (const name of names) {
    if (entries.length >= PICKER_LIMIT) break;
    checked += 1;
    const c = await checkWorkingDirectory(path.join(dir, name), policy);
    if (c.ok) entries.push({ name, path: c.realPath, shown: tildify(c.realPath, policy.home) });
  }
  const parentCheck = path.dirname(dir) !== dir ? await checkWorkingDirectory(path.dirname(dir), policy) : null;
  return {
    path: dir,
    shown: tildify(dir, policy.home),
    parent: parentCheck?.ok ? parentCheck.realPath : null,
    entries,
    more: names.length - checked,
  };
}
