import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { escapeHtml } from './http/escape-html.js';
import { renderMarkdown } from './render-markdown.js';

/** Every tag the renderer may emit, with the only attributes it may carry. */
const ALLOWED_TAG =
  /<\/?(?:p|br|pre|code|strong|h4|blockquote|ul|ol|li|hr)>|<ol start="\d{1,9}">|<code class="lang-[\w+#.-]+">|<a href="https?:\/\/[^"<>]*" rel="noopener noreferrer" target="_blank">|<\/a>/g;

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

describe('renderMarkdown', () => {
  it('renders paragraphs, line breaks, code blocks, inline code, bold, lists, headings, quotes', () => {
    expect(renderMarkdown('Hello **world**\nline two\n\nsecond')).toBe(
      '<p>Hello <strong>world</strong><br>line two</p><p>second</p>',
    );
    expect(renderMarkdown('```ts\nconst a = 1 < 2;\n```')).toBe(
      '<pre><code class="lang-ts">const a = 1 &lt; 2;</code></pre>',
    );
    expect(renderMarkdown('use `npm test` now')).toBe('<p>use <code>npm test</code> now</p>');
    expect(renderMarkdown('- a\n- **b**\n\n1. one\n2. two')).toBe(
      '<ul><li>a</li><li><strong>b</strong></li></ul><ol><li>one</li><li>two</li></ol>',
    );
    expect(renderMarkdown('# Title\n> quoted\n> more')).toBe('<h4>Title</h4><blockquote>quoted<br>more</blockquote>');
    expect(renderMarkdown('see [docs](https://example.com/a?b=1&c=2)')).toBe(
      '<p>see <a href="https://example.com/a?b=1&amp;c=2" rel="noopener noreferrer" target="_blank">docs</a></p>',
    );
    expect(renderMarkdown('中文 **加粗** 和 `代码`')).toBe('<p>中文 <strong>加粗</strong> 和 <code>代码</code></p>');
  });

  it('numbers an ordered list from its first number, also one item per block (/list: 1, 2, 3 — not 1, 1, 1)', () => {
    expect(renderMarkdown('3. three\n4. four')).toBe('<ol start="3"><li>three</li><li>four</li></ol>');
    expect(renderMarkdown('1. one\n\n2. two\n\n3. three')).toBe(
      '<ol><li>one</li></ol><ol start="2"><li>two</li></ol><ol start="3"><li>three</li></ol>',
    );
    expect(renderMarkdown('0) zero')).toBe('<ol start="0"><li>zero</li></ol>');
    expect(renderMarkdown('1. a\n1. b\n1. c')).toBe('<ol><li>a</li><li>b</li><li>c</li></ol>');
  });

  it('keeps a plain line after a list item in that item (a /list entry: title, id and meta in one item)', () => {
    expect(renderMarkdown('2. **Fix bug**\nID: abc12345\n终端 | 3条')).toBe(
      '<ol start="2"><li><strong>Fix bug</strong><br>ID: abc12345<br>终端 | 3条</li></ol>',
    );
    expect(renderMarkdown('- a\n  more\n\nafter')).toBe('<ul><li>a<br>more</li></ul><p>after</p>');
  });

  it('keeps an unclosed code fence as code to the end', () => {
    expect(renderMarkdown('```\n<b>x</b>')).toBe('<pre><code>&lt;b&gt;x&lt;/b&gt;</code></pre>');
  });

  it.each([
    ['<script>alert(1)</script>', '<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>'],
    ['<img src=x onerror=alert(1)>', '<p>&lt;img src=x onerror=alert(1)&gt;</p>'],
    ['[click](javascript:alert(1))', '<p>[click](javascript:alert(1))</p>'],
    ['[click](data:text/html,<script>)', '<p>[click](data:text/html,&lt;script&gt;)</p>'],
    [
      '[x](https://a.example/" onmouseover="alert(1))',
      '<p>[x](https://a.example/&quot; onmouseover=&quot;alert(1))</p>',
    ],
    ["[x](https://a.example/' onmouseover='alert(1))", '<p>[x](https://a.example/&#39; onmouseover=&#39;alert(1))</p>'],
    [
      '[<img src=x>](https://a.example)',
      '<p><a href="https://a.example" rel="noopener noreferrer" target="_blank">&lt;img src=x&gt;</a></p>',
    ],
    ['`<b>` and **<i>x</i>**', '<p><code>&lt;b&gt;</code> and <strong>&lt;i&gt;x&lt;/i&gt;</strong></p>'],
    [
      '```"><script>alert(1)</script>\nx\n```',
      '<p>```&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;<br>x</p><pre><code></code></pre>',
    ],
    ['&lt;already escaped&gt;', '<p>&amp;lt;already escaped&amp;gt;</p>'],
    ['- <svg onload=alert(1)>', '<ul><li>&lt;svg onload=alert(1)&gt;</li></ul>'],
    ['# <iframe src=//evil>', '<h4>&lt;iframe src=//evil&gt;</h4>'],
    ['> </blockquote><script>x</script>', '<blockquote>&lt;/blockquote&gt;&lt;script&gt;x&lt;/script&gt;</blockquote>'],
  ])('neutralises %s', (input, html) => {
    expect(renderMarkdown(input)).toBe(html);
  });

  it('emits no markup but its own tags, for any input (property)', () => {
    const pieces = fc.constantFrom(
      '<',
      '>',
      '"',
      "'",
      '&',
      '`',
      '```',
      '**',
      '__',
      '[',
      ']',
      '(',
      ')',
      'https://x.example/',
      'javascript:',
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
