/**
 * What `npm ci` needs of package-lock.json: every dependency a locked package names (optional ones
 * included) has an entry that node's lookup would find. `npm install` leaves an optional package out when
 * the registry does not have it, and `npm ci` then refuses the whole lock file.
 */
export interface LockEntry {
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
  devDependencies?: Record<string, string>;
}

/** Each `<package path> → <dependency>` a clean install could not place. */
export function unlockedDependencies(packages: Record<string, LockEntry>): string[] {
  const missing: string[] = [];
  for (const [where, entry] of Object.entries(packages)) {
    if (where.startsWith('node_modules/') === false && where !== '') continue;
    const names = new Set([
      ...Object.keys(entry.dependencies ?? {}),
      ...Object.keys(entry.optionalDependencies ?? {}),
      ...(where === '' ? Object.keys(entry.devDependencies ?? {}) : []),
    ]);
    for (const name of names) {
      if (findFrom(packages, where, name) === undefined) missing.push(`${where || '(root)'} → ${name}`);
    }
  }
  return missing;
}

function findFrom(packages: Record<string, LockEntry>, where: string, name: string): string | undefined {
  let base = where;
  for (;;) {
    const candidate = base === '' ? `node_modules/${name}` : `${base}/node_modules/${name}`;
    if (candidate in packages) return candidate;
    if (base === '') return undefined;
    const cut = base.lastIndexOf('/node_modules/');
    base = cut < 0 ? '' : base.slice(0, cut);
  }
}
