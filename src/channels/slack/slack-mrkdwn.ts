/**
 * Text for Slack's mrkdwn (docs/design.md#slack). Only `&`, `<` and `>` need escaping; a `<…>` we
 * emit is a whole link in one piece, code fences are closed and reopened at every block boundary,
 * and a cut never falls inside an entity — so any input, also a cut one, gives valid mrkdwn.
 */
export function escapeMrkdwn(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Longest text of one section block: Slack's limit is 3,000; the rest is room for the fences we add. */
export const MAX_BLOCK_CHARS = 2_900;

/** Inline markdown of one line of prose: `code`, **bold**, [text](http…) links; the rest escaped. */
function inline(line: string): string {
  const out: string[] = [];
  const re = /`([^`\n]+)`|\*\*([^*\n]+)\*\*|\[([^\]\n]+)\]\((https?:\/\/[^)\s|<>]+)\)/g;
  let last = 0;
  for (let m = re.exec(line); m; m = re.exec(line)) {
    out.push(escapeMrkdwn(line.slice(last, m.index)));
    if (m[1] !== undefined) out.push(`\`${escapeMrkdwn(m[1])}\``);
    else if (m[2] !== undefined) out.push(`*${escapeMrkdwn(m[2])}*`);
    else out.push(`<${escapeMrkdwn(m[4] ?? '')}|${escapeMrkdwn((m[3] ?? '').replace(/\|/g, '/'))}>`);
    last = m.index + m[0].length;
  }
  out.push(escapeMrkdwn(line.slice(last)));
  return out.join('');
}

/** One rendered line and whether it sits inside a code block. */
interface Line {
  text: string;
  code: boolean;
}

/** A source line whose rendering exceeds `max`, escaped only and cut into pieces of ≤ `max` (never inside an entity). */
function hardSplit(source: string, code: boolean, max: number): Line[] {
  const out: Line[] = [];
  let piece = '';
  for (const ch of source) {
    const e = escapeMrkdwn(ch);
    if (piece.length + e.length > max) {
      out.push({ text: piece, code });
      piece = '';
    }
    piece += e;
  }
  out.push({ text: piece, code });
  return out;
}

/**
 * Markdown as Claude writes it → mrkdwn lines: fenced code blocks (their language dropped: Slack
 * has no highlighting), headings bold, `> ` quotes kept as quotes, `- ` items as bullets, inline
 * code, bold and http(s) links; everything else escaped. An unclosed fence runs to the end.
 */
function renderLines(markdown: string, max: number): Line[] {
  const out: Line[] = [];
  let code = false;
  for (const line of markdown.split('\n')) {
    const fence = /^\s*```\s*([\w+#.-]*)\s*$/.exec(line);
    if (fence && (code ? fence[1] === '' : true)) {
      code = !code;
      continue;
    }
    let text: string;
    if (code) text = escapeMrkdwn(line);
    else {
      const heading = /^#{1,6}\s+(.*)$/.exec(line);
      const quote = /^>\s?(.*)$/.exec(line);
      const item = /^(\s*)[-*]\s+(.*)$/.exec(line);
      if (heading) text = `*${inline(heading[1] ?? '')}*`;
      else if (quote) text = `> ${inline(quote[1] ?? '')}`;
      else if (item) text = `${item[1] ?? ''}• ${inline(item[2] ?? '')}`;
      else text = inline(line);
    }
    if (text.length > max) out.push(...hardSplit(line, code, max));
    else out.push({ text, code });
  }
  return out;
}

const FENCE = '```';

/**
 * Markdown → one or more mrkdwn texts, each at most `max` characters (a section block's text),
 * split at line ends; a code block cut by a split is closed at the end of one text and opened
 * again at the start of the next, so each text is complete on its own.
 */
export function markdownToMrkdwnBlocks(markdown: string, max = MAX_BLOCK_CHARS): string[] {
  const lines = renderLines(markdown, max - 2 * (FENCE.length + 1));
  const blocks: string[] = [];
  let cur: string[] = [];
  let len = 0;
  let inCode = false;
  const flush = () => {
    if (inCode) cur.push(FENCE);
    const text = cur.join('\n');
    if (text.trim() !== '') blocks.push(text);
    cur = [];
    len = 0;
    inCode = false;
  };
  for (const line of lines) {
    const open = line.code && !inCode ? FENCE.length + 1 : 0;
    const close = !line.code && inCode ? FENCE.length + 1 : 0;
    const reserve = line.code ? FENCE.length + 1 : 0;
    if (cur.length > 0 && len + close + open + line.text.length + 1 + reserve > max) flush();
    if (!line.code && inCode) {
      cur.push(FENCE);
      len += FENCE.length + 1;
      inCode = false;
    }
    if (line.code && !inCode) {
      cur.push(FENCE);
      len += FENCE.length + 1;
      inCode = true;
    }
    cur.push(line.text);
    len += line.text.length + 1;
  }
  flush();
  return blocks;
}

/** Markdown → one mrkdwn text (no length limit: for short texts such as a caption or a notice). */
export function markdownToMrkdwn(markdown: string): string {
  return markdownToMrkdwnBlocks(markdown, Number.MAX_SAFE_INTEGER).join('\n');
}

/** Total characters of `markdown` rendered into section texts. */
export function renderedLength(markdown: string): number {
  return markdownToMrkdwnBlocks(markdown).reduce((n, b) => n + b.length, 0);
}

/**
 * How many characters of `text` to keep so that its rendering fits `budget` characters: ending
 * at a line break when one is in the last half, never inside a surrogate pair.
 */
export function fitMrkdwn(text: string, budget: number): number {
  if (renderedLength(text) <= budget) return text.length;
  let lo = 0;
  let hi = text.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (renderedLength(text.slice(0, mid)) <= budget) lo = mid;
    else hi = mid - 1;
  }
  let cut = lo;
  const nl = text.lastIndexOf('\n', cut);
  if (nl > cut / 2) cut = nl;
  const code = text.charCodeAt(cut - 1);
  if (cut > 0 && code >= 0xd800 && code <= 0xdbff) cut -= 1;
  return cut;
}

/** Text shown as it is (no markdown): escaped and cut into texts of at most `max` characters at line ends. */
export function plainToMrkdwnBlocks(text: string, max = MAX_BLOCK_CHARS): string[] {
  const blocks: string[] = [];
  let cur = '';
  for (const line of text.split('\n').flatMap((l) => hardSplit(l, false, max))) {
    if (cur !== '' && cur.length + 1 + line.text.length > max) {
      blocks.push(cur);
      cur = '';
    }
    cur = cur === '' ? line.text : `${cur}\n${line.text}`;
  }
  if (cur.trim() !== '') blocks.push(cur);
  return blocks;
}
