import { describe, expect, it } from 'vitest';
import { stampServiceWorker } from './service-worker.js';
import { loadUiAssets } from './static-assets.js';

const SOURCE = "const BUILD = 'dev';\nconst SHELL = ['/'];\nself.x = 1;\n";

describe('the service worker stamp', () => {
  it('writes the shell URLs and a build id that changes with any shell file', () => {
    const files = [
      { name: 'index.html', etag: '"a"' },
      { name: 'app.js', etag: '"b"' },
      { name: 'sw.js', etag: '"c"' },
    ];
    const one = stampServiceWorker(SOURCE, files);
    expect(one).toContain('const SHELL = ["/","/assets/app.js"];');
    expect(one).toContain('self.x = 1;');
    const build = /const BUILD = '([\w-]{16})';/.exec(one)?.[1];
    expect(build).toBeDefined();
    const changed = stampServiceWorker(SOURCE, [
      { name: 'index.html', etag: '"a"' },
      { name: 'app.js', etag: '"B"' },
    ]);
    expect(changed).not.toContain(build);
    // The worker's own bytes do not feed its id (they are what gets stamped).
    expect(stampServiceWorker(SOURCE, files.slice(0, 2))).toContain(build);
  });

  it('is applied to the real sw.js: every other UI file is in its shell, nothing under /api/', async () => {
    const assets = await loadUiAssets();
    const sw = assets.get('sw.js');
    expect(sw?.headers).toEqual({ 'Service-Worker-Allowed': '/' });
    const text = sw?.body.toString('utf8') ?? '';
    expect(text).not.toContain("const BUILD = 'dev';");
    const shell = JSON.parse(/^const SHELL = (\[.*\]);$/m.exec(text)?.[1] ?? '[]') as string[];
    const expected = [
      '/',
      ...[...assets.keys()].filter((n) => n !== 'sw.js' && n !== 'index.html').map((n) => `/assets/${n}`),
    ];
    expect(shell.sort()).toEqual(expected.sort());
    expect(shell.filter((u) => u.startsWith('/api/'))).toEqual([]);
  });
});
