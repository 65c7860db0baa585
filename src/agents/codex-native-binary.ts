import fs from 'node:fs';
import path from 'node:path';
import { isExecutable } from '../process/find-executable.js';

/** The npm package's Node wrapper, as its real path ends. */
const WRAPPER = path.join('@zed-industries', 'codex-acp', 'bin', 'codex-acp.js');

/**
 * The native `codex-acp` binary behind the npm package's Node wrapper, or null when `found` is not
 * that wrapper (or the binary is missing). The wrapper runs the binary with `spawnSync` and does not
 * pass a signal on, so stopping the wrapper would orphan the agent: cc-linker runs the binary
 * itself. Looked up as the wrapper does (Node's resolution from the package's folder): the package's
 * own `node_modules` (a global install), then each `node_modules` above it (a local install).
 *
 * @example codexNativeBinary('/usr/lib/node_modules/.bin/codex-acp')
 *   // '/usr/lib/node_modules/@zed-industries/codex-acp/node_modules/@zed-industries/codex-acp-linux-x64/bin/codex-acp'
 */
export function codexNativeBinary(
  found: string,
  platform: NodeJS.Platform = process.platform,
  arch: string = process.arch,
): string | null {
  let real: string;
  try {
    real = fs.realpathSync(found);
  } catch {
    return null;
  }
  if (!real.endsWith(path.sep + WRAPPER)) return null;
  const pkgDir = path.dirname(path.dirname(real));
  const native = path.join(
    '@zed-industries',
    `codex-acp-${platform}-${arch}`,
    'bin',
    platform === 'win32' ? 'codex-acp.exe' : 'codex-acp',
  );
  for (let dir = pkgDir; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'node_modules', native);
    if (isExecutable(candidate)) return candidate;
    if (path.dirname(dir) === dir) return null;
  }
}
