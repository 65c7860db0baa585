import MarkdownIt from 'markdown-it';
import sanitizeHtml from 'sanitize-html';

/**
 * Markdown → HTML for text written by Claude, the chat model or the user, as Claude Code shows it:
 * GitHub-flavoured Markdown (tables, ~~strikethrough~~, *emphasis*, fenced code, autolinked URLs),
 * single newlines kept as `<br>`, ordered lists keeping their first number (`<ol start="3">`, so a
 * reply that numbers items one per block — `/list` — reads 1, 2, 3).
 *
 * Why a library now: transcripts carry the whole of GFM (tables above all), which a hand-written
 * renderer cannot follow without growing into a parser of its own. So the parsing is markdown-it's,
 * and the security argument rests on two independent layers:
 *
 * 1. markdown-it runs with `html: false` — raw HTML in the input is escaped and comes out as
 *    visible text — and with its link validator, which refuses `javascript:`, `vbscript:`, `file:`
 *    and `data:` links. Markdown images are switched off (`![x](u)` reads as a link), so nothing
 *    on the page is ever fetched because a transcript said so.
 * 2. sanitize-html then keeps only the tags markdown-it emits for that subset (`MARKDOWN_TAGS`),
 *    with `a[href]` only for `http:`, `https:` and `mailto:` (always `rel="noopener noreferrer"`
 *    and `target="_blank"`), `ol[start]`, and `code[class=language-…]`; no `style`, no `on*`, no
 *    other attribute. Whatever slipped past layer 1 still cannot carry markup or script.
 *
 * @example
 *   renderMarkdown('**hi** <b>x</b>') // '<p><strong>hi</strong> &lt;b&gt;x&lt;/b&gt;</p>\n'
 */
export function renderMarkdown(text: string): string {
  return sanitizeHtml(md.render(text), SANITIZE).trimEnd();
}

const md = new MarkdownIt('default', { html: false, linkify: true, breaks: true, typographer: false });
md.disable('image');

/** Every tag markdown-it emits for the enabled rules (tables and strikethrough are GFM). */
export const MARKDOWN_TAGS = [
  'p',
  'br',
  'pre',
  'code',
  'strong',
  'em',
  's',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'blockquote',
  'ul',
  'ol',
  'li',
  'hr',
  'a',
  'table',
  'thead',
  'tbody',
  'tr',
  'th',
  'td',
];

const SANITIZE: sanitizeHtml.IOptions = {
  allowedTags: MARKDOWN_TAGS,
  allowedAttributes: { a: ['href', 'rel', 'target'], ol: ['start'], code: ['class'] },
  allowedClasses: { code: [/^language-[\w+#.-]{1,40}$/] },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesByTag: {},
  allowedSchemesAppliedToAttributes: ['href'],
  allowProtocolRelative: false,
  disallowedTagsMode: 'escape',
  transformTags: {
    a: (tagName, attribs) => ({
      tagName,
      attribs: {
        // Only an absolute http(s) or mailto link keeps its href: a relative one (`[a](src/a.ts)`,
        // `[](')`) would open a page of the console itself.
        ...(attribs.href && /^(?:https?:\/\/|mailto:)/i.test(attribs.href) ? { href: attribs.href } : {}),
        rel: 'noopener noreferrer',
        target: '_blank',
      },
    }),
    // `start` is a number markdown-it parsed; anything else is dropped.
    ol: (tagName, attribs) => {
      const kept: sanitizeHtml.Attributes = {};
      if (attribs.start && /^\d{1,9}$/.test(attribs.start)) kept.start = attribs.start;
      return { tagName, attribs: kept };
    },
  },
};
