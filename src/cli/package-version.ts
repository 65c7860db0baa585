import fs from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The package version from package.json (two levels above `dist/cli/` and `src/cli/`). */
export function readPackageVersion(): string {
  try {
    const file = fileURLToPath(new URL('../../package.json', import.meta.url));
    return (JSON.parse(fs.readFileSync(file, 'utf8')) as { version?: string }).version ?? '0.0.0';
  } catch {
    return '0.0.0';
  }
}
