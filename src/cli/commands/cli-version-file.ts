import fs from 'node:fs';
import type { CliVersionStore } from '../../ccexec/cli-version-cache.js';
import { writeFileAtomic } from '../../store/atomic-write.js';
import { parseJsonText } from '../../store/read-json-file.js';

/**
 * The CLI version cache's file for `ask` and `chat` (`paths.ccexecVersionFile`): read only when it is
 * a regular file of ours that nobody else may write (a symlink, another user's file or a corrupt one
 * reads as empty — the probe runs and the next save replaces it); written atomically, 0600, its
 * directory 0700. It is a cache: a save skips the fsyncs, and a lost file only costs one probe.
 */
export function cliVersionFile(file: string): CliVersionStore {
  return {
    load() {
      try {
        const st = fs.lstatSync(file);
        const ours = process.getuid === undefined || st.uid === process.getuid();
        if (!st.isFile() || !ours || (st.mode & 0o022) !== 0) return undefined;
        return parseJsonText(file, fs.readFileSync(file, 'utf8'));
      } catch {
        return undefined;
      }
    },
    save: (doc) => writeFileAtomic(file, `${JSON.stringify(doc)}\n`, { durable: false }),
  };
}
