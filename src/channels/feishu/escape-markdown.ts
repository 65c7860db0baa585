/**
 * Literal text inside Feishu card markdown.
 *
 * Card markdown (JSON 2.0) interprets far more than CommonMark: `<at id=all>`, `<font color>`,
 * `<link>`, `<text_tag>`, `<person>`… tags, `[text](url)` links, `![x](img_key)` images, `:OK:`
 * emoji, headings, quotes, lists, tables, code, emphasis, `---` rules. Text that the user or Claude wrote must not be
 * able to use any of it (a fake mention, a disguised link, a forged "✅ allowed" line), so every
 * character with a meaning is written as an HTML numeric entity (`&#60;`), the escape Feishu's
 * rich-text documentation prescribes ("特殊字符转义说明"); it renders as the character itself.
 *
 * The escaping of a character depends only on the characters before it, so the escape of a prefix
 * is a prefix of the escape of the whole text. CardKit's typewriter effect relies on that: it only
 * animates an update whose old text is a prefix of the new one.
 */

const ENTITY: Readonly<Record<string, string>> = {
  '&': '&#38;',
  '<': '&#60;',
  '>': '&#62;',
  '\\': '&#92;',
  '*': '&#42;',
  _: '&#95;',
  '~': '&#126;',
  '`': '&#96;',
  '[': '&#91;',
  ']': '&#93;',
  '(': '&#40;',
  ')': '&#41;',
  '#': '&#35;',
  '|': '&#124;',
  $: '&#36;',
};

/** Characters that only mean something as the first non-blank character of a line (list items). */
const LINE_START: Readonly<Record<string, string>> = { '-': '&#45;', '+': '&#43;' };

const NBSP = '&nbsp;';

/**
 * Yields `[rawChar, escapedPiece]` for each code point of `text` (surrogate pairs stay whole).
 * Carriage returns and other control characters except newline and tab are dropped.
 */
function* escapePieces(text: string): Generator<[string, string]> {
  let atLineStart = true;
  /** Characters since the last `:` are all word characters (a `:KEY:` emoji is being closed). */
  let emojiRun = false;
  let sinceColon = 0;
  for (const ch of text) {
    if (ch === '\n') {
      atLineStart = true;
      emojiRun = false;
      yield [ch, '\n'];
      continue;
    }
    if (ch === ':') {
      const closesEmoji: boolean = emojiRun && sinceColon > 0;
      emojiRun = !closesEmoji;
      sinceColon = 0;
      atLineStart = false;
      yield [ch, closesEmoji ? '&#58;' : ':'];
      continue;
    }
    emojiRun &&= /\w/.test(ch);
    sinceColon += 1;
    const code = ch.codePointAt(0) ?? 0;
    if ((code < 0x20 && ch !== '\t') || code === 0x7f) {
      yield [ch, ''];
      continue;
    }
    if (atLineStart && (ch === ' ' || ch === '\t')) {
      // Leading blanks would otherwise start an indented code block or be collapsed.
      yield [ch, ch === '\t' ? NBSP.repeat(4) : NBSP];
      continue;
    }
    const piece = ENTITY[ch] ?? (atLineStart ? LINE_START[ch] : undefined) ?? ch;
    atLineStart = false;
    yield [ch, piece];
  }
}

/**
 * `text` as literal card markdown: shows exactly `text`, interprets nothing.
 *
 * @example escapeMarkdown('<at id=all></at> **hi**') // '&#60;at id=all&#62;&#60;/at&#62; &#42;&#42;hi&#42;&#42;'
 */
export function escapeMarkdown(text: string): string {
  let out = '';
  for (const [, piece] of escapePieces(text)) out += piece;
  return out;
}

/** `text` as a literal markdown block quote (`> ` on every line), e.g. Claude's thinking. */
export function quoteMarkdown(text: string): string {
  return escapeMarkdown(text)
    .split('\n')
    .map((line) => `> ${line}`)
    .join('\n');
}

/** Bytes a string adds to a card once the card is serialised as JSON (UTF-8, JSON escapes included). */
export function jsonBytes(s: string): number {
  return Buffer.byteLength(JSON.stringify(s), 'utf8') - 2;
}

/**
 * How many characters (UTF-16 units, never splitting a surrogate pair) of `text` fit in `maxBytes`
 * once escaped (`mode: 'plain'`) or quoted (`mode: 'quote'`) and serialised as JSON. Prefers to cut
 * after a paragraph or line break when one lies in the last fifth of what fits.
 */
export function escapedFit(text: string, maxBytes: number, mode: 'plain' | 'quote' = 'plain'): number {
  let used = mode === 'quote' ? 2 : 0;
  let chars = 0;
  for (const [raw, piece] of escapePieces(text)) {
    const cost = jsonBytes(piece) + (mode === 'quote' && raw === '\n' ? 2 : 0);
    if (used + cost > maxBytes) return niceCut(text, chars);
    used += cost;
    chars += raw.length;
  }
  return chars;
}

/** Backs `cut` up to just after the last paragraph or line break in its last fifth, if any. */
function niceCut(text: string, cut: number): number {
  if (cut < 2) return cut;
  const floor = Math.floor(cut * 0.8);
  for (const sep of ['\n\n', '\n']) {
    const at = text.lastIndexOf(sep, cut - sep.length);
    if (at >= floor) return at + sep.length;
  }
  return cut;
}

/**
 * Text for a plain `text` message (not a card). Text messages render only a few tags, of which
 * `<at …>` is the one that could ping or impersonate someone; it is broken with a zero-width space.
 * Nothing else is touched, so code pasted from a reply stays byte-for-byte usable.
 */
export function neutralizeTextMentions(text: string): string {
  return text.replace(/<(\/?)(at)(?=[\s>])/gi, '<\u200b$1$2');
}

function* answerPieces(text: string): Generator<[string, string]> {
  let atLineStart = true;
  for (const ch of text) {
    if (ch === '\n') {
      atLineStart = true;
      yield [ch, ch];
      continue;
    }
    if (atLineStart && (ch === ' ' || ch === '\t')) {
      yield [ch, ch];
      continue;
    }
    const piece = ch === '<' ? '&#60;' : ch === '>' && !atLineStart ? '&#62;' : ch;
    atLineStart = false;
    yield [ch, piece];
  }
}

/**
 * Claude's answer as card markdown: its formatting (code fences, bold, lists, links, `>` quotes)
 * is kept, while every tag-like `<…>` — `<at id=all>`, `<font>`, `<a>` — is shown literally, so an
 * answer cannot ping people or restyle the card. Prefix-stable (each character's rendering depends
 * only on what precedes it), which keeps CardKit's typewriter effect working while streaming.
 */
export function answerMarkdown(text: string): string {
  let out = '';
  for (const [, piece] of answerPieces(text)) out += piece;
  return out;
}

/** Characters of `text` that fit in `maxBytes` once rendered by `answerMarkdown` and serialised. */
export function answerFit(text: string, maxBytes: number): number {
  let used = 0;
  let chars = 0;
  for (const [raw, piece] of answerPieces(text)) {
    const cost = jsonBytes(piece);
    if (used + cost > maxBytes) return niceCut(text, chars);
    used += cost;
    chars += raw.length;
  }
  return chars;
}
