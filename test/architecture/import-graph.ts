import fs from 'node:fs';
import path from 'node:path';

/** Every `import … from './x.js'`, `export … from`, and `import('./x.js')` of one source file. */
const SPECIFIER = /(?:^|[\s;])(?:import|export)\s[^'"`;]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

/** The source files below `dir` (TypeScript and the console's browser JavaScript), without tests. */
export function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sourceFiles(full));
    else if (/\.(ts|js)$/.test(entry.name) && !/\.test\.ts$/.test(entry.name)) out.push(full);
  }
  return out;
}

/**
 * The relative imports of every file below `dir`, resolved to files: `./x.js` names `x.ts` (or
 * `x.js`). Package and `node:` imports are left out: a circle can only run through our own files.
 */
export function importGraph(dir: string): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles(dir)) {
    const text = fs.readFileSync(file, 'utf8');
    const edges: string[] = [];
    for (const m of text.matchAll(SPECIFIER)) {
      const spec = m[1] ?? m[2];
      if (!spec?.startsWith('.')) continue;
      const target = path.resolve(path.dirname(file), spec);
      const candidates = [target.replace(/\.js$/, '.ts'), target];
      const found = candidates.find((c) => fs.existsSync(c) && fs.statSync(c).isFile());
      if (found) edges.push(found);
    }
    graph.set(file, edges);
  }
  return graph;
}

/** Every import circle, each as the files around it (first file repeated at the end). */
export function importCircles(graph: Map<string, string[]>): string[][] {
  const circles: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (file: string): void => {
    state.set(file, 'open');
    stack.push(file);
    for (const next of graph.get(file) ?? []) {
      const s = state.get(next);
      if (s === 'open') circles.push([...stack.slice(stack.indexOf(next)), next]);
      else if (s === undefined) visit(next);
    }
    stack.pop();
    state.set(file, 'done');
  };
  for (const file of [...graph.keys()].sort()) if (!state.has(file)) visit(file);
  return circles;
}
