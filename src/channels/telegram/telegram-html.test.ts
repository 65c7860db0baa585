import { describe, expect, it } from 'vitest';
import { parseTelegramHtml } from '../../../test/fakes/fake-telegram/telegram-html.js';
import { escapeHtml, fitChars, markdownToHtml, visibleLength } from './telegram-html.js';

/** The HTML must be what Telegram accepts; returns its visible text. */
function visible(html: string): string {
  const parsed = parseTelegramHtml(html);
  if (!parsed.ok) throw new Error(`${parsed.description}: ${html}`);
  return parsed.visible;
}

describe('markdownToHtml', () => {
  it('escapes what Telegram would read as markup, so user text cannot break or spoof the message', () => {
    const text = 'a < b && c > d <b>not bold</b> &amp;';
    expect(visible(markdownToHtml(text))).toBe(text);
    expect(escapeHtml('<i>')).toBe('&lt;i&gt;');
  });

  it('keeps code blocks, inline code, bold, headings and links', () => {
    const html = markdownToHtml(
      '# Title\nuse `x<y>` and **this**, see [docs](https://e.x/a?b=1&c="2")\n```ts\nif (a < b) {}\n```',
    );
    expect(html).toContain('<b>Title</b>');
    expect(html).toContain('<code>x&lt;y&gt;</code>');
    expect(html).toContain('<b>this</b>');
    expect(html).toContain('<a href="https://e.x/a?b=1&amp;c=&quot;2&quot;">docs</a>');
    expect(html).toContain('<pre><code class="language-ts">if (a &lt; b) {}</code></pre>');
    expect(visible(html)).toContain('if (a < b) {}');
  });

  it('gives valid HTML for any cut of the text, never longer than the text', () => {
    const text = '## head\nsome **bold** and `code`\n```js\nconst a = 1 < 2 && 3;\n```\n[l](https://x.y) & done';
    for (let n = 0; n <= text.length; n += 1) {
      const html = markdownToHtml(text.slice(0, n));
      expect(visible(html).length).toBeLessThanOrEqual(n);
      expect(visibleLength(html)).toBe(visible(html).length);
    }
  });
});

describe('fitChars', () => {
  it('keeps all of a short text and cuts a long one at a line break in its last half', () => {
    expect(fitChars('abc', 10)).toBe(3);
    expect(fitChars(`${'a'.repeat(8)}\n${'b'.repeat(8)}`, 12)).toBe(8);
    expect(fitChars('a'.repeat(20), 12)).toBe(12);
  });

  it('never splits a surrogate pair', () => {
    const text = `${'a'.repeat(9)}😀😀`;
    expect(fitChars(text, 10)).toBe(9);
  });
});
