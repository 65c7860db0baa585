import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { escapeHtml } from './http/escape-html.js';
import { renderMarkdown } from './render-markdown.js';

/** Every tag the renderer may emit, with the only attributes it may carry. */
const ALLOWED_TAG =
  /<\/?(?:p|pre|code|strong|em|s|h[1-6]|blockquote|ul|ol|li|table|thead|tbody|tr|th|td|a)>|<(?:br|hr) \/>|<ol start="\d{1,9}">|<code class="language-[\w+#.-]+">|<a (?:href="(?:https?|mailto):[^"<>]*" )?rel="noopener noreferrer" target="_blank">/g;

/** What is left once the allowed tags are removed must contain no markup at all. */
function leftover(html: string): string {
  return html.replace(ALLOWED_TAG, '');
}

describe('escapeHtml', () => {
  it('escapes the five HTML-special characters', () => {
    expect(escapeHtml(`<a href="x" title='y'>&</a>`)).toBe(
      '&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;',
    );
  });
});

/** The rendered HTML without the newlines markdown-it puts between block tags (easier to read here). */
function r(text: string): string {
  return renderMarkdown(text).replace(/>\n</g, '><').trim();
}

describe('renderMarkdown', () => {
  it('renders paragraphs, line breaks, code blocks, inline code, bold, lists, headings, quotes', () => {
    expect(r('Hello **world**\nline two\n\nsecond')).toBe(
      '<p>Hello <strong>world</strong><br />\nline two</p><p>second</p>',
    );
    expect(r('```ts\nconst a = 1 < 2;\n```')).toBe('<pre><code class="language-ts">const a = 1 &lt; 2;\n</code></pre>');
    expect(r('use `npm test` now')).toBe('<p>use <code>npm test</code> now</p>');
    expect(r('- a\n- **b**\n\n1. one\n2. two')).toBe(
      '<ul><li>a</li><li><strong>b</strong></li></ul><ol><li>one</li><li>two</li></ol>',
    );
    expect(r('# Title\n> quoted\n> more')).toBe('<h1>Title</h1><blockquote><p>quoted<br />\nmore</p></blockquote>');
    expect(r('see [docs](https://example.com/a?b=1&c=2)')).toBe(
      '<p>see <a href="https://example.com/a?b=1&amp;c=2" rel="noopener noreferrer" target="_blank">docs</a></p>',
    );
    expect(r('中文 **加粗** 和 `代码`')).toBe('<p>中文 <strong>加粗</strong> 和 <code>代码</code></p>');
  });

  it('renders GFM: tables, emphasis, strikethrough, autolinks (alignment styles are dropped)', () => {
    expect(r('| a | b |\n|---:|---|\n| *x* | ~~y~~ |')).toBe(
      '<table><thead><tr><th>a</th><th>b</th></tr></thead><tbody><tr><td><em>x</em></td><td><s>y</s></td></tr></tbody></table>',
    );
    expect(r('see https://ex.com/p and <mailto:a@b.co>')).toBe(
      '<p>see <a href="https://ex.com/p" rel="noopener noreferrer" target="_blank">https://ex.com/p</a> and <a href="mailto:a@b.co" rel="noopener noreferrer" target="_blank">mailto:a@b.co</a></p>',
    );
  });

  it('numbers an ordered list from its first number, also one item per block (/list: 1, 2, 3 — not 1, 1, 1)', () => {
    expect(r('3. three\n4. four')).toBe('<ol start="3"><li>three</li><li>four</li></ol>');
    const list = r('1. one\n\n2. two\n\n3. three');
    expect(list.match(/<ol/g)).toHaveLength(1);
    expect(list.match(/<li>/g)).toHaveLength(3);
    expect(list).toMatch(/^<ol>/);
    expect(r('0) zero')).toBe('<ol start="0"><li>zero</li></ol>');
    expect(r('1. a\n1. b\n1. c')).toBe('<ol><li>a</li><li>b</li><li>c</li></ol>');
  });

  it('keeps a plain line after a list item in that item (a /list entry: title, id and meta in one item)', () => {
    expect(r('2. **Fix bug**\nID: abc12345\n终端 | 3条')).toBe(
      '<ol start="2"><li><strong>Fix bug</strong><br />\nID: abc12345<br />\n终端 | 3条</li></ol>',
    );
  });

  it('keeps an unclosed code fence as code to the end', () => {
    expect(r('```\n<b>x</b>')).toBe('<pre><code>&lt;b&gt;x&lt;/b&gt;</code></pre>');
  });

  it.each([
    ['<script>alert(1)</script>', '<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>'],
    ['<img src=x onerror=alert(1)>', '<p>&lt;img src=x onerror=alert(1)&gt;</p>'],
    ['<svg><script>alert(1)</script></svg>', '<p>&lt;svg&gt;&lt;script&gt;alert(1)&lt;/script&gt;&lt;/svg&gt;</p>'],
    ['<svg onload=alert(1)>', '<p>&lt;svg onload=alert(1)&gt;</p>'],
    ['[click](javascript:alert(1))', '<p>[click](javascript:alert(1))</p>'],
    ['[click](JaVaScRiPt:alert(1))', '<p>[click](JaVaScRiPt:alert(1))</p>'],
    ['[click](&#106;avascript:alert(1))', '<p>[click](javascript:alert(1))</p>'],
    ['[click](java\tscript:alert(1))', '<p>[click](java\tscript:alert(1))</p>'],
    ['[click](vbscript:msgbox(1))', '<p>[click](vbscript:msgbox(1))</p>'],
    ['[click](data:text/html,<script>)', '<p>[click](data:text/html,&lt;script&gt;)</p>'],
    ['<javascript:alert(1)>', '<p>&lt;javascript:alert(1)&gt;</p>'],
    ['[x](//evil.example/)', '<p><a rel="noopener noreferrer" target="_blank">x</a></p>'],
    ['[x](file:///etc/passwd)', '<p>[x](file:///etc/passwd)</p>'],
    // Relative links would open pages of the console: the text stays, the href goes.
    ['[a.ts](src/a.ts)', '<p><a rel="noopener noreferrer" target="_blank">a.ts</a></p>'],
    ["[](')", '<p><a rel="noopener noreferrer" target="_blank"></a></p>'],
    [
      '![x](https://evil.example/t.png)',
      '<p>!<a href="https://evil.example/t.png" rel="noopener noreferrer" target="_blank">x</a></p>',
    ],
    ['![x](javascript:alert(1))', '<p>![x](javascript:alert(1))</p>'],
    [
      '[x](https://a.example/" onmouseover="alert(1))',
      '<p>[x](<a href="https://a.example/" rel="noopener noreferrer" target="_blank">https://a.example/</a>" onmouseover="alert(1))</p>',
    ],
    [
      '[<img src=x>](https://a.example)',
      '<p><a href="https://a.example" rel="noopener noreferrer" target="_blank">&lt;img src=x&gt;</a></p>',
    ],
    ['`<b>` and **<i>x</i>**', '<p><code>&lt;b&gt;</code> and <strong>&lt;i&gt;x&lt;/i&gt;</strong></p>'],
    ['```"><script>alert(1)</script>\nx\n```', '<pre><code>x\n</code></pre>'],
    ['&lt;img src=x onerror=alert(1)&gt;', '<p>&lt;img src=x onerror=alert(1)&gt;</p>'],
    ['&#60;script&#62;alert(1)&#60;/script&#62;', '<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>'],
    ['- <svg onload=alert(1)>', '<ul><li>&lt;svg onload=alert(1)&gt;</li></ul>'],
    ['# <iframe src=//evil>', '<h1>&lt;iframe src=//evil&gt;</h1>'],
    [
      '> </blockquote><script>x</script>',
      '<blockquote><p>&lt;/blockquote&gt;&lt;script&gt;x&lt;/script&gt;</p></blockquote>',
    ],
    [
      '| <b onclick=x> |\n|---|\n| y |',
      '<table><thead><tr><th>&lt;b onclick=x&gt;</th></tr></thead><tbody><tr><td>y</td></tr></tbody></table>',
    ],
  ])('neutralises %s', (input, html) => {
    expect(r(input)).toBe(html);
  });

  it('emits no markup but its own tags, for any input (property)', () => {
    const pieces = fc.constantFrom(
      '<',
      '>',
      '"',
      "'",
      '&',
      '&#60;',
      '&lt;',
      '`',
      '```',
      '**',
      '__',
      '~~',
      '|',
      '|---|',
      '[',
      ']',
      '(',
      ')',
      '!',
      'https://x.example/',
      'javascript:',
      'mailto:a@b.c',
      '\n',
      '\n\n',
      '- ',
      '1. ',
      '# ',
      '> ',
      ' ',
      'a',
      '中',
      '<script>',
      '<img src=x ',
      'onerror=',
      '\u202e',
      '\u0000',
    );
    fc.assert(
      fc.property(
        fc.array(pieces, { maxLength: 60 }).map((a) => a.join('')),
        (input) => {
          const rest = leftover(renderMarkdown(input));
          expect(rest).not.toMatch(/[<>]/);
        },
      ),
      { numRuns: 2000 },
    );
  });
});
