/**
 * The session commands people run most and expect at once — `list`, `show`, `search`, `sync`,
 * `init` — with the module and export that declare each. Their whole closure is cc-linker's own
 * code, Node built-ins and small pure-JS packages (smol-toml, inlined), so
 * `scripts/bundle-cli.mjs` bundles each into one CommonJS file
 * (`dist/cli/hot/<name>.cjs`) that the binary's first stage (`hot-main.ts`) loads with `require`:
 * no ES-module loader, no 30–70 module files to resolve — about a third of a cold start (issue 2's
 * `list` and `sync` goals). The build refuses a bundle that would still import a package at run
 * time, or use `import.meta`.
 */
export const HOT_COMMANDS = [
  { name: 'list', module: './commands/list.js', spec: 'listCommand' },
  { name: 'show', module: './commands/show.js', spec: 'showCommand' },
  { name: 'search', module: './commands/search.js', spec: 'searchCommand' },
  { name: 'sync', module: './commands/sync.js', spec: 'syncCommand' },
  { name: 'init', module: './commands/init.js', spec: 'initCommand' },
] as const;

/** What a hot bundle exports: runs the command if the line is plainly well formed (see `tryFastRun`). */
export type HotRun = (argv: readonly string[]) => Promise<boolean>;

/** Where the bundle of a hot command lives, relative to the first stage. */
export function hotBundlePath(name: string): string {
  return `./hot/${name}.cjs`;
}

/** The V8 code cache of a hot bundle is `<bundle><CODE_CACHE_SUFFIX>`, written by the build. */
export const CODE_CACHE_SUFFIX = '.cache';

/**
 * `source` wrapped as Node wraps a CommonJS file: the build compiles this exact text to make the
 * code cache, and the first stage compiles it again with that cache (V8 accepts a cache only for
 * the same source).
 */
export function commonJsWrapper(source: string): string {
  return `(function (exports, require, module, __filename, __dirname) { ${source}\n});`;
}
