/**
 * Text for Telegram's HTML parse mode (docs/design.md#telegram): chosen over MarkdownV2, whose
 * escaping rules cover 18 characters and break on any miss, and over plain text, which would show
 * Claude's code fences and `**` raw. Only `&`, `<` and `>` need escaping; every tag we emit is
 * closed in the same line of code that opens it, so any input — also a cut one — gives valid HTML
 * whose visible text is never longer than the input.
 */
export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function escapeAttr(text: string): string {
  return escapeHtml(text).replace(/"/g, '&quot;');
}

/** Inline markdown of one line of prose: `code`, **bold**, [text](http…) links; the rest escaped. */
function inline(line: string): string {
  const out: string[] = [];
  const re = /`([^`\n]+)`|\*\*([^*\n]+)\*\*|\[([^\]\n]+)\]\((https?:\/\/[^)\s]+)\)/g;
  let last = 0;
  for (let m = re.exec(line); m; m = re.exec(line)) {
    out.push(escapeHtml(line.slice(last, m.index)));
    if (m[1] !== undefined) out.push(`<code>${escapeHtml(m[1])}</code>`);
    else if (m[2] !== undefined) out.push(`<b>${escapeHtml(m[2])}</b>`);
    else out.push(`<a href="${escapeAttr(m[4] ?? '')}">${escapeHtml(m[3] ?? '')}</a>`);
    last = m.index + m[0].length;
  }
  out.push(escapeHtml(line.slice(last)));
  return out.join('');
}

/**
 * Markdown as Claude writes it → Telegram HTML: fenced code blocks as `<pre><code>`, headings
 * bold, inline code, bold and http(s) links; everything else is escaped text. An unclosed fence
 * (a cut answer) runs to the end.
 */
export function markdownToHtml(markdown: string): string {
  const lines = markdown.split('\n');
  const out: string[] = [];
  let code: string[] | undefined;
  let lang = '';
  const closeCode = () => {
    const cls = lang ? ` class="language-${escapeAttr(lang)}"` : '';
    out.push(`<pre><code${cls}>${escapeHtml((code ?? []).join('\n'))}</code></pre>`);
    code = undefined;
  };
  for (const line of lines) {
    const fence = /^\s*```\s*([\w+#.-]*)\s*$/.exec(line);
    if (code) {
      if (fence && fence[1] === '') closeCode();
      else code.push(line);
      continue;
    }
    if (fence) {
      code = [];
      lang = fence[1] ?? '';
      continue;
    }
    const heading = /^#{1,6}\s+(.*)$/.exec(line);
    out.push(heading ? `<b>${inline(heading[1] ?? '')}</b>` : inline(line));
  }
  if (code) closeCode();
  return out.join('\n');
}

/** Visible length of HTML we produced (tags dropped, entities counted as one character). */
export function visibleLength(html: string): number {
  return html.replace(/<[^>]*>/g, '').replace(/&(?:amp|lt|gt|quot);/g, '_').length;
}

/**
 * How many characters of `text` to keep so that it fits `budget` visible characters: at most
 * `budget`, ending at a line break when one is in the last half, never inside a surrogate pair.
 */
export function fitChars(text: string, budget: number): number {
  if (text.length <= budget) return text.length;
  let cut = Math.max(0, budget);
  const nl = text.lastIndexOf('\n', cut);
  if (nl > cut / 2) cut = nl;
  const code = text.charCodeAt(cut - 1);
  if (cut > 0 && code >= 0xd800 && code <= 0xdbff) cut -= 1;
  return cut;
}
