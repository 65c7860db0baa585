import type { ScanProgress } from '../../sessions/scan/scan-claude-projects.js';
import { formatBytes } from '../../core/format-bytes.js';

/** A one-line progress bar redrawn in place (`\r`), for interactive terminals only. */
export interface ProgressBar {
  update(p: Readonly<ScanProgress>): void;
  /** Clears the bar line. */
  done(): void;
}

/**
 * A scan progress bar: `[██████░░░░░░] 1234/2000 files · 310.2 MB/512.0 MB`. Redraws at most
 * every 100 ms. `write` is the raw terminal stream (no newline is added).
 */
export function createProgressBar(write: (s: string) => void, width = 24): ProgressBar {
  let last = 0;
  let drawn = false;
  return {
    update(p) {
      const now = Date.now();
      if (now - last < 100 && p.filesDone < p.filesTotal) return;
      last = now;
      const ratio = p.bytesTotal > 0 ? p.bytesDone / p.bytesTotal : p.filesTotal > 0 ? p.filesDone / p.filesTotal : 1;
      const full = Math.round(Math.min(1, ratio) * width);
      write(
        `\r[${'█'.repeat(full)}${'░'.repeat(width - full)}] ${p.filesDone}/${p.filesTotal} files · ${formatBytes(p.bytesDone, { fixed: true })}/${formatBytes(p.bytesTotal, { fixed: true })}`,
      );
      drawn = true;
    },
    done() {
      if (drawn) write('\r\x1b[2K');
    },
  };
}
