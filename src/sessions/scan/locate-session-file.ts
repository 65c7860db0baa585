import fs from 'node:fs';
import path from 'node:path';

/**
 * Where the file of session `id` is now: `<projectsDir>/<projectDir>/<id>.jsonl` when the
 * expected directory has it, else the first `<projectsDir>/*\/<id>.jsonl` (the directory can
 * differ from the expected one when the cwd was a symlink or was renamed). Null when not found.
 * Read-only, so `resume` may call it while the runtime owns the registry.
 */
export async function locateSessionFile(
  projectsDir: string,
  id: string,
  projectDir: string | null,
): Promise<string | null> {
  const name = `${id}.jsonl`;
  if (projectDir) {
    const direct = path.join(projectsDir, projectDir, name);
    if (await isFile(direct)) return direct;
  }
  let dirs: string[];
  try {
    dirs = (await fs.promises.readdir(projectsDir)).sort();
  } catch {
    return null;
  }
  for (const d of dirs) {
    if (d === projectDir) continue;
    const candidate = path.join(projectsDir, d, name);
    if (await isFile(candidate)) return candidate;
  }
  return null;
}

async function isFile(file: string): Promise<boolean> {
  try {
    return (await fs.promises.stat(file)).isFile();
  } catch {
    return false;
  }
}
