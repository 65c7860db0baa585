import { describe, expect, it } from 'vitest';
import { firstLoadSize, loadUiAssets } from './static-assets.js';

describe('the UI assets', () => {
  it('are all loaded from the package, reference only each other, and fetch nothing from the network', async () => {
    const assets = await loadUiAssets();
    expect([...assets.keys()].sort()).toEqual([
      'api.js',
      'app.js',
      'chat-page.js',
      'i18n.js',
      'index.html',
      'nav-i18n.js',
      'nav.css',
      'page-alerts.js',
      'session-list.js',
      'session-live.js',
      'sessions-page.js',
      'status-page.js',
      'styles.css',
      'tool-card.js',
    ]);
    const html = assets.get('index.html')?.body.toString('utf8') ?? '';
    const refs = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
    expect(refs).toEqual(['/assets/styles.css', '/assets/nav.css', '/assets/app.js']);
    expect(html).not.toMatch(/<script>|\sstyle="|\son[a-z]+=/); // nothing inline: the CSP allows only 'self'
    for (const [name, a] of assets) {
      const text = a.body.toString('utf8');
      expect(text, name).not.toMatch(/https?:\/\/|\/\/cdn|@import|url\(/);
      for (const m of text.matchAll(/from '\.\/([\w-]+\.js)'/g))
        expect(assets.has(m[1] as string), `${name} imports ${m[1]}`).toBe(true);
    }
  });

  it('stay small on first load (html + js + css)', async () => {
    const size = firstLoadSize(await loadUiAssets());
    // The session navigation (paged list, one session view) brought it past 80 KB raw, 25 KB gzip.
    expect(size.raw).toBeLessThan(96 * 1024);
    expect(size.gzip).toBeLessThan(32 * 1024);
  });
});
