#!/usr/bin/env node
// Copies the web console's static UI (src/channels/web/ui/**) next to the compiled server
// (dist/channels/web/ui/), which loads it from `./ui/` relative to itself. tsc does not copy
// non-TypeScript files, so `npm run build` runs this after `tsc`. Test files and READMEs are skipped.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const from = path.join(root, 'src', 'channels', 'web', 'ui');
const to = path.join(root, 'dist', 'channels', 'web', 'ui');

fs.rmSync(to, { recursive: true, force: true });
let files = 0;
let bytes = 0;
const copy = (src, dst) => {
  fs.mkdirSync(dst, { recursive: true });
  for (const entry of fs.readdirSync(src, { withFileTypes: true })) {
    const s = path.join(src, entry.name);
    const d = path.join(dst, entry.name);
    if (entry.isDirectory()) copy(s, d);
    else if (entry.isFile() && !/\.test\.[cm]?[jt]s$/.test(entry.name) && !entry.name.endsWith('.md')) {
      fs.copyFileSync(s, d);
      files += 1;
      bytes += fs.statSync(s).size;
    }
  }
};
copy(from, to);
console.log(`copy-ui: ${files} files, ${bytes} bytes → ${path.relative(root, to)}`);
