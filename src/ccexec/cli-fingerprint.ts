import fs from 'node:fs';
import path from 'node:path';

/** One file that decides what `<cli> --version` prints, as the file system describes it now. */
export interface FileStamp {
  /** The real path (symlinks resolved): an npm bin link names the script it points to. */
  readonly path: string;
  readonly ino: number;
  readonly size: number;
  readonly mtimeMs: number;
  /** Set by the kernel on every write, rename or chmod; a package manager cannot restore it. */
  readonly ctimeMs: number;
}

/** The configured argv prefix and the stamps of the files behind it: equal fingerprints, equal `--version`. */
export interface CliFingerprint {
  readonly cli: readonly string[];
  readonly files: readonly FileStamp[];
}

/** How far up from a script its `package.json` (where a Node CLI reads its version) is looked for. */
const PACKAGE_JSON_LEVELS = 4;

/**
 * The files that decide the configured CLI's version, stamped, or null when the program cannot be
 * found (then nothing is cached and the probe says why). The program (`cli[0]`) is resolved the way
 * the spawn resolves it: a name with a slash against `cwd`, a bare name on the CLI's `PATH`. Every
 * further prefix element that names an existing file (`["node", "/opt/cc/bin/chainlesschain.js"]`)
 * is a script that counts too, and so does the nearest `package.json` above each file: an npm upgrade
 * may leave the bin script byte-identical and change only the package's version there. Stamps carry
 * the inode and ctime besides mtime and size, because package managers may preserve mtimes
 * (docs/design.md, "The CLI version cache").
 */
export function fingerprintCli(
  cli: readonly string[],
  cwd: string,
  pathVar: string | undefined,
): CliFingerprint | null {
  const [program, ...rest] = cli;
  if (program === undefined) return null;
  const resolved = resolveProgram(program, cwd, pathVar);
  if (!resolved) return null;
  const files: string[] = [resolved];
  for (const part of rest) {
    if (part.startsWith('-')) continue;
    const candidate = path.resolve(cwd, part);
    if (isFile(candidate)) files.push(candidate);
  }
  const stamps: FileStamp[] = [];
  const seen = new Set<string>();
  const add = (file: string): boolean => {
    const stamp = stampOf(file);
    if (!stamp) return false;
    if (!seen.has(stamp.path)) {
      seen.add(stamp.path);
      stamps.push(stamp);
    }
    return true;
  };
  for (const file of files) {
    if (!add(file)) return null;
    const pkg = nearestPackageJson(realpathOrSelf(file));
    if (pkg) add(pkg);
  }
  return { cli: [...cli], files: stamps };
}

/** True when both fingerprints name the same prefix and the same, unchanged files. */
export function sameFingerprint(a: CliFingerprint, b: CliFingerprint): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function resolveProgram(program: string, cwd: string, pathVar: string | undefined): string | null {
  if (program.includes('/')) {
    const file = path.resolve(cwd, program);
    return isFile(file) ? file : null;
  }
  for (const dir of (pathVar ?? '').split(path.delimiter)) {
    if (dir === '') continue;
    const file = path.resolve(cwd, dir, program);
    if (!isFile(file)) continue;
    try {
      fs.accessSync(file, fs.constants.X_OK);
      return file;
    } catch {
      // not executable: the spawn skips it as well
    }
  }
  return null;
}

function stampOf(file: string): FileStamp | null {
  try {
    const real = fs.realpathSync(file);
    const st = fs.statSync(real);
    if (!st.isFile()) return null;
    return { path: real, ino: st.ino, size: st.size, mtimeMs: st.mtimeMs, ctimeMs: st.ctimeMs };
  } catch {
    return null;
  }
}

function nearestPackageJson(file: string): string | null {
  let dir = path.dirname(file);
  for (let i = 0; i < PACKAGE_JSON_LEVELS; i++) {
    const candidate = path.join(dir, 'package.json');
    if (isFile(candidate)) return candidate;
    const parent = path.dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  return null;
}

function isFile(file: string): boolean {
  try {
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

function realpathOrSelf(file: string): string {
  try {
    return fs.realpathSync(file);
  } catch {
    return file;
  }
}
