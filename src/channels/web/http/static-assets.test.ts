import { describe, expect, it } from 'vitest';
import { firstLoadSize, loadUiAssets } from './static-assets.js';

describe('the UI assets', () => {
  it('are all loaded from the package, reference only each other, and fetch nothing from the network', async () => {
    const assets = await loadUiAssets();
    expect([...assets.keys()].sort()).toEqual([
      'api.js',
      'app.js',
      'attach-files.js',
      'attach-i18n.js',
      'attach.css',
      'changes-i18n.js',
      'changes-view.js',
      'chat-page.js',
      'dir-picker.js',
      'files-i18n.js',
      'files-view.js',
      'format-bytes.js',
      'i18n.js',
      'icons/apple-touch-icon.png',
      'icons/icon-192.png',
      'icons/icon-512.png',
      'icons/icon-maskable-512.png',
      'index.html',
      'manifest.webmanifest',
      'nav-i18n.js',
      'nav.css',
      'page-alerts.js',
      'phone.css',
      'session-list.js',
      'session-live.js',
      'sessions-page.js',
      'status-page.js',
      'styles.css',
      'sw.js',
      'tool-card-i18n.js',
      'tool-card.js',
      'transcript-i18n.js',
      'transcript-view.js',
      'transcript.css',
      'voice-capture.js',
      'voice-i18n.js',
      'voice-recorder.js',
      'voice.css',
      'workspace-i18n.js',
      'workspace-tabs.js',
      'workspace.css',
    ]);
    const html = assets.get('index.html')?.body.toString('utf8') ?? '';
    const refs = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
    expect(refs).toEqual([
      '/assets/manifest.webmanifest',
      '/assets/icons/icon-192.png',
      '/assets/icons/apple-touch-icon.png',
      '/assets/styles.css',
      '/assets/transcript.css',
      '/assets/workspace.css',
      '/assets/nav.css',
      '/assets/voice.css',
      '/assets/phone.css',
      '/assets/app.js',
    ]);
    for (const ref of refs) expect(assets.has(String(ref).replace('/assets/', '')), ref).toBe(true);
    expect(html).not.toMatch(/<script>|\sstyle="|\son[a-z]+=/); // nothing inline: the CSP allows only 'self'
    for (const [name, a] of assets) {
      if (a.type === 'image/png') continue;
      const text = a.body.toString('utf8');
      expect(text, name).not.toMatch(/https?:\/\/|\/\/cdn|@import|url\(/);
      for (const m of text.matchAll(/from '\.\/([\w-]+\.js)'/g))
        expect(assets.has(m[1] as string), `${name} imports ${m[1]}`).toBe(true);
    }
  });

  it('stay small on first load (html + js + css)', async () => {
    const size = firstLoadSize(await loadUiAssets());
    // Grew with the session navigation (paged list, one session view), the transcript view, the changes tabs' shell, the phone layout, the PWA links and the
    // page's language (≈25 KiB gzipped before); the Changes and Files views load on first use, and the
    // service worker serves the shell from its cache after the first visit.
    expect(size.raw).toBeLessThan(116 * 1024);
    expect(size.gzip).toBeLessThan(40 * 1024);
  });
});
