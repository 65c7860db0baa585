import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/**
 * Where the real agents installed as dev dependencies live. Each returns `null` when the package
 * (or its native binary for this platform) is missing, so a test can skip with a reason.
 */

const require = createRequire(import.meta.url);

function packageDir(name: string): string | null {
  try {
    return dirname(require.resolve(`${name}/package.json`));
  } catch {
    return null;
  }
}

/**
 * The native `codex-acp` binary of `@zed-industries/codex-acp-<platform>-<arch>`. Spawn it
 * directly: the package's `bin/codex-acp.js` wrapper runs it with `spawnSync`, and a signal to the
 * wrapper leaves the native process running.
 */
export function codexAcpBinary(): string | null {
  const dir = packageDir(`@zed-industries/codex-acp-${process.platform}-${process.arch}`);
  const bin = dir === null ? null : join(dir, 'bin', 'codex-acp');
  return bin !== null && existsSync(bin) ? bin : null;
}

/** Qwen Code's entry script (`@qwen-code/qwen-code/cli.js`), run with this Node. */
export function qwenCliScript(): string | null {
  const dir = packageDir('@qwen-code/qwen-code');
  const cli = dir === null ? null : join(dir, 'cli.js');
  return cli !== null && existsSync(cli) ? cli : null;
}

/**
 * The `qwen` command npm installs (`node_modules/.bin/qwen`, a link to `cli.js` run by `node` on
 * PATH), as a user's `[agents.qwen] command` would name it.
 */
export function qwenBin(): string | null {
  const cli = qwenCliScript();
  const bin = cli === null ? null : join(dirname(dirname(dirname(cli))), '.bin', 'qwen');
  return bin !== null && existsSync(bin) ? bin : null;
}
