import { describe, expect, it } from 'vitest';
import type { CardReply } from '../../bridge/reply-model.js';
import {
  answerMarkdown,
  cardMarkdown,
  DINGTALK_MAX_TEXT,
  escapeMarkdown,
  renderMarkdown,
  titleOf,
} from './render-markdown.js';

const perm = (decision: 'allow' | 'deny' | 'always') =>
  ({ type: 'permission', requestId: 'r', nonce: 'n', decision }) as const;

describe('DingTalk markdown', () => {
  it("shows user text literally and keeps the agent's formatting without HTML", () => {
    expect(escapeMarkdown('[a](b) *c* <font>&')).toBe('\\[a\\]\\(b\\) \\*c\\* &lt;font&gt;&amp;');
    expect(answerMarkdown('**bold** <font color=red>x</font> &amp; & `a<b`')).toBe(
      '**bold** &lt;font color=red>x&lt;/font> &amp; &amp; `a&lt;b`',
    );
    expect(titleOf('## **Hello** world\nsecond')).toBe('Hello world');
    expect(titleOf('')).toBe('cc-linker');
  });

  it("lists a prompt's buttons as numbered options and returns their actions in order", () => {
    const card: CardReply = {
      kind: 'card',
      title: 'Permission',
      status: 'warning',
      sections: [{ type: 'plain', text: 'Bash: touch x' }],
      buttons: [
        { label: 'Allow', action: perm('allow') },
        { label: 'Deny', action: perm('deny') },
      ],
    };
    const r = renderMarkdown(card, 'en');
    expect(r.text).toBe('### Permission\n\nBash: touch x\n\n**Reply with a number to choose:**\n\n1. Allow\n2. Deny');
    expect(r.actions).toEqual([perm('allow'), perm('deny')]);
    expect(renderMarkdown(card, 'zh').text).toContain('回复数字选择');
  });

  it("makes an offered prompt's options tappable links naming the option and the prompt", () => {
    const card: CardReply = {
      kind: 'card',
      title: 'Which one?',
      status: 'warning',
      sections: [{ type: 'plain', text: 'Pick' }],
      buttons: [
        { label: 'Allow', action: perm('allow') },
        { label: '[x](y) *z* (a) <b>', action: perm('deny') },
      ],
    };
    const r = renderMarkdown(card, 'en', 'k3f9');
    const options = r.text.split('\n\n').slice(-2);
    expect(options).toEqual([
      '**Tap an option, or reply with its number** · #k3f9',
      '1. [Allow](dtmd://dingtalkclient/sendMessage?content=1%20%23k3f9)\n' +
        '2. [\\[x\\]\\(y\\) \\*z\\* \\(a\\) &lt;b&gt;](dtmd://dingtalkclient/sendMessage?content=2%20%23k3f9)',
    ]);
    // Each link's target, read back as DingTalk would, is the text the tap sends.
    const targets = [...r.text.matchAll(/\]\((dtmd:[^)]+)\)/g)].map((m) => new URL(m[1]!).searchParams.get('content'));
    expect(targets).toEqual(['1 #k3f9', '2 #k3f9']);
    expect(renderMarkdown(card, 'zh', 'k3f9').text).toContain('**点选一项，或回复数字** · #k3f9');
    expect(renderMarkdown(card, 'en').text).not.toContain('dtmd:');
  });

  it("keeps a prompt's options whole when its text is too long", () => {
    const card: CardReply = {
      kind: 'card',
      title: 'Permission',
      status: 'warning',
      sections: [{ type: 'plain', text: `Bash: ${'x'.repeat(6_000)}` }],
      buttons: [
        { label: 'Allow', action: perm('allow') },
        { label: 'Deny', action: perm('deny') },
      ],
    };
    const r = renderMarkdown(card, 'en', 'abcd');
    expect(r.text.length).toBeLessThanOrEqual(DINGTALK_MAX_TEXT);
    expect(r.text).toContain('…');
    expect(r.text.endsWith('2. [Deny](dtmd://dingtalkclient/sendMessage?content=2%20%23abcd)')).toBe(true);
  });

  it('cuts a long answer at a line break under the limit, with the note, and says how much it kept', () => {
    const text = Array.from({ length: 300 }, (_, i) => `line ${i} ${'y'.repeat(20)}`).join('\n');
    const card: CardReply = {
      kind: 'card',
      title: 'T',
      status: 'complete',
      sections: [{ type: 'answer', text }],
      footer: 'f',
    };
    const { text: shown, kept } = cardMarkdown(card, 'en', { text, note: 'NOTE' });
    expect(shown.length).toBeLessThanOrEqual(DINGTALK_MAX_TEXT);
    expect(kept).toBeLessThan(text.length);
    expect(text[kept]).toBe('\n');
    expect(shown).toContain(text.slice(0, kept));
    expect(shown).toContain('*NOTE*');
    const short = cardMarkdown(card, 'en', { text: 'short', note: 'NOTE' });
    expect(short.kept).toBe(5);
  });

  it('never exceeds the limit, even for text that grows when escaped', () => {
    const r = renderMarkdown({ kind: 'text', text: '<'.repeat(4_000) }, 'en');
    expect(r.text.length).toBeLessThanOrEqual(DINGTALK_MAX_TEXT);
    expect(r.text.endsWith('…')).toBe(true);
    expect(r.text).not.toMatch(/&l?t?…$/);
  });
});
