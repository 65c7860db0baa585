import fs from 'node:fs';
import path from 'node:path';

/** One directory to watch. */
export interface WatchRoot {
  dir: string;
  /** Watch the whole tree (`fs.watch` recursive) rather than the directory's own entries. */
  recursive: boolean;
  /**
   * How many levels the poll fallback looks at: 1 = the directory's own files, 2 = its subfolders'
   * too; 0 = no poll (where `fs.watch` fails the root is not watched at all).
   */
  pollDepth: number;
  /** Which changes count, by path relative to `dir` (null: the platform did not say); default all. */
  accept?: (relative: string | null) => boolean;
}

/** How each root is being watched: `fs.watch`, the mtime poll, or not at all (`pollDepth` 0). */
export type WatchMode = 'watch' | 'poll' | 'none';

export interface DirWatch {
  /** The mode of each root, by directory. */
  modes(): Record<string, WatchMode>;
  close(): void;
}

export interface WatchDirsOptions {
  /** A change under `root` (called often during a burst: the caller debounces). */
  onChange: (root: WatchRoot) => void;
  /** A watcher that failed (it is replaced by the poll) or a poll pass that failed; never thrown. */
  onError: (err: unknown, root: WatchRoot) => void;
  /** `poll` skips `fs.watch` (tests; file systems that do not report changes). Default `auto`. */
  mode?: 'auto' | 'poll';
  /** Poll interval. Default 1 s. */
  pollMs?: number;
  /** Every this many passes, the poll stats every file, not only the recently changed ones. Default 30. */
  fullEvery?: number;
}

/** A file changed within this long is "hot": the poll stats it on every pass. */
const HOT_MS = 10 * 60_000;

/**
 * Watches directory trees for changes: `fs.watch` (recursive where asked; Linux and macOS with
 * Node 20), and where that fails — the directory is missing, inotify is out of watches (`ENOSPC`),
 * the platform has no recursive watch, or a running watcher reports an error — a cheap mtime poll
 * of that root instead (see docs/design.md, "The session registry"). Nothing here throws after the
 * call: every failure goes to `onError`, so a watcher can never crash the process that holds it.
 */
export function watchDirs(roots: readonly WatchRoot[], o: WatchDirsOptions): DirWatch {
  const modes = new Map<WatchRoot, WatchMode>();
  const watchers = new Map<WatchRoot, fs.FSWatcher>();
  const pollers = new Map<WatchRoot, TreePoller>();
  let closed = false;

  const poll = (root: WatchRoot) => {
    if (root.pollDepth < 1) return void modes.set(root, 'none');
    modes.set(root, 'poll');
    if (!pollers.has(root)) pollers.set(root, new TreePoller(root));
  };
  const report = (root: WatchRoot, relative: string | null) => {
    if (!closed && (root.accept?.(relative) ?? true)) o.onChange(root);
  };
  for (const root of roots) {
    if (o.mode === 'poll') {
      poll(root);
      continue;
    }
    try {
      const w = fs.watch(root.dir, { recursive: root.recursive, persistent: false }, (_event, name) =>
        report(root, name === null ? null : String(name)),
      );
      w.on('error', (err) => {
        w.close();
        watchers.delete(root);
        if (closed) return;
        o.onError(err, root);
        poll(root);
      });
      watchers.set(root, w);
      modes.set(root, 'watch');
    } catch (err) {
      // A missing directory is polled until it appears; anything else is worth a line in the log.
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') o.onError(err, root);
      poll(root);
    }
  }

  let passes = 0;
  let polling = false;
  const timer = setInterval(() => {
    if (polling || pollers.size === 0) return;
    polling = true;
    const full = passes++ % (o.fullEvery ?? 30) === 0;
    void (async () => {
      for (const [root, poller] of pollers) {
        try {
          for (const rel of await poller.pass(full)) report(root, rel);
        } catch (err) {
          o.onError(err, root);
        }
      }
    })().finally(() => (polling = false));
  }, o.pollMs ?? 1000);
  timer.unref();

  return {
    modes: () => Object.fromEntries([...modes].map(([r, m]) => [r.dir, m])),
    close() {
      closed = true;
      clearInterval(timer);
      for (const w of watchers.values()) w.close();
      watchers.clear();
    },
  };
}

interface DirState {
  mtimeMs: number;
  files: string[];
  dirs: string[];
}

/**
 * One root's poll: each pass stats the folders (a new or removed file changes its folder's mtime,
 * and only then is the folder read again) and the hot files (an append changes only the file); a
 * full pass stats every file. The first pass only learns the tree.
 */
class TreePoller {
  private readonly dirs = new Map<string, DirState>();
  private readonly files = new Map<string, string>();
  private readonly hot = new Set<string>();
  private learnt = false;

  constructor(private readonly root: WatchRoot) {}

  /** The paths (relative to the root) that changed since the last pass. */
  async pass(full: boolean): Promise<string[]> {
    const changed: string[] = [];
    const seenDirs = new Set<string>();
    await this.walk(this.root.dir, 1, full, changed, seenDirs);
    for (const dir of this.dirs.keys()) {
      if (seenDirs.has(dir)) continue;
      this.dirs.delete(dir);
      changed.push(path.relative(this.root.dir, dir));
    }
    const first = !this.learnt;
    this.learnt = true;
    return first ? [] : changed;
  }

  private async walk(dir: string, level: number, full: boolean, changed: string[], seen: Set<string>): Promise<void> {
    const st = await fs.promises.stat(dir).catch(() => null);
    if (!st?.isDirectory()) return;
    seen.add(dir);
    let state = this.dirs.get(dir);
    if (!state || state.mtimeMs !== st.mtimeMs) {
      const entries = await fs.promises.readdir(dir, { withFileTypes: true }).catch(() => []);
      const files = entries.filter((e) => e.isFile()).map((e) => path.join(dir, e.name));
      const gone = (state?.files ?? []).filter((f) => !files.includes(f));
      for (const f of gone) {
        this.files.delete(f);
        this.hot.delete(f);
        changed.push(path.relative(this.root.dir, f));
      }
      state = {
        mtimeMs: st.mtimeMs,
        files,
        dirs: entries.filter((e) => e.isDirectory()).map((e) => path.join(dir, e.name)),
      };
      this.dirs.set(dir, state);
    }
    for (const file of state.files) {
      if (!full && this.files.has(file) && !this.hot.has(file)) continue;
      const fst = await fs.promises.stat(file).catch(() => null);
      if (!fst) continue;
      const sig = `${fst.mtimeMs}:${fst.size}`;
      if (this.files.get(file) !== sig) changed.push(path.relative(this.root.dir, file));
      this.files.set(file, sig);
      if (Date.now() - fst.mtimeMs < HOT_MS) this.hot.add(file);
      else this.hot.delete(file);
    }
    if (level < this.root.pollDepth) for (const sub of state.dirs) await this.walk(sub, level + 1, full, changed, seen);
  }
}
