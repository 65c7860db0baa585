import path from 'node:path';

/**
 * `path.basename(file, '.jsonl')` — a session file's id — and `path.basename(path.dirname(file))`
 * — its project directory — for the paths the scanner makes (`<projects>/<dir>/<id>.jsonl`), with
 * two native `lastIndexOf`s. `path.basename`/`dirname` walk the string character by character in
 * JavaScript, which a cold scan of thousands of files runs in V8's interpreter. Any path that is
 * not plainly `…/<dir>/<name>` (a trailing or doubled separator, Windows separators) goes to `path`.
 */
export function fileStem(file: string): string {
  const i = plainLastSep(file);
  if (i < 0) return path.basename(file, '.jsonl');
  const name = file.slice(i + 1);
  return name.length > 6 && name.endsWith('.jsonl') ? name.slice(0, -6) : name;
}

/** `path.basename(path.dirname(file))`; see `fileStem`. */
export function parentName(file: string): string {
  const i = plainLastSep(file);
  const j = i > 0 ? file.lastIndexOf('/', i - 1) : -1;
  if (i < 0 || j < 0 || j === i - 1) return path.basename(path.dirname(file));
  return file.slice(j + 1, i);
}

/** The index of the last `/` when `file` plainly ends in `/<name>` on a POSIX system, else -1. */
function plainLastSep(file: string): number {
  if (path.sep !== '/') return -1;
  const i = file.lastIndexOf('/');
  return i > 0 && i < file.length - 1 && file[i - 1] !== '/' ? i : -1;
}

/** `path.basename(p)` (a cwd's last segment, for `project_name`); see `fileStem`. */
export function baseName(p: string): string {
  if (path.sep !== '/' || p.length === 0 || p.endsWith('/')) return path.basename(p);
  return p.slice(p.lastIndexOf('/') + 1);
}
