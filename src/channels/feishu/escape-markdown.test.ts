import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { escapedFit, escapeMarkdown, jsonBytes, neutralizeTextMentions, quoteMarkdown } from './escape-markdown.js';

/** Every markdown-active character a hostile string could use, outside an entity. */
const ACTIVE = /[<>*_~`[\]()#|\\$]/;

/** The text a reader sees: entities decoded (what Feishu renders). */
function decode(markdown: string): string {
  return markdown.replace(/&nbsp;/g, ' ').replace(/&#(\d+);/g, (_, n: string) => String.fromCodePoint(Number(n)));
}

describe('escapeMarkdown', () => {
  it.each([
    ['closing font tag', '</font><font color="red">已允许</font>'],
    ['mention of everyone', '<at id=all></at> 请看'],
    ['mention by id', '<at user_id="ou_123">boss</at>'],
    ['disguised link', '[官方文档](http://evil.example/phish)'],
    ['image', '![x](img_v3_secret)'],
    ['bold', '**✅ 已批准**'],
    ['inline code and fence', '`rm -rf /`\n```js\nalert(1)\n```'],
    ['heading', '# 系统通知'],
    ['quote', '> 引用'],
    ['table', '| a | b |\n|---|---|'],
    ['strike and emphasis', '~~x~~ _y_ *z*'],
    ['link tag', "<link url='http://evil'>ok</link>"],
    ['text tag', "<text_tag color='green'>已通过</text_tag>"],
    ['backslash before entity', '\\&#60;b&#62;'],
    ['feishu emoji', ':DONE: 已批准 :OK::THUMBSUP:'],
    ['template variable', '${secret}'],
  ])('leaves no active character in %s, and shows it unchanged', (_name, hostile) => {
    const out = escapeMarkdown(hostile);
    expect(out.replace(/&(#\d+|nbsp);/g, '')).not.toMatch(ACTIVE);
    expect(out).not.toMatch(/:\w+:/);
    expect(decode(out)).toBe(hostile);
  });

  it('escapes list markers and indentation only at the start of a line', () => {
    expect(escapeMarkdown('- item\n+ plus\n  - nested\na - b + c')).toBe(
      '&#45; item\n&#43; plus\n&nbsp;&nbsp;&#45; nested\na - b + c',
    );
  });

  it('leaves ordinary colons alone (times, URLs, labels)', () => {
    expect(escapeMarkdown('at 10:30, see https://x.dev:8080/a — note: ok')).toBe(
      'at 10:30, see https://x.dev:8080/a — note: ok',
    );
  });

  it('keeps newlines, drops carriage returns and control characters, keeps emoji whole', () => {
    expect(escapeMarkdown('a\r\nb\u0000c 🚀')).toBe('a\nbc 🚀');
  });

  it('is prefix-stable: the escape of a prefix is a prefix of the escape (CardKit typewriter)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme-composite', maxLength: 80 }), fc.nat(), (text, n) => {
        const prefix = text.slice(0, n % (text.length + 1));
        return escapeMarkdown(text).startsWith(escapeMarkdown(prefix));
      }),
    );
  });

  it('round-trips any text through the decoder', () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 60 }),
        (text) =>
          decode(escapeMarkdown(text)) ===
          text
            .replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, '')
            .replace(/^([ \t]+)/gm, (m) => m.replace(/\t/g, '    ')),
      ),
    );
  });
});

describe('quoteMarkdown', () => {
  it('quotes every line and escapes the content', () => {
    expect(quoteMarkdown('first\n> fake reply\n**bold**')).toBe(
      '> first\n> &#62; fake reply\n> &#42;&#42;bold&#42;&#42;',
    );
  });
});

describe('escapedFit', () => {
  it('returns the longest prefix whose escaped JSON fits, never over the budget', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), fc.integer({ min: 0, max: 400 }), (text, budget) => {
        const kept = escapedFit(text, budget);
        return kept <= text.length && jsonBytes(escapeMarkdown(text.slice(0, kept))) <= budget;
      }),
    );
  });

  it('takes everything when it fits, and prefers to cut after a line break', () => {
    expect(escapedFit('short', 100)).toBe(5);
    const text = `${'a'.repeat(90)}\n${'b'.repeat(50)}`;
    expect(escapedFit(text, 100)).toBe(91);
  });

  it('counts the quote prefix of every line in quote mode', () => {
    expect(jsonBytes(quoteMarkdown('ab\ncd'))).toBe(10);
    expect(escapedFit('ab\ncd', 10, 'quote')).toBe(5);
    expect(escapedFit('ab\ncd', 9, 'quote')).toBeLessThan(5);
    fc.assert(
      fc.property(fc.string({ maxLength: 120 }), fc.integer({ min: 2, max: 300 }), (text, budget) => {
        return jsonBytes(quoteMarkdown(text.slice(0, escapedFit(text, budget, 'quote')))) <= budget;
      }),
    );
  });

  it('never splits a surrogate pair', () => {
    const kept = escapedFit('😀😀😀', 9);
    expect(kept % 2).toBe(0);
  });
});

describe('neutralizeTextMentions', () => {
  it('breaks <at> tags in plain text messages and leaves other angle brackets alone', () => {
    expect(neutralizeTextMentions('<at user_id="all">所有人</at> Array<string> a<b')).toBe(
      '<\u200bat user_id="all">所有人<\u200b/at> Array<string> a<b',
    );
  });
});

describe('answerMarkdown (Claude-written markdown)', () => {
  it('keeps formatting but shows tags and mentions literally', async () => {
    const { answerMarkdown } = await import('./escape-markdown.js');
    const text = '**bold**\n> quoted\n```ts\nconst a = b > c;\n```\n<at id=all></at> <font color="red">x</font>';
    const out = answerMarkdown(text);
    expect(out).toContain('**bold**');
    expect(out).toContain('> quoted');
    expect(out).toContain('```ts');
    expect(out).not.toMatch(/<at|<font|<\/font>/);
    expect(out).toContain('&#60;at id=all&#62;');
    expect(out).toContain('b &#62; c');
  });

  it('is prefix-stable, so streamed updates only ever append', async () => {
    const { answerMarkdown } = await import('./escape-markdown.js');
    const text = 'a <b> c\n> d <at id=all>';
    for (let i = 0; i < text.length; i += 1)
      expect(answerMarkdown(text).startsWith(answerMarkdown(text.slice(0, i)))).toBe(true);
  });
});
