import { escapeHtml } from './http/escape-html.js';

/**
 * A tiny, safe markdown renderer for text written by Claude, the chat model or the user:
 * paragraphs (single newlines kept as `<br>`), fenced code blocks, `inline code`, **bold**,
 * `# headings` (as `<h4>`), `> quotes`, `-`/`*`/`+` and `1.` lists, and `[text](https://…)` links.
 *
 * Lists follow CommonMark where it shows: an ordered list keeps its first number (`<ol start="3">`,
 * so a reply that numbers items one per block — `/list` — reads 1, 2, 3, not 1, 1, 1), and a plain
 * line right after an item continues that item (a lazy continuation line, kept as `<br>`).
 *
 * Why not a library: nothing is fetched or bundled, and the whole security argument fits here —
 * every piece of input text is passed through `escapeHtml` BEFORE any markup is added, and the only
 * tags ever emitted are the fixed ones above. Raw HTML in the input comes out as visible text. A
 * link is emitted only for an `http:`/`https:` URL, with its href escaped and
 * `rel="noopener noreferrer"`; anything else (`javascript:`, `data:`) stays plain text.
 *
 * @example
 *   renderMarkdown('**hi** <b>x</b>') // '<p><strong>hi</strong> &lt;b&gt;x&lt;/b&gt;</p>'
 */
export function renderMarkdown(text: string): string {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const out: string[] = [];
  let para: string[] = [];
  let list: { tag: 'ul' | 'ol'; start: number; items: string[][] } | null = null;
  let quote: string[] = [];

  const flushPara = () => {
    if (para.length > 0) out.push(`<p>${para.map(renderInline).join('<br>')}</p>`);
    para = [];
  };
  const flushList = () => {
    if (list) {
      // `start` is a number parsed from at most 9 digits: nothing from the input reaches the tag as text.
      const open = list.tag === 'ol' && list.start !== 1 ? `<ol start="${list.start}">` : `<${list.tag}>`;
      const items = list.items.map((lines) => `<li>${lines.map(renderInline).join('<br>')}</li>`).join('');
      out.push(`${open}${items}</${list.tag}>`);
    }
    list = null;
  };
  const flushQuote = () => {
    if (quote.length > 0) out.push(`<blockquote>${quote.map(renderInline).join('<br>')}</blockquote>`);
    quote = [];
  };
  const flushAll = () => {
    flushPara();
    flushList();
    flushQuote();
  };

  for (let i = 0; i < lines.length; i += 1) {
    const line = lines[i] as string;
    const fence = /^\s{0,3}(`{3,}|~{3,})\s*([\w+#.-]*)\s*$/.exec(line);
    if (fence) {
      flushAll();
      const marker = fence[1] as string;
      const lang = fence[2] ?? '';
      const body: string[] = [];
      i += 1;
      while (i < lines.length && !(lines[i] as string).trimStart().startsWith(marker)) {
        body.push(lines[i] as string);
        i += 1;
      }
      const cls = lang ? ` class="lang-${escapeHtml(lang)}"` : '';
      out.push(`<pre><code${cls}>${escapeHtml(body.join('\n'))}</code></pre>`);
      continue;
    }
    if (line.trim() === '') {
      flushAll();
      continue;
    }
    const heading = /^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading) {
      flushAll();
      out.push(`<h4>${renderInline(heading[1] ?? '')}</h4>`);
      continue;
    }
    const q = /^\s{0,3}>\s?(.*)$/.exec(line);
    if (q) {
      flushPara();
      flushList();
      quote.push(q[1] ?? '');
      continue;
    }
    const bullet = /^\s{0,6}[-*+]\s+(.*)$/.exec(line);
    const ordered = /^\s{0,6}(\d{1,9})[.)]\s+(.*)$/.exec(line);
    if (bullet || ordered) {
      flushPara();
      flushQuote();
      const tag = bullet ? 'ul' : 'ol';
      if (!list || list.tag !== tag) {
        flushList();
        list = { tag, start: ordered ? Number(ordered[1]) : 1, items: [] };
      }
      list.items.push([(bullet ? bullet[1] : ordered?.[2]) ?? '']);
      continue;
    }
    if (/^\s{0,3}([-*_])(\s*\1){2,}\s*$/.test(line)) {
      flushAll();
      out.push('<hr>');
      continue;
    }
    const lastItem = list?.items[list.items.length - 1];
    if (lastItem) {
      lastItem.push(line.trim());
      continue;
    }
    flushQuote();
    para.push(line);
  }
  flushAll();
  return out.join('');
}

/** Inline spans: code first (its content is never formatted), then bold and links on escaped text. */
function renderInline(text: string): string {
  const parts = text.split(/(`+)([^`]|[^`][\s\S]*?[^`])\1(?!`)/);
  let html = '';
  for (let i = 0; i < parts.length; i += 3) {
    html += formatPlain(parts[i] ?? '');
    const code = parts[i + 2];
    if (code !== undefined) html += `<code>${escapeHtml(code)}</code>`;
  }
  return html;
}

function formatPlain(text: string): string {
  let out = '';
  const link = /\[([^\]\n]{1,500})\]\((https?:\/\/[^\s()<>"']{1,2000})\)/gi;
  let last = 0;
  for (let m = link.exec(text); m; m = link.exec(text)) {
    out += bold(escapeHtml(text.slice(last, m.index)));
    out += `<a href="${escapeHtml(m[2] as string)}" rel="noopener noreferrer" target="_blank">${bold(escapeHtml(m[1] as string))}</a>`;
    last = m.index + m[0].length;
  }
  return out + bold(escapeHtml(text.slice(last)));
}

/** `**x**` / `__x__` on already-escaped text (the markers are not special to HTML, so this adds no risk). */
function bold(escaped: string): string {
  return escaped
    .replace(/\*\*(?=\S)([\s\S]*?\S)\*\*/g, '<strong>$1</strong>')
    .replace(/(^|\W)__(?=\S)([\s\S]*?\S)__(?=\W|$)/g, '$1<strong>$2</strong>');
}
