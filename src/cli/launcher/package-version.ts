import { ownPackage } from '../../core/package-root.js';

/** The version in cc-linker's own `package.json` (`core/package-root.ts`); `0.0.0` when none is found. */
export function readPackageVersion(): string {
  return ownPackage()?.version ?? '0.0.0';
}
