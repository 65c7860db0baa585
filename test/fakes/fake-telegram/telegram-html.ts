/**
 * What the fake Bot API does with `parse_mode: "HTML"` text: checks it the way Telegram does
 * (only the documented tags, every tag closed in order, `&` only as an entity, `<`/`>` only as
 * tags) and returns the visible text, whose length is what the 4096 limit counts.
 */
const TAGS = new Set([
  'b',
  'strong',
  'i',
  'em',
  'u',
  'ins',
  's',
  'strike',
  'del',
  'code',
  'pre',
  'a',
  'blockquote',
  'tg-spoiler',
  'span',
]);
const ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"' };

export type HtmlCheck = { ok: true; visible: string } | { ok: false; description: string };

export function parseTelegramHtml(html: string): HtmlCheck {
  const stack: string[] = [];
  let visible = '';
  let i = 0;
  const fail = (what: string): HtmlCheck => ({
    ok: false,
    description: `Bad Request: can't parse entities: ${what} at byte offset ${Buffer.byteLength(html.slice(0, i))}`,
  });
  while (i < html.length) {
    const c = html[i];
    if (c === '<') {
      const end = html.indexOf('>', i);
      if (end < 0) return fail('Unclosed start tag');
      const body = html.slice(i + 1, end);
      const closing = body.startsWith('/');
      const name = (closing ? body.slice(1) : body).split(/\s/)[0]?.toLowerCase() ?? '';
      if (!TAGS.has(name)) return fail(`Unsupported start tag "${name}"`);
      if (closing) {
        if (stack.pop() !== name) return fail(`Unmatched end tag "${name}"`);
      } else stack.push(name);
      i = end + 1;
    } else if (c === '&') {
      const m = /^&(#\d+|#x[0-9a-fA-F]+|[a-z]+);/.exec(html.slice(i));
      if (!m?.[1]) return fail('Character entity expected');
      const name = m[1];
      if (name.startsWith('#')) {
        visible += String.fromCodePoint(
          name.startsWith('#x') ? Number.parseInt(name.slice(2), 16) : Number.parseInt(name.slice(1), 10),
        );
      } else {
        const v = ENTITIES[name];
        if (v === undefined) return fail(`Unsupported HTML entity "${name}"`);
        visible += v;
      }
      i += m[0].length;
    } else if (c === '>') {
      return fail('Unexpected end tag');
    } else {
      visible += c;
      i += 1;
    }
  }
  if (stack.length > 0) return fail(`Can't find end tag corresponding to start tag "${stack[stack.length - 1]}"`);
  return { ok: true, visible };
}
